import { LedgerError } from "./ledger-error";

/** Bytes that are not a valid protobuf encoding of the message (the codec turns it into a LedgerDecodeError). */
export class WireFormatError extends LedgerError {
  static override readonly kind: string = "WireFormatError";

  constructor(properties: Readonly<{ message: string }>) {
    super({ message: properties.message });
  }
}
