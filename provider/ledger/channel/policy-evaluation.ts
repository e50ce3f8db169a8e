/**
 * A channel policy evaluated against a set of signers, as Fabric's policy managers evaluate it (common/policies,
 * common/cauthdsl): a policy named by path ("/Channel/Application/Admins", or relative to a group: "Admins",
 * "Org1MSP/Admins"); an implicit meta policy over the same-named policy of every sub-group (ANY 1, ALL every one,
 * MAJORITY more than half; no sub-groups: satisfied); a signature policy NOutOf gate by gate, each signer used for at
 * most one principal. Besides the verdict it says who is missing: the organizations whose signature would count.
 */
import type { PolicyEvaluation } from "../../errors/ledger/update-authorization-types";
import { codecs } from "../codec";
import type { Config, ConfigGroup, FabricMspConfig } from "../config-messages";
import type { SignaturePolicy, SignaturePolicyEnvelope } from "../messages";
import { GROUP, groupAt, groupKeys, policyAt } from "./config-tree";
import type { ChannelSigner } from "./msp-principals";
import { satisfiesPrincipal } from "./msp-principals";
import { IMPLICIT_META_RULES, POLICY_TYPE, policyText } from "./policy-text";

/** Where a policy is: its group's path below /Channel and its name. */
export interface PolicyLocation {
  readonly groupPath: readonly string[];
  readonly name: string;
}

/** Resolves a mod_policy as policyForItem does: absolute from /Channel, else relative to `base` (a group path). */
export function locatePolicy(reference: string, base: readonly string[]): PolicyLocation | undefined {
  if (reference.startsWith("/")) {
    const parts = reference.slice(1).split("/");
    if (parts[0] !== GROUP.CHANNEL || parts.length < 2) return undefined;
    return { groupPath: parts.slice(1, -1), name: parts[parts.length - 1] ?? "" };
  }
  const parts = reference.split("/");
  return { groupPath: [...base, ...parts.slice(0, -1)], name: parts[parts.length - 1] ?? "" };
}

function pathText(location: PolicyLocation): string {
  return `/${[GROUP.CHANNEL, ...location.groupPath, location.name].join("/")}`;
}

/** cauthdsl's compile: each gate tries its rules in order on a copy of the used flags, keeping a rule's when it passes. */
function evaluateRule(
  rule: SignaturePolicy | undefined,
  envelope: SignaturePolicyEnvelope,
  signers: readonly ChannelSigner[],
  used: boolean[],
  msps: ReadonlyMap<string, FabricMspConfig>,
  unmet: Set<number>,
): boolean {
  if (rule?.signedBy !== undefined) {
    const principal = envelope.identities[rule.signedBy];
    const index =
      principal === undefined ? -1 : signers.findIndex((s, i) => !used[i] && satisfiesPrincipal(s, principal, msps));
    if (index < 0) {
      unmet.add(rule.signedBy);
      return false;
    }
    used[index] = true;
    return true;
  }
  const gate = rule?.nOutOf;
  if (gate === undefined) return false;
  let verified = 0;
  for (const sub of gate.rules) {
    const trial = [...used];
    if (evaluateRule(sub, envelope, signers, trial, msps, unmet)) {
      verified++;
      trial.forEach((u, i) => (used[i] = u));
    }
  }
  return verified >= gate.n;
}

function mspOfPrincipal(envelope: SignaturePolicyEnvelope, index: number): string {
  const principal = envelope.identities[index];
  if (principal === undefined) return "?";
  try {
    if (principal.principalClassification === 0) return codecs.MspRole.decode(principal.principal).mspIdentifier;
    if (principal.principalClassification === 1)
      return codecs.OrganizationUnit.decode(principal.principal).mspIdentifier;
    if (principal.principalClassification === 2) return codecs.SerializedIdentity.decode(principal.principal).mspid;
  } catch {
    return "?";
  }
  return "?";
}

/** Evaluates the policy at `location` of `config` against `signers`. */
export function evaluatePolicy(
  config: Config,
  location: PolicyLocation,
  signers: readonly ChannelSigner[],
  msps: ReadonlyMap<string, FabricMspConfig>,
): PolicyEvaluation {
  const path = pathText(location);
  const group = groupAt(config.channelGroup, location.groupPath);
  const policy = policyAt(group, location.name)?.policy;
  const rule = policyText(policy).rule;
  if (group === undefined || policy === undefined)
    return {
      path,
      rule: "missing (Fabric rejects everything)",
      satisfied: false,
      needed: 1,
      missing: [],
      satisfiedBy: [],
    };
  if (policy.type === POLICY_TYPE.IMPLICIT_META) return evaluateImplicitMeta(config, location, group, signers, msps);
  if (policy.type !== POLICY_TYPE.SIGNATURE)
    return { path, rule, satisfied: false, needed: 1, missing: [], satisfiedBy: [] };
  const envelope = codecs.SignaturePolicyEnvelope.decode(policy.value, { path });
  const used = signers.map(() => false);
  const unmet = new Set<number>();
  const satisfied = evaluateRule(envelope.rule, envelope, signers, used, new Map(msps), unmet);
  const satisfiedBy = [...new Set(signers.filter((_s, i) => used[i]).map((s) => s.identity.mspId))];
  const missing = satisfied ? [] : [...new Set([...unmet].map((i) => mspOfPrincipal(envelope, i)))].sort();
  const n = envelope.rule?.nOutOf?.n ?? 1;
  return { path, rule, satisfied, needed: satisfied ? 0 : Math.max(1, n - satisfiedBy.length), missing, satisfiedBy };
}

function evaluateImplicitMeta(
  config: Config,
  location: PolicyLocation,
  group: ConfigGroup,
  signers: readonly ChannelSigner[],
  msps: ReadonlyMap<string, FabricMspConfig>,
): PolicyEvaluation {
  const path = pathText(location);
  const meta = codecs.ImplicitMetaPolicy.decode(policyAt(group, location.name)?.policy?.value ?? new Uint8Array(0));
  const subs = groupKeys(group).map((key) => ({
    key,
    result: evaluatePolicy(config, { groupPath: [...location.groupPath, key], name: meta.subPolicy }, signers, msps),
  }));
  const ruleName = IMPLICIT_META_RULES[meta.rule] ?? "ANY";
  const threshold =
    subs.length === 0 ? 0 : ruleName === "ANY" ? 1 : ruleName === "ALL" ? subs.length : Math.floor(subs.length / 2) + 1;
  const met = subs.filter((s) => s.result.satisfied);
  const satisfied = met.length >= threshold;
  return {
    path,
    rule: `${ruleName} ${meta.subPolicy}`,
    satisfied,
    needed: satisfied ? 0 : threshold - met.length,
    missing: satisfied ? [] : subs.filter((s) => !s.result.satisfied).map((s) => s.key),
    satisfiedBy: [...new Set(met.flatMap((s) => s.result.satisfiedBy))],
  };
}

export type { PolicyEvaluation };
