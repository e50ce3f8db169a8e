import { LedgerError } from "./ledger-error";

/** What a ledger read could not find or was not allowed to read. */
export type LedgerReadProblem =
  "TRANSACTION_NOT_FOUND" | "CHANNEL_NOT_FOUND" | "CHAINCODE_NOT_FOUND" | "NOT_A_WRITER" | "NOT_A_READER";

/**
 * A read of the ledger (a transaction by txId, a chaincode query, the chain's height) that Fabric answered with an
 * error a user can act on: the message names the input to fix and how, instead of the gateway's gRPC text. `field` is
 * the input at fault (`txId`, `channel`, `chaincode`, `identity`); `cause` is the GatewayError Fabric answered with.
 */
export class LedgerReadError extends LedgerError {
  static override readonly kind: string = "LedgerReadError";
  readonly problem: LedgerReadProblem;
  readonly field: string;

  constructor(
    properties: Readonly<{
      problem: LedgerReadProblem;
      field: string;
      message: string;
      transactionId?: string | undefined;
      cause?: unknown;
    }>,
  ) {
    super({ message: properties.message, transactionId: properties.transactionId, cause: properties.cause });
    this.problem = properties.problem;
    this.field = properties.field;
  }
}
