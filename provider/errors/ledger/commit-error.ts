import { LedgerError } from "./ledger-error";
import { validationCodeMeaning, validationCodeName } from "./validation-codes";

/** The transaction was committed with a validation code other than VALID. */
export class CommitError extends LedgerError {
  static override readonly kind: string = "CommitError";
  declare readonly transactionId: string;
  readonly validationCode: number;
  readonly validationCodeName: string;
  readonly blockNumber: bigint;

  constructor(properties: Readonly<{ transactionId: string; validationCode: number; blockNumber: bigint }>) {
    const name = validationCodeName(properties.validationCode);
    super({
      message: `Transaction ${properties.transactionId} failed to commit with status code ${properties.validationCode} (${name}): ${validationCodeMeaning(properties.validationCode)}`,
      transactionId: properties.transactionId,
    });
    this.validationCode = properties.validationCode;
    this.validationCodeName = name;
    this.blockNumber = properties.blockNumber;
  }
}
