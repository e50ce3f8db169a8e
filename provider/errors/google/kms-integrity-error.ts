import { OpsLedgerError } from "../opsledger-error";

/**
 * A Cloud KMS answer failed Google's integrity checks on every attempt: the digest checksum was not verified, the
 * signature's CRC32C did not match, or another key version answered. The message names the key version and the check.
 */
export class KmsIntegrityError extends OpsLedgerError {
  static override readonly kind: string = "KmsIntegrityError";
  /** The crypto key version asked for. */
  readonly cryptoKeyVersion: string;
  /** The failed check of the last attempt, e.g. "signatureCrc32c mismatch". */
  readonly check: string;
  readonly attempts: number;

  constructor(properties: Readonly<{ cryptoKeyVersion: string; check: string; attempts: number }>) {
    super({
      message:
        `Cloud KMS ${properties.cryptoKeyVersion}: the answer failed its integrity check (${properties.check}) ` +
        `${String(properties.attempts)} times in a row; nothing was signed with it. A persistent mismatch means the ` +
        "data is corrupted between this machine and Cloud KMS (a proxy, a custom endpoint): check opsledger:kmsCustomEndpoint",
    });
    this.cryptoKeyVersion = properties.cryptoKeyVersion;
    this.check = properties.check;
    this.attempts = properties.attempts;
  }
}
