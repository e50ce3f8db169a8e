/**
 * Public keys of signers, compared with the certificate they sign for: the uncompressed EC point (or Ed25519's raw
 * key), Fabric's subject key identifier (BCCSP names keys by SHA-256 of those bytes and stores it as the key's CKA_ID),
 * and the check that a signer's key belongs to a certificate before anything is signed with it.
 */
import * as crypto from "node:crypto";
import { ecdsaCurveNamed, P256, P384 } from "./ecdsa";
import { certificateOf, parseCertificate } from "./identity";
import { describeKey, keyTypeOf } from "./key-types";
import type { KeyType } from "./key-types";
import { SignerError } from "../errors/ledger/signer-error";
import { verifySignature } from "./signing";
import type { Signer } from "./signing";

/** CKA_EC_PARAMS of Ed25519: the OID 1.3.101.112 (PKCS#11 3.0) or the PrintableString "edwards25519" (2.40). */
const ED25519_PARAMS_DER = ["06032b6570", "130c656477617264733235353139"];

/**
 * The public key bytes Fabric names a key by: the uncompressed EC point 04 ‖ X ‖ Y of an ECDSA key (65 bytes for
 * P-256, 97 for P-384), the 32 raw bytes of an Ed25519 key. Throws TypeError for other keys.
 */
export function ecPointOf(key: crypto.KeyObject): Uint8Array {
  const jwk = (key.type === "private" ? crypto.createPublicKey(key) : key).export({ format: "jwk" });
  if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && jwk.x !== undefined) {
    return new Uint8Array(Buffer.from(jwk.x, "base64url"));
  }
  if (ecdsaCurveNamed(jwk.crv) === undefined || jwk.x === undefined || jwk.y === undefined) {
    throw new TypeError("not an ECDSA P-256, ECDSA P-384 or Ed25519 key");
  }
  return new Uint8Array(
    Buffer.concat([Buffer.of(4), Buffer.from(jwk.x, "base64url"), Buffer.from(jwk.y, "base64url")]),
  );
}

/**
 * Fabric's subject key identifier of a key: SHA-256 of its uncompressed point (ECDSA) or of its 32 raw bytes
 * (Ed25519), as bccsp/sw and bccsp/pkcs11 set it (the CKA_ID of keys Fabric's BCCSP generates or imports, and what
 * the official HSM signer's `identifier` is).
 */
export function fabricSki(key: crypto.KeyObject): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(ecPointOf(key)).digest());
}

/** The key type a PKCS#11 CKA_EC_PARAMS value names (P-256, P-384, Ed25519), or undefined. */
export function keyTypeOfEcParams(params: Uint8Array): KeyType | undefined {
  const hex = Buffer.from(params).toString("hex");
  if (ED25519_PARAMS_DER.includes(hex)) return "ed25519";
  if (hex === P256.oidDerHex) return "ecdsa-p256";
  return hex === P384.oidDerHex ? "ecdsa-p384" : undefined;
}

/** The DER OCTET STRING's content when `value` is one (short or 1-byte long form), else undefined. */
function octetStringContent(value: Uint8Array): Uint8Array | undefined {
  if (value[0] !== 0x04) return undefined;
  if (value[1] === value.length - 2 && value.length - 2 < 0x80) return value.subarray(2);
  if (value[1] === 0x81 && value[2] === value.length - 3) return value.subarray(3);
  return undefined;
}

/**
 * The public key of a PKCS#11 CKA_EC_POINT value: a DER OCTET STRING holding the uncompressed point or the Ed25519
 * key (what the standard and SoftHSM return) or the bare bytes (some tokens). `params` (CKA_EC_PARAMS) names the
 * curve: P-256 (the default when absent), P-384 or Ed25519. Undefined for anything else.
 */
export function publicKeyFromEcPoint(value: Uint8Array, params?: Uint8Array): crypto.KeyObject | undefined {
  const paramsHex = params === undefined ? P256.oidDerHex : Buffer.from(params).toString("hex");
  if (ED25519_PARAMS_DER.includes(paramsHex)) {
    const raw = value.length === 32 ? value : octetStringContent(value);
    if (raw?.length !== 32) return undefined;
    try {
      return crypto.createPublicKey({
        key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(raw).toString("base64url") },
        format: "jwk",
      });
    } catch {
      return undefined;
    }
  }
  const curve = [P256, P384].find((c) => c.oidDerHex === paramsHex);
  if (curve === undefined) return undefined;
  const size = 1 + 2 * curve.bytes;
  const point = value.length === size ? value : octetStringContent(value);
  if (point?.length !== size || point[0] !== 0x04) return undefined;
  try {
    return crypto.createPublicKey({
      key: {
        kty: "EC",
        crv: curve.name,
        x: Buffer.from(point.subarray(1, 1 + curve.bytes)).toString("base64url"),
        y: Buffer.from(point.subarray(1 + curve.bytes)).toString("base64url"),
      },
      format: "jwk",
    });
  } catch {
    return undefined; // not a point on the curve
  }
}

/** The private key a PEM parses to, or undefined: never the parse error, whose text could echo key material. */
export function privateKeyOf(pem: unknown): crypto.KeyObject | undefined {
  if (typeof pem !== "string") return undefined;
  try {
    return crypto.createPrivateKey(pem);
  } catch {
    return undefined;
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
  return certificateOf(certificatePem)?.subject.split("\n").join(", ") ?? "(unparsable certificate)";
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
  const certificateKey = parseCertificate(check.certificatePem, "certificate").publicKey;
  let matches: boolean;
  if (check.publicKey !== undefined) matches = samePublicKey(check.publicKey, certificateKey);
  else if (check.signer !== undefined) {
    const challenge = crypto.randomBytes(32);
    // What the gateway's hash would give the signer: SHA-256 for ECDSA, the message itself for Ed25519.
    const digest =
      keyTypeOf(certificateKey) === "ed25519"
        ? new Uint8Array(challenge)
        : new Uint8Array(crypto.createHash("sha256").update(challenge).digest());
    const signature = await check.signer(digest);
    matches = verifySignature({ publicKey: certificateKey, message: challenge, signature });
  } else throw new TypeError("assertSignerMatchesCertificate needs a publicKey or a signer");
  if (!matches) {
    throw new SignerError({
      reference: check.reference,
      code: "KEY_MISMATCH",
      reason:
        `this key is not the key of the certificate '${certificateSubject(check.certificatePem)}' ` +
        `(certificate ${keyTypeOf(certificateKey) === undefined ? describeKey(certificateKey) : `SKI ${Buffer.from(fabricSki(certificateKey)).toString("hex")}, ${describeKey(certificateKey)}`}` +
        `${check.publicKey === undefined ? "" : `; this key: ${describeKey(check.publicKey)}`}): ` +
        "use the private key that certificate was issued for, or the certificate of this key; nothing was signed or sent",
    });
  }
}
