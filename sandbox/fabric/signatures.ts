/**
 * Signatures the way Fabric checks them: Ed25519 over the message (Fabric 3), and ECDSA (P-256, P-384) over SHA-256 as DER `SEQUENCE { INTEGER r, INTEGER s }` with
 * 0 < r, s and s ≤ n/2 ("low-S"; Fabric's bccsp rejects high-S with "Invalid S. Must be smaller than half the
 * order"). Signing always normalizes to low-S, since Node's crypto.sign produces high-S about half of the time.
 */
import { sign, verify, type KeyObject } from "node:crypto";
import * as der from "./der";

/** The order n of the P-256 group. */
export const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
/** n/2: the largest s a low-S signature may have. */
export const P256_HALF_ORDER = P256_ORDER >> 1n;
/** The order n of the P-384 group (Fabric's bccsp checks low-S per curve). */
export const P384_ORDER =
  0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n;

/** The group order of an ECDSA key's curve (P-256 or P-384), undefined for other keys. */
function orderOf(key: KeyObject): bigint | undefined {
  const curve = key.asymmetricKeyType === "ec" ? key.asymmetricKeyDetails?.namedCurve : undefined;
  return curve === "prime256v1" ? P256_ORDER : curve === "secp384r1" ? P384_ORDER : undefined;
}

export interface EcdsaSignature {
  readonly r: bigint;
  readonly s: bigint;
}

function readInteger(bytes: Buffer, offset: number): { value: bigint; next: number } | undefined {
  if (bytes[offset] !== 0x02) return undefined;
  const length = bytes[offset + 1];
  if (length === undefined || length === 0 || length > 49) return undefined;
  const start = offset + 2;
  const content = bytes.subarray(start, start + length);
  if (content.length !== length) return undefined;
  const first = content[0] ?? 0;
  if ((first & 0x80) !== 0) return undefined; // negative
  if (first === 0 && length > 1 && ((content[1] ?? 0) & 0x80) === 0) return undefined; // not minimal
  return { value: BigInt(`0x${content.toString("hex")}`), next: start + length };
}

/** Parses a strict DER ECDSA signature; undefined when it is not one (raw r‖s, trailing bytes, r or s ≤ 0). */
export function parseDerSignature(signature: Uint8Array): EcdsaSignature | undefined {
  const bytes = Buffer.from(signature);
  if (bytes.length < 8 || bytes[0] !== 0x30 || bytes[1] !== bytes.length - 2) return undefined;
  const r = readInteger(bytes, 2);
  if (r === undefined) return undefined;
  const s = readInteger(bytes, r.next);
  if (s === undefined || s.next !== bytes.length) return undefined;
  if (r.value <= 0n || s.value <= 0n) return undefined;
  return { r: r.value, s: s.value };
}

export function encodeDerSignature(signature: EcdsaSignature): Buffer {
  return der.sequence(der.integer(signature.r), der.integer(signature.s));
}

export function isLowS(signature: EcdsaSignature, order: bigint = P256_ORDER): boolean {
  return signature.s <= order >> 1n;
}

/** Why a signature fails, or undefined when it verifies. Messages mirror Fabric's bccsp wording. */
export function signatureProblem(publicKey: KeyObject, message: Uint8Array, signature: Uint8Array): string | undefined {
  if (signature.length === 0) return "empty signature";
  if (publicKey.asymmetricKeyType === "ed25519") {
    // Fabric 3 verifies Ed25519 over the message itself (no pre-hash).
    try {
      return signature.length === 64 && verify(null, message, publicKey, signature)
        ? undefined
        : "the signature is invalid";
    } catch {
      return "the signature is invalid";
    }
  }
  const order = orderOf(publicKey) ?? P256_ORDER;
  const parsed = parseDerSignature(signature);
  if (parsed === undefined) return "failed unmarshalling signature: not a DER ECDSA signature";
  if (!isLowS(parsed, order)) return "Invalid S. Must be smaller than half the order";
  let ok: boolean;
  try {
    ok = verify("sha256", message, { key: publicKey, dsaEncoding: "der" }, signature);
  } catch {
    ok = false;
  }
  return ok ? undefined : "the signature is invalid";
}

/** True when `signature` is a valid low-S DER ECDSA-SHA256 signature of `message` by `publicKey`. */
export function verifySignature(publicKey: KeyObject, message: Uint8Array, signature: Uint8Array): boolean {
  return signatureProblem(publicKey, message, signature) === undefined;
}

/** Signs as Fabric expects: ECDSA over SHA-256, DER, low-S with the curve's order; Ed25519 over the message. */
export function signLowS(privateKey: KeyObject, message: Uint8Array): Buffer {
  if (privateKey.asymmetricKeyType === "ed25519") return sign(null, message, privateKey);
  const order = orderOf(privateKey) ?? P256_ORDER;
  const signature = sign("sha256", message, { key: privateKey, dsaEncoding: "der" });
  const parsed = parseDerSignature(signature);
  if (parsed === undefined || isLowS(parsed, order)) return signature;
  return encodeDerSignature({ r: parsed.r, s: order - parsed.s });
}
