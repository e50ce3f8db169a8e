import { GatewayError, type GatewayErrorProperties } from "./gateway-error";

/** What EndorseError, SubmitError and CommitStatusError share: a gateway call that always concerns one transaction. */
export abstract class TransactionCallError extends GatewayError {
  static override readonly kind: string = "TransactionCallError";
  declare readonly transactionId: string;

  constructor(properties: Readonly<GatewayErrorProperties & { transactionId: string }>) {
    super(properties);
    // Narrows LedgerError's optional transactionId.
    this.transactionId = properties.transactionId;
  }
}
