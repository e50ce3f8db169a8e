import { LedgerError } from "./ledger-error";

/**
 * A signer could not be opened or used: a missing PKCS#11 library, token or key, a wrong PIN, a key that does not
 * belong to the certificate, a KMS key with another algorithm. `reference` names the key without any secret (for
 * example `pkcs11:token=fabric;id=5c1f…`); `code` is the backend's code when there is one (`CKR_PIN_INCORRECT`).
 * The message never contains key material or a PIN.
 */
export class SignerError extends LedgerError {
  static override readonly kind: string = "SignerError";
  readonly reference: string;
  readonly code: string | undefined;

  constructor(properties: Readonly<{ reference: string; reason: string; code?: string | undefined; cause?: unknown }>) {
    super({ message: `${properties.reference}: ${properties.reason}`, cause: properties.cause });
    this.reference = properties.reference;
    this.code = properties.code;
  }
}
