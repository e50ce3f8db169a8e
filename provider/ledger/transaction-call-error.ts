import { GatewayError, type GatewayErrorProperties } from "./gateway-error";

/**
 * What EndorseError, SubmitError and CommitStatusError share: a gateway call that always concerns one transaction.
 * It has no kind of its own (its kind is GatewayError's): test errors against the subclasses or GatewayError.
 */
export abstract class TransactionCallError extends GatewayError {
  declare readonly transactionId: string;

  constructor(properties: Readonly<GatewayErrorProperties & { transactionId: string }>) {
    super(properties);
    // Narrows LedgerError's optional transactionId.
    this.transactionId = properties.transactionId;
  }
}
