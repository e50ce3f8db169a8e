/**
 * Evaluating a SignaturePolicyEnvelope against the identities that endorsed, as Fabric's cauthdsl does (common/
 * cauthdsl/cauthdsl.go compile): SignedBy(i) is satisfied by one not yet used endorser whose identity satisfies
 * principal i; NOutOf(n, rules) by n of its rules, each satisfied rule keeping the endorsers it used, so one endorser
 * satisfies one principal only. A ROLE principal is satisfied by a member of its MSP in that role (MEMBER: any role).
 */
import type { SignaturePolicy, SignaturePolicyEnvelope } from "./lifecycle-messages";
import type { NodeRole } from "./msp";
import { tryDecode } from "./wire";

/** An endorser that passed the MSP's checks: its organization and NodeOU role. */
export interface PolicyIdentity {
  readonly mspId: string;
  readonly role: NodeRole;
}

const ROLES: readonly (NodeRole | "member")[] = ["member", "admin", "client", "peer", "orderer"];

function satisfies(envelope: SignaturePolicyEnvelope, index: number, identity: PolicyIdentity): boolean {
  const principal = envelope.identities[index];
  if (principal === undefined || principal.principalClassification !== 0) return false;
  const role = tryDecode("msp.MSPRole", principal.principal);
  if (role === undefined || role.mspIdentifier !== identity.mspId) return false;
  const wanted = ROLES[role.role];
  return wanted === "member" || wanted === identity.role;
}

function evaluate(
  envelope: SignaturePolicyEnvelope,
  rule: SignaturePolicy | null | undefined,
  identities: readonly PolicyIdentity[],
  used: boolean[],
): boolean {
  if (rule?.signedBy !== undefined && rule.signedBy !== null) {
    const index = rule.signedBy;
    const found = identities.findIndex((identity, i) => used[i] !== true && satisfies(envelope, index, identity));
    if (found === -1) return false;
    used[found] = true;
    return true;
  }
  const gate = rule?.nOutOf;
  if (gate === undefined || gate === null) return false;
  // As cauthdsl: each rule tries on a copy of the endorsers used so far, and a satisfied rule keeps what it used.
  let satisfied = 0;
  for (const r of gate.rules) {
    const trial = [...used];
    if (!evaluate(envelope, r, identities, trial)) continue;
    satisfied++;
    trial.forEach((u, i) => (used[i] = u));
  }
  return satisfied >= gate.n;
}

/** Whether these endorsers satisfy the policy. */
export function satisfiesSignaturePolicy(
  envelope: SignaturePolicyEnvelope,
  identities: readonly PolicyIdentity[],
): boolean {
  return evaluate(
    envelope,
    envelope.rule,
    identities,
    identities.map(() => false),
  );
}
