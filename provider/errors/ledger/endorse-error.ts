import { TransactionCallError } from "./transaction-call-error";

/** Endorsing a transaction proposal failed (Endorse). */
export class EndorseError extends TransactionCallError {
  static override readonly kind: string = "EndorseError";
}
