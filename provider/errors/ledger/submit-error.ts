import { TransactionCallError } from "./transaction-call-error";

/** Submitting the signed transaction to the orderer failed (Submit). */
export class SubmitError extends TransactionCallError {
  static override readonly kind: string = "SubmitError";
}
