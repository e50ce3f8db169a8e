import { LedgerError } from "./ledger-error";

/**
 * An unusable identity, key or certificate (wrong curve, unparsable PEM, untrusted chain). The message never
 * contains key material.
 */
export class IdentityError extends LedgerError {
  static override readonly kind: string = "IdentityError";
  /** What was being used, for example "private key" or "endorser certificate of Org1MSP". */
  readonly subject: string;

  constructor(properties: Readonly<{ subject: string; reason: string; cause?: unknown }>) {
    super({ message: `${properties.subject}: ${properties.reason}`, cause: properties.cause });
    this.subject = properties.subject;
  }
}
