/**
 * A channel policy as the text operators write in configtx.yaml, both ways: a signature policy in the peer CLI's
 * policy language (lifecycle/signature-policy.ts, which parses it as Fabric's policydsl does and prints it back), an
 * implicit meta policy as `<ANY|ALL|MAJORITY> <sub-policy>`.
 */
import { codecs } from "../codec";
import type { ImplicitMetaPolicy, Policy } from "../config-messages";
import { PolicySyntaxError } from "../../errors/ledger/policy-syntax-error";
import { parseSignaturePolicy, printSignaturePolicy } from "../lifecycle/signature-policy";

/** common.Policy types. */
export const POLICY_TYPE = { SIGNATURE: 1, MSP: 2, IMPLICIT_META: 3 } as const;

/** ImplicitMetaPolicy rules by number (ANY 0, ALL 1, MAJORITY 2). */
export const IMPLICIT_META_RULES = ["ANY", "ALL", "MAJORITY"] as const;
export type ImplicitMetaRule = (typeof IMPLICIT_META_RULES)[number];

/** A readable policy: its type and text ("OR('Org1MSP.admin')", "MAJORITY Admins"). */
export interface PolicyText {
  readonly type: "Signature" | "ImplicitMeta" | "Unknown";
  readonly rule: string;
}

/** Where a policy's text comes from, for its errors. */
export interface PolicyField {
  /** @default "policy" */
  readonly field?: string;
  /** @default "ChannelConfiguration" */
  readonly subject?: string;
}

/** Parses `<ANY|ALL|MAJORITY> <sub-policy>`; throws PolicySyntaxError otherwise. */
export function parseImplicitMetaPolicy(text: string, where: PolicyField = {}): ImplicitMetaPolicy {
  const match = /^\s*(ANY|ALL|MAJORITY)\s+([A-Za-z0-9_.-]+)\s*$/.exec(text);
  if (match === null)
    throw new PolicySyntaxError({
      subject: where.subject ?? "ChannelConfiguration",
      field: where.field ?? "policy",
      text,
      position: 1,
      expected: "'<ANY|ALL|MAJORITY> <sub-policy name>', e.g. 'MAJORITY Admins'",
      found: JSON.stringify(text),
    });
  return { rule: IMPLICIT_META_RULES.indexOf(match[1] as ImplicitMetaRule), subPolicy: match[2] ?? "" };
}

/** A common.Policy as text (an undecodable or unknown policy is named, not thrown). */
export function policyText(policy: Policy | undefined): PolicyText {
  if (policy === undefined) return { type: "Unknown", rule: "" };
  try {
    if (policy.type === POLICY_TYPE.SIGNATURE)
      return { type: "Signature", rule: printSignaturePolicy(codecs.SignaturePolicyEnvelope.decode(policy.value)) };
    if (policy.type === POLICY_TYPE.IMPLICIT_META) {
      const meta = codecs.ImplicitMetaPolicy.decode(policy.value);
      return { type: "ImplicitMeta", rule: `${IMPLICIT_META_RULES[meta.rule] ?? String(meta.rule)} ${meta.subPolicy}` };
    }
  } catch {
    return { type: "Unknown", rule: `undecodable policy of type ${String(policy.type)}` };
  }
  return { type: "Unknown", rule: `policy type ${String(policy.type)}` };
}

/** A common.Policy from text: Signature (the policy language) or ImplicitMeta. Throws PolicySyntaxError. */
export function policyFromText(text: PolicyText, where: PolicyField = {}): Policy {
  const options = { field: where.field ?? "policy", subject: where.subject ?? "ChannelConfiguration" };
  if (text.type === "ImplicitMeta")
    return {
      type: POLICY_TYPE.IMPLICIT_META,
      value: codecs.ImplicitMetaPolicy.encode(parseImplicitMetaPolicy(text.rule, options)),
    };
  if (text.type === "Signature")
    return {
      type: POLICY_TYPE.SIGNATURE,
      value: codecs.SignaturePolicyEnvelope.encode(parseSignaturePolicy(text.rule, options)),
    };
  throw new PolicySyntaxError({
    ...options,
    text: text.rule,
    position: 1,
    expected: "a policy of type Signature or ImplicitMeta",
    found: `type ${text.type}`,
  });
}
