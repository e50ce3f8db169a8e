import { PartialFailureError } from "../partial-failure-error";

/**
 * A LedgerTransactions create or update that failed for some items: the committed items' outputs go with it, so the
 * engine records them, and the reasons name each failed item by its key.
 */
export class LedgerTransactionsError extends PartialFailureError {
  static override readonly kind: string = "LedgerTransactionsError";
}
