/**
 * What the check of a configuration update's signatures decides (provider/ledger/channel/update-authorization.ts), as
 * plain data: declared here, with the error that reports it, so the error tree imports nothing from the ledger.
 */

/** The verdict on one policy. */
export interface PolicyEvaluation {
  /** The policy's full path, e.g. "/Channel/Application/Admins". */
  readonly path: string;
  /** Its text: "MAJORITY Admins", "OR('Org1MSP.admin')", or why it is missing. */
  readonly rule: string;
  readonly satisfied: boolean;
  /** How many more of the `missing` organizations must sign (0 when satisfied). */
  readonly needed: number;
  /** The MSP ids (or sub-group names) whose signature would count toward the policy and is not there. */
  readonly missing: readonly string[];
  /** The MSP ids of the signers that counted. */
  readonly satisfiedBy: readonly string[];
}

/** A read-set element whose version the channel no longer has. */
export interface StaleElement {
  readonly element: string;
  readonly readVersion: bigint;
  readonly currentVersion: bigint | undefined;
}

/** The policy check of one modified element. */
export interface ElementAuthorization {
  readonly element: string;
  /** The element's current mod_policy as written ("Admins", "/Channel/Orderer/Admins"). */
  readonly modPolicy: string;
  readonly evaluation: PolicyEvaluation;
}

/** What the update needs and what the signers give. */
export interface UpdateAuthorization {
  readonly channelId: string;
  /** Elements the update modifies or adds, by configtx key. */
  readonly modified: readonly string[];
  readonly stale: readonly StaleElement[];
  /** Write-set elements whose versions do not follow the channel's (version + 1, or 0 for a new one). */
  readonly badVersions: readonly string[];
  readonly checks: readonly ElementAuthorization[];
  /** True when nothing is stale and every check is satisfied. */
  readonly authorized: boolean;
  /** The organizations (MSP ids or group names) whose signature some unsatisfied check still needs. */
  readonly missingOrganizations: readonly string[];
  /** Signers the channel would not count, with why. */
  readonly rejectedSigners: readonly { readonly mspId: string; readonly reason: string }[];
}
