import { GatewayError } from "./gateway-error";
import type { ErrorDetail } from "./messages";

/** Submitting the signed transaction to the orderer failed (Submit). */
export class SubmitError extends GatewayError {
  static override readonly kind: string = "SubmitError";
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
