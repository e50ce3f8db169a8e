import { LedgerError } from "./ledger-error";

/** Why a chaincode lifecycle step refused or failed. */
export type LifecycleProblem =
  /** The identity's MSP is not one the caller trusts, or not a member of the channel. */
  | "UNKNOWN_ORGANIZATION"
  /** The identity's certificate does not chain to its organization's CA, or the channel refused it. */
  | "UNKNOWN_IDENTITY"
  /** The identity is a client, peer or orderer of its organization, not an admin. */
  | "NOT_AN_ADMIN"
  /** The channel's ACL for the _lifecycle function refused the identity (by default its Writers: a client or admin). */
  | "NOT_A_WRITER"
  /** The sequence is lower than the committed one, or more than one above it. */
  | "SEQUENCE"
  /** The committed definition at this sequence has other fields. */
  | "DEFINITION_DIFFERS"
  /** The package the approval names is not installed on the organization's peer. */
  | "PACKAGE_NOT_INSTALLED"
  /** The channel's LifecycleEndorsement policy is not met by the organizations that approved. */
  | "NOT_APPROVED"
  /** The txId this step's nonce gives is on the ledger already, for another transaction or as invalid. */
  | "TRANSACTION_ID_USED"
  /** Fabric refused the step (its words are in the message). */
  | "REFUSED";

/**
 * A chaincode lifecycle step (install, approve, commit, their reads) that refused before sending, or that Fabric
 * refused. The message names the organization, the field and the fix; `organization` is the MSP id concerned,
 * `field` the input to change (`sequence`, `packageId`, `identity.certificatePem`…), `organizations` the ones that
 * have not approved (NOT_APPROVED). `transactionId` is set once a transaction was built.
 */
export class LifecycleError extends LedgerError {
  static override readonly kind: string = "LifecycleError";
  readonly problem: LifecycleProblem;
  readonly organization: string | undefined;
  readonly field: string | undefined;
  readonly organizations: readonly string[];

  constructor(
    properties: Readonly<{
      problem: LifecycleProblem;
      message: string;
      organization?: string | undefined;
      field?: string | undefined;
      organizations?: readonly string[];
      transactionId?: string | undefined;
      cause?: unknown;
    }>,
  ) {
    super({ message: properties.message, transactionId: properties.transactionId, cause: properties.cause });
    this.problem = properties.problem;
    this.organization = properties.organization;
    this.field = properties.field;
    this.organizations = properties.organizations ?? [];
  }
}
