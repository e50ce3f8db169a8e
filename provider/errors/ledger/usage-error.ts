import { OpsLedgerError } from "../opsledger-error";

/** A wrong command line of the ledger CLI (opsledger-ledger) or an unreadable <file>: printed with the usage text. */
export class UsageError extends OpsLedgerError {
  static override readonly kind: string = "UsageError";

  constructor(properties: Readonly<{ message: string }>) {
    super({ message: properties.message });
  }
}
