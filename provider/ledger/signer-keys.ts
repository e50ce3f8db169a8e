/**
 * Public keys of signers, compared with the certificate they sign for: the uncompressed EC point, Fabric's subject key
 * identifier (BCCSP names P-256 keys by SHA-256 of that point and stores it as the key's CKA_ID), and the check that a
 * signer's key belongs to a certificate before anything is signed with it.
 */
import * as crypto from "node:crypto";
import { SignerError } from "./signer-error";
import { verifySignature } from "./signing";
import type { Signer } from "./signing";

const P256_OID_DER = "06082a8648ce3d030107";

/** The uncompressed point 04 ‖ X ‖ Y (65 bytes) of a P-256 public (or private) key. */
export function ecPointOf(key: crypto.KeyObject): Uint8Array {
  const jwk = (key.type === "private" ? crypto.createPublicKey(key) : key).export({ format: "jwk" });
  if (jwk.crv !== "P-256" || jwk.x === undefined || jwk.y === undefined) {
    throw new TypeError("not an ECDSA P-256 key");
  }
  return new Uint8Array(
    Buffer.concat([Buffer.of(4), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]),
  );
}

/**
 * Fabric's subject key identifier of a P-256 key: SHA-256 of its uncompressed point, as bccsp/sw and bccsp/pkcs11 set
 * it (the CKA_ID of keys Fabric's BCCSP generates or imports, and what the official HSM signer's `identifier` is).
 */
export function fabricSki(key: crypto.KeyObject): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(ecPointOf(key)).digest());
}

/**
 * The P-256 public key of a PKCS#11 CKA_EC_POINT value: a DER OCTET STRING holding the uncompressed point (what the
 * standard and SoftHSM return) or the bare point (some tokens). `params` (CKA_EC_PARAMS) must be the P-256 OID when
 * given. Undefined for anything else.
 */
export function publicKeyFromEcPoint(value: Uint8Array, params?: Uint8Array): crypto.KeyObject | undefined {
  if (params !== undefined && Buffer.from(params).toString("hex") !== P256_OID_DER) return undefined;
  let point = value;
  if (value.length === 67 && value[0] === 0x04 && value[1] === 65) point = value.subarray(2);
  if (point.length !== 65 || point[0] !== 0x04) return undefined;
  try {
    return crypto.createPublicKey({
      key: {
        kty: "EC",
        crv: "P-256",
        x: Buffer.from(point.subarray(1, 33)).toString("base64url"),
        y: Buffer.from(point.subarray(33)).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return undefined; // not a point on the curve
  }
}

/** Whether two keys (public or private) have the same public key. */
export function samePublicKey(a: crypto.KeyObject, b: crypto.KeyObject): boolean {
  const spki = (k: crypto.KeyObject): Buffer =>
    (k.type === "private" ? crypto.createPublicKey(k) : k).export({ type: "spki", format: "der" });
  return spki(a).equals(spki(b));
}

/** The certificate's subject, one line ("CN=deployer, O=Org1"), for messages. */
export function certificateSubject(certificatePem: string): string {
  try {
    return new crypto.X509Certificate(certificatePem).subject.split("\n").join(", ");
  } catch {
    return "(unparsable certificate)";
  }
}

export interface SignerKeyCheck {
  /** The certificate the signer must sign for (PEM). */
  readonly certificatePem: string;
  /** How the key is named in messages, without secrets (`pkcs11:token=…;id=…`, a KMS key version, a file path). */
  readonly reference: string;
  /** The signer's public key when the backend reports it (PKCS#11 CKA_EC_POINT, KMS getPublicKey, a key file). */
  readonly publicKey?: crypto.KeyObject | undefined;
  /** Used when the backend does not report its public key: a challenge digest is signed and verified. */
  readonly signer?: Signer | undefined;
}

/**
 * Throws SignerError (code KEY_MISMATCH) naming the certificate's subject and the key reference unless the signer's
 * key is the certificate's key: by comparing public keys, or, when the backend reports none, by verifying a signature
 * over a random challenge with the certificate's key.
 */
export async function assertSignerMatchesCertificate(check: SignerKeyCheck): Promise<void> {
  const certificateKey = new crypto.X509Certificate(check.certificatePem).publicKey;
  let matches: boolean;
  if (check.publicKey !== undefined) matches = samePublicKey(check.publicKey, certificateKey);
  else if (check.signer !== undefined) {
    const challenge = crypto.randomBytes(32);
    const digest = new Uint8Array(crypto.createHash("sha256").update(challenge).digest());
    const signature = await check.signer(digest);
    matches = verifySignature({ publicKey: certificateKey, message: challenge, signature });
  } else throw new TypeError("assertSignerMatchesCertificate needs a publicKey or a signer");
  if (!matches) {
    throw new SignerError({
      reference: check.reference,
      code: "KEY_MISMATCH",
      reason:
        `this key is not the key of the certificate '${certificateSubject(check.certificatePem)}' ` +
        `(certificate SKI ${Buffer.from(fabricSki(certificateKey)).toString("hex")}): use the private key that ` +
        "certificate was issued for, or the certificate of this key; nothing was signed or sent",
    });
  }
}
