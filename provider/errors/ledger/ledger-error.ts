import { OpsLedgerError } from "../opsledger-error";

/** The root of the ledger errors. `transactionId` is set whenever the failure concerns one transaction. */
export class LedgerError extends OpsLedgerError {
  static override readonly kind: string = "LedgerError";
  readonly transactionId: string | undefined;

  constructor(properties: Readonly<{ message: string; transactionId?: string | undefined; cause?: unknown }>) {
    super({ message: properties.message, cause: properties.cause });
    this.transactionId = properties.transactionId;
  }
}
