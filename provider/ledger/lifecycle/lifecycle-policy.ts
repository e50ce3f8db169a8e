/**
 * The channel's lifecycle endorsement policy (/Channel/Application/LifecycleEndorsement), read from its newest
 * configuration block, and whether a set of approving organizations meets it. A commit is endorsed by the peers of
 * the organizations that approved (a peer refuses to endorse a commit its organization did not approve), so the
 * policy is met when those organizations satisfy it:
 *
 * - IMPLICIT_META (the default `MAJORITY Endorsement`): ANY, ALL or MAJORITY of the application organizations;
 * - SIGNATURE: the signature policy with each principal of an approving organization satisfied;
 * - no such policy (a channel from before Fabric 2.0's lifecycle): Fabric's fallback, a majority of the organizations
 *   (core/chaincode/lifecycle/lifecycle.go LifecycleEndorsementPolicyAsBytes).
 */
import type * as grpc from "@grpc/grpc-js";
import { fetchConfigBlockThroughGateway } from "../channel-capabilities";
import { readConfigBlock } from "../channel/config-block";
import { codecs } from "../codec";
import type { ConfigGroup } from "../config-messages";
import type { Gateway } from "../gateway-client";
import type { SignaturePolicy, SignaturePolicyEnvelope } from "../messages";
import { printSignaturePolicy } from "./signature-policy";

const SIGNATURE = 1;
const IMPLICIT_META = 3;
const RULES = ["ANY", "ALL", "MAJORITY"] as const;

/** The policy, as what it needs. */
export interface LifecycleEndorsementPolicy {
  /** "MAJORITY Endorsement", a signature policy's text, or "MAJORITY (Fabric's fallback)". */
  readonly description: string;
  /** The channel's application organizations, sorted. */
  readonly organizations: readonly string[];
  /** Whether these approving organizations meet it. */
  isMetBy(approved: ReadonlySet<string>): boolean;
}

function countNeeded(rule: number, of: number): number {
  return rule === 0 ? Math.min(1, of) : rule === 1 ? of : Math.floor(of / 2) + 1;
}

function signatureMetBy(envelope: SignaturePolicyEnvelope, approved: ReadonlySet<string>): boolean {
  const principalMet = (index: number): boolean => {
    const principal = envelope.identities[index];
    if (principal?.principalClassification !== 0) return false;
    return approved.has(codecs.MspRole.decode(principal.principal).mspIdentifier);
  };
  const met = (rule: SignaturePolicy | undefined): boolean => {
    if (rule?.signedBy !== undefined) return principalMet(rule.signedBy);
    const nOutOf = rule?.nOutOf;
    if (nOutOf === undefined) return false;
    return nOutOf.rules.filter(met).length >= nOutOf.n;
  };
  return met(envelope.rule);
}

/** The LifecycleEndorsement policy of an Application group (exported for the tests of its three forms). */
export function lifecyclePolicyOf(application: ConfigGroup | undefined): LifecycleEndorsementPolicy {
  // Sorted: Fabric writes a configuration's groups in no particular order.
  const organizations = (application?.groups ?? []).map((g) => g.key).sort();
  const policy = application?.policies.find((p) => p.key === "LifecycleEndorsement")?.value?.policy;
  if (policy?.type === IMPLICIT_META) {
    const meta = codecs.ImplicitMetaPolicy.decode(policy.value, { path: "ImplicitMetaPolicy" });
    const needed = countNeeded(meta.rule, organizations.length);
    return {
      description: `${RULES[meta.rule] ?? String(meta.rule)} ${meta.subPolicy} (${String(needed)} of ${organizations.join(", ")})`,
      organizations,
      isMetBy: (approved) => organizations.filter((o) => approved.has(o)).length >= needed,
    };
  }
  if (policy?.type === SIGNATURE) {
    const envelope = codecs.SignaturePolicyEnvelope.decode(policy.value, { path: "SignaturePolicyEnvelope" });
    return {
      description: printSignaturePolicy(envelope),
      organizations,
      isMetBy: (approved) => signatureMetBy(envelope, approved),
    };
  }
  const needed = countNeeded(2, organizations.length);
  return {
    description: `MAJORITY of the organizations (${String(needed)} of ${organizations.join(", ")}; Fabric's default without a LifecycleEndorsement policy)`,
    organizations,
    isMetBy: (approved) => organizations.filter((o) => approved.has(o)).length >= needed,
  };
}

/** Reads the channel's lifecycle endorsement policy with the gateway's identity (qscc; nothing is ordered). */
export async function readLifecycleEndorsementPolicy(
  gateway: Gateway,
  channelId: string,
  options?: grpc.CallOptions,
): Promise<LifecycleEndorsementPolicy> {
  const block = await fetchConfigBlockThroughGateway(gateway, channelId, options);
  const root = readConfigBlock(block, channelId).config.channelGroup;
  return lifecyclePolicyOf(root?.groups.find((g) => g.key === "Application")?.value);
}
