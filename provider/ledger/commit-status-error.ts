import { GatewayError } from "./gateway-error";
import type { ErrorDetail } from "./messages";

/** Getting the commit status of a transaction failed (CommitStatus). */
export class CommitStatusError extends GatewayError {
  static override readonly kind: string = "CommitStatusError";
  declare readonly transactionId: string;

  constructor(
    properties: Readonly<{
      code: number;
      details: readonly ErrorDetail[];
      method: string;
      message: string;
      transactionId: string;
      cause?: unknown;
    }>,
  ) {
    super(properties);
    // Narrows LedgerError's optional transactionId: these calls always concern one transaction.
    this.transactionId = properties.transactionId;
  }
}
