import { TransactionCallError } from "./transaction-call-error";

/** Getting the commit status of a transaction failed (CommitStatus). */
export class CommitStatusError extends TransactionCallError {
  static override readonly kind: string = "CommitStatusError";
}
