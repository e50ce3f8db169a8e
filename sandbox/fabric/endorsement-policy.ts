/**
 * The chaincode endorsement policy: an implicit-meta rule (MAJORITY, ANY or ALL) over the organizations'
 * `OrgN.peer` principals, as Fabric's default "/Channel/Application/Endorsement". An endorsement counts for its
 * organization when its endorser deserializes to a valid `peer` identity of that MSP and its signature over
 * proposal_response_payload ‖ endorser verifies (DER, low-S); duplicates of one endorser count once.
 */
import type { Endorsement } from "./messages";
import type { MembershipServices } from "./msp";
import type { PolicyIdentity } from "./signature-policy-check";

export type EndorsementRule = "majority" | "any" | "all";

export interface EndorsementPolicy {
  readonly rule: EndorsementRule;
  readonly organizations: readonly string[];
}

export interface PolicyEvaluation {
  readonly satisfied: boolean;
  /** The organizations with at least one valid peer endorsement, in policy order. */
  readonly endorsingOrganizations: readonly string[];
  /** Why endorsements did not count, one line each, for diagnostics. */
  readonly problems: readonly string[];
}

/** How many distinct organizations must endorse. */
export function requiredOrganizationCount(policy: EndorsementPolicy): number {
  const n = policy.organizations.length;
  switch (policy.rule) {
    case "any":
      return Math.min(1, n);
    case "all":
      return n;
    case "majority":
      return Math.floor(n / 2) + 1;
  }
}

export function describePolicy(policy: EndorsementPolicy): string {
  return `${policy.rule.toUpperCase()} of [${policy.organizations.map((o) => `${o}.peer`).join(", ")}]`;
}

/** The endorsers whose signatures verify (duplicates counted once), and why the others do not count. */
export async function verifiedEndorsers(
  msp: MembershipServices,
  proposalResponsePayload: Buffer,
  endorsements: readonly Endorsement[],
): Promise<{
  readonly identities: readonly (PolicyIdentity & { readonly index: number })[];
  readonly problems: readonly string[];
}> {
  const seen = new Set<string>();
  const identities: (PolicyIdentity & { readonly index: number })[] = [];
  const problems: string[] = [];
  for (const [i, e] of endorsements.entries()) {
    const key = e.endorser.toString("base64");
    if (seen.has(key)) {
      problems.push(`endorsement ${i}: duplicate endorser ignored`);
      continue;
    }
    seen.add(key);
    const result = await msp.verify(e.endorser, Buffer.concat([proposalResponsePayload, e.endorser]), e.signature);
    if (!result.ok) problems.push(`endorsement ${i}: ${result.detail}`);
    else identities.push({ mspId: result.identity.mspId, role: result.identity.role, index: i });
  }
  return { identities, problems };
}

export async function evaluateEndorsements(
  policy: EndorsementPolicy,
  msp: MembershipServices,
  proposalResponsePayload: Buffer,
  endorsements: readonly Endorsement[],
): Promise<PolicyEvaluation> {
  const verified = await verifiedEndorsers(msp, proposalResponsePayload, endorsements);
  const problems = [...verified.problems];
  const satisfied = new Set<string>();
  for (const identity of verified.identities) {
    const i = identity.index;
    if (identity.role !== "peer") {
      problems.push(`endorsement ${i}: ${identity.mspId} identity has role ${identity.role}, not peer`);
    } else if (!policy.organizations.includes(identity.mspId)) {
      problems.push(`endorsement ${i}: ${identity.mspId} is not a channel organization`);
    } else {
      satisfied.add(identity.mspId);
    }
  }
  const endorsingOrganizations = policy.organizations.filter((o) => satisfied.has(o));
  return {
    satisfied: endorsingOrganizations.length >= requiredOrganizationCount(policy),
    endorsingOrganizations,
    problems,
  };
}
