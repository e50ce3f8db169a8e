import { LedgerError } from "./ledger-error";
import { validationCodeName } from "./validation-codes";

/**
 * What a verification found wrong:
 * - `malformed`: a message in the chain does not decode or is structurally invalid (see LedgerDecodeError's path);
 * - `creator`, `txId`, `channel`, `chaincode`, `args`: the transaction is not the one we proposed;
 * - `channelHeader`, `signatureHeader`, `actionHeader`, `chaincodeProposalPayload`: bytes differ from our proposal's;
 * - `creatorSignature`: the envelope signature does not verify for the creator;
 * - `proposalHash`: ProposalResponsePayload.proposal_hash is not the hash of our proposal;
 * - `response`: the chaincode response is missing or an error (status outside [200, 400));
 * - `endorsements`: none, or a required organization has no valid endorsement;
 * - `endorser`: an endorser identity is unparsable or does not chain to a trusted MSP root;
 * - `endorsementSignature`: an endorsement does not sign this proposal_response_payload (bad signature, or the
 *   endorser endorsed a different result).
 */
export type VerificationMismatch =
  | "malformed"
  | "creator"
  | "txId"
  | "channel"
  | "chaincode"
  | "args"
  | "channelHeader"
  | "signatureHeader"
  | "actionHeader"
  | "chaincodeProposalPayload"
  | "creatorSignature"
  | "proposalHash"
  | "response"
  | "endorsements"
  | "endorser"
  | "endorsementSignature";

/**
 * A transaction failed verification: verify-before-sign refused to sign it, or a committed/exported transaction
 * does not verify. `validationCode` is the TxValidationCode a committing peer would assign.
 */
export class VerificationError extends LedgerError {
  static override readonly kind: string = "VerificationError";
  readonly mismatch: VerificationMismatch;
  readonly validationCode: number;
  readonly validationCodeName: string;
  /** The checks that passed before this one, in order. */
  readonly passedChecks: readonly string[];

  constructor(
    properties: Readonly<{
      transactionId: string;
      mismatch: VerificationMismatch;
      validationCode: number;
      reason: string;
      passedChecks?: readonly string[];
      cause?: unknown;
    }>,
  ) {
    const name = validationCodeName(properties.validationCode);
    const id = properties.transactionId === "" ? "(unknown id)" : properties.transactionId;
    const verdict =
      properties.validationCode === 0
        ? "a committer would still accept it (VALID)"
        : `a committer would assign ${name} (${properties.validationCode})`;
    super({
      message: `Transaction ${id} failed verification: ${properties.mismatch}: ${properties.reason}; ${verdict}`,
      transactionId: properties.transactionId,
      cause: properties.cause,
    });
    this.mismatch = properties.mismatch;
    this.validationCode = properties.validationCode;
    this.validationCodeName = name;
    this.passedChecks = properties.passedChecks ?? [];
  }
}
