import { LedgerError } from "./ledger-error";
import { validationCodeName } from "./validation-codes";

/**
 * Bytes that do not decode as the expected message. `validationCode` is the TxValidationCode a committing peer
 * would assign to a transaction failing at this point (INVALID_OTHER_REASON outside a transaction).
 */
export class LedgerDecodeError extends LedgerError {
  static override readonly kind: string = "LedgerDecodeError";
  /** The protobuf message expected, for example "protos.ChaincodeActionPayload". */
  readonly messageType: string;
  /** Where in the message chain, for example "Envelope.payload → Payload.data → Transaction". */
  readonly path: string;
  /** What is wrong, without the path. */
  readonly reason: string;
  readonly validationCode: number;
  readonly validationCodeName: string;

  constructor(
    properties: Readonly<{
      messageType: string;
      path: string;
      validationCode: number;
      reason: string;
      transactionId?: string | undefined;
      cause?: unknown;
    }>,
  ) {
    const name = validationCodeName(properties.validationCode);
    super({
      message: `${properties.path}: ${properties.reason} (a committer would assign ${name})`,
      transactionId: properties.transactionId,
      cause: properties.cause,
    });
    this.messageType = properties.messageType;
    this.path = properties.path;
    this.reason = properties.reason;
    this.validationCode = properties.validationCode;
    this.validationCodeName = name;
  }
}
