/**
 * The chaincode endorsement policy: an implicit-meta rule (MAJORITY, ANY or ALL) over the organizations'
 * `OrgN.peer` principals, as Fabric's default "/Channel/Application/Endorsement". An endorsement counts for its
 * organization when its endorser deserializes to a valid `peer` identity of that MSP and its signature over
 * proposal_response_payload ‖ endorser verifies (DER, low-S); duplicates of one endorser count once.
 */
import type { Endorsement } from "./messages";
import type { MembershipServices } from "./msp";

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

export async function evaluateEndorsements(
  policy: EndorsementPolicy,
  msp: MembershipServices,
  proposalResponsePayload: Buffer,
  endorsements: readonly Endorsement[],
): Promise<PolicyEvaluation> {
  const seen = new Set<string>();
  const satisfied = new Set<string>();
  const problems: string[] = [];
  for (const [i, e] of endorsements.entries()) {
    const key = e.endorser.toString("base64");
    if (seen.has(key)) {
      problems.push(`endorsement ${i}: duplicate endorser ignored`);
      continue;
    }
    seen.add(key);
    const result = await msp.verify(e.endorser, Buffer.concat([proposalResponsePayload, e.endorser]), e.signature);
    if (!result.ok) {
      problems.push(`endorsement ${i}: ${result.detail}`);
    } else if (result.identity.role !== "peer") {
      problems.push(`endorsement ${i}: ${result.identity.mspId} identity has role ${result.identity.role}, not peer`);
    } else if (!policy.organizations.includes(result.identity.mspId)) {
      problems.push(`endorsement ${i}: ${result.identity.mspId} is not a channel organization`);
    } else {
      satisfied.add(result.identity.mspId);
    }
  }
  const endorsingOrganizations = policy.organizations.filter((o) => satisfied.has(o));
  return {
    satisfied: endorsingOrganizations.length >= requiredOrganizationCount(policy),
    endorsingOrganizations,
    problems,
  };
}
