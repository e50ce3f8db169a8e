/**
 * Signing: `Signer = (digest) => Promise<signature>` exactly like the official client's, so an HSM or KMS signer
 * can be plugged in. Our private-key signer produces ECDSA P-256 / P-384 DER signatures that are always low-S with
 * the curve's order (Fabric rejects high-S: "Invalid S. Must be smaller than half the order"), and pure Ed25519
 * signatures of what it is given (with the `none` hash, the message itself).
 */
import * as crypto from "node:crypto";
import { decodeDerSignatureOn, encodeDerSignature, normalizeLowSOn, rawToLowSDer, signDigestOn } from "./ecdsa";
import { IdentityError } from "../errors/ledger/identity-error";
import { parseCertificate } from "./identity";
import { describeKey, ecdsaCurveOf, keyTypeOf, SUPPORTED_KEY_TYPES_TEXT } from "./key-types";
import type { KeyType } from "./key-types";

/**
 * Signs what the gateway's hash made of the message — a digest for ECDSA (SHA-256), the message itself for Ed25519
 * (the `none` hash) — and returns the signature (DER for ECDSA, 64 bytes for Ed25519).
 */
export type Signer = (digest: Uint8Array) => Promise<Uint8Array>;

/**
 * Internal fast path of the Signers made by newPrivateKeySigner: signs the MESSAGE with node:crypto, hashing it with
 * `hashAlgorithm` (a Node hash name), and returns a low-S DER signature. Node's crypto cannot sign a precomputed
 * digest (`crypto.sign(null, digest, key)` hashes it again), but when the caller holds the message it can, at
 * ~20x the speed of the BigInt signer. The nonce is OpenSSL's (random), not RFC 6979.
 */
export type MessageSigner = (message: Uint8Array, hashAlgorithm: string) => Uint8Array;

/** Signer → its message fast path. A WeakMap, so the key never hangs off the public function (util.inspect). */
const messageSigners = new WeakMap<Signer, MessageSigner>();

/**
 * The message fast path of a Signer made by newPrivateKeySigner, or undefined for any other Signer (HSM, KMS,
 * lowSSigner wrappers), which must then be given the digest. Internal: not exported from index.ts.
 */
export function messageSignerOf(signer: Signer): MessageSigner | undefined {
  return messageSigners.get(signer);
}

function base64UrlToBigInt(value: string | undefined): bigint {
  return BigInt(`0x${Buffer.from(value ?? "", "base64url").toString("hex") || "0"}`);
}

function toPrivateKey(privateKey: string | Uint8Array | crypto.KeyObject): crypto.KeyObject {
  if (privateKey instanceof crypto.KeyObject) return privateKey;
  try {
    return crypto.createPrivateKey(typeof privateKey === "string" ? privateKey : Buffer.from(privateKey));
  } catch {
    // The cause is deliberately dropped: it could echo parts of the key material.
    throw new IdentityError({ subject: "private key", reason: "not a parsable PEM private key (PKCS#8 or SEC1)" });
  }
}

/** The key type of each Signer made by newPrivateKeySigner (tests, the gateway's hash check). */
const signerKeyTypes = new WeakMap<Signer, KeyType>();

/** The key type of a Signer made by newPrivateKeySigner, or undefined for any other Signer. */
export function privateKeySignerType(signer: Signer): KeyType | undefined {
  return signerKeyTypes.get(signer);
}

/**
 * A Signer for an ECDSA P-256 or P-384 or an Ed25519 private key (PEM text, PEM bytes or a KeyObject), like the
 * official client's `signers.newPrivateKeySigner`:
 * - ECDSA: signs the digest it is given (the gateway hashes with SHA-256, which Fabric uses whatever the curve);
 *   DER, low-S with the curve's own order, deterministic (RFC 6979).
 * - Ed25519: signs what it is given as the message itself (pure Ed25519, 64 bytes), so the gateway's hash must be
 *   `none`: Fabric verifies Ed25519 over the message, never over a digest.
 * Throws IdentityError (without key material) for other key types.
 */
export function newPrivateKeySigner(privateKey: string | Uint8Array | crypto.KeyObject): Signer {
  const key = toPrivateKey(privateKey);
  const type = key.type === "private" ? keyTypeOf(key) : undefined;
  if (type === undefined) {
    throw new IdentityError({
      subject: "private key",
      reason: `must be an ${SUPPORTED_KEY_TYPES_TEXT} private key, not ${key.type === "private" ? describeKey(key) : `a ${key.type} key`}`,
    });
  }
  const curve = ecdsaCurveOf(type);
  let signer: Signer;
  if (curve === undefined) {
    signer = (message: Uint8Array) => Promise.resolve(new Uint8Array(crypto.sign(null, message, key)));
  } else {
    const d = base64UrlToBigInt(key.export({ format: "jwk" }).d);
    signer = (digest: Uint8Array) => {
      const { r, s } = signDigestOn(curve, d, digest);
      return Promise.resolve(encodeDerSignature(r, s));
    };
    messageSigners.set(signer, (message, hashAlgorithm) =>
      normalizeLowS(new Uint8Array(crypto.sign(hashAlgorithm, message, { key, dsaEncoding: "der" })), type),
    );
  }
  signerKeyTypes.set(signer, type);
  return signer;
}

/** Whether a DER ECDSA signature is canonical DER and low-S (s ≤ n/2) for the key type's curve (P-256 by default). */
export function isLowS(signature: Uint8Array, keyType: KeyType = "ecdsa-p256"): boolean {
  const curve = ecdsaCurveOf(keyType);
  if (curve === undefined) return false;
  const parsed = decodeDerSignatureOn(curve, signature);
  return parsed !== undefined && parsed.s <= curve.halfOrder;
}

/**
 * A signature in the form Fabric accepts for the key type: for ECDSA, canonical DER rewritten to low-S with the
 * curve's order (s := n − s when s > n/2; unchanged when already low-S); for Ed25519, the 64 bytes as they are.
 * Throws IdentityError for anything else. The key type defaults to ECDSA P-256.
 */
export function normalizeLowS(signature: Uint8Array, keyType: KeyType = "ecdsa-p256"): Uint8Array {
  const curve = ecdsaCurveOf(keyType);
  if (curve === undefined) {
    if (signature.length === 64) return signature;
    throw new IdentityError({ subject: "signature", reason: "not a 64-byte Ed25519 signature" });
  }
  const normalized = normalizeLowSOn(curve, signature);
  if (normalized === undefined) {
    throw new IdentityError({ subject: "signature", reason: `not a canonical DER ECDSA ${curve.name} signature` });
  }
  return normalized;
}

/** Wraps any Signer (HSM, KMS) so that its signatures always come out in Fabric's form for the key type. */
export function lowSSigner(signer: Signer, keyType: KeyType = "ecdsa-p256"): Signer {
  return async (digest) => normalizeLowS(await signer(digest), keyType);
}

/**
 * A signature as a backend returns it, in the form Fabric accepts: for ECDSA, 2 × the curve's size bytes are
 * PKCS#11's raw r ‖ s (CKM_ECDSA, IEEE P1363), anything else must be DER (Cloud KMS, OpenSSL) — both leave as
 * canonical low-S DER; for Ed25519, 64 raw bytes (CKM_EDDSA, Cloud KMS). Throws IdentityError for anything else,
 * including an r or s outside 1..n-1. The key type defaults to ECDSA P-256.
 */
export function toLowSDer(signature: Uint8Array, keyType: KeyType = "ecdsa-p256"): Uint8Array {
  const curve = ecdsaCurveOf(keyType);
  if (curve !== undefined && signature.length === 2 * curve.bytes) {
    const der = rawToLowSDer(curve, signature);
    if (der === undefined) {
      throw new IdentityError({
        subject: "signature",
        reason: `raw r || s is not a valid ECDSA ${curve.name} signature`,
      });
    }
    return der;
  }
  return normalizeLowS(signature, keyType);
}

/**
 * What is wrong with a signature's form for the key type, as Fabric's MSP would see it before verifying:
 * undefined when it is well-formed (ECDSA: canonical DER and low-S for the curve; Ed25519: 64 bytes).
 */
export function signatureFormProblem(signature: Uint8Array, keyType: KeyType): string | undefined {
  const curve = ecdsaCurveOf(keyType);
  if (curve === undefined) return signature.length === 64 ? undefined : "is not a 64-byte Ed25519 signature";
  const parsed = decodeDerSignatureOn(curve, signature);
  if (parsed === undefined) return `is not canonical DER for ECDSA ${curve.name}`;
  return parsed.s > curve.halfOrder ? `is high-S (s > n/2 of ${curve.name})` : undefined;
}

export interface VerifySignatureOptions {
  /** A PEM certificate (bytes or text) or a public KeyObject. */
  readonly publicKey: string | Uint8Array | crypto.KeyObject;
  /** The signed message (not its digest). */
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  /**
   * The hash the signer's digest was made with, by Node name, for ECDSA keys (Fabric: always SHA-256). Ed25519 is
   * verified over the message itself, whatever this says.
   * @default "sha256"
   */
  readonly hashAlgorithm?: string;
}

/**
 * Verifies like a Fabric MSP: for ECDSA (P-256, P-384) canonical DER, low-S with the curve's order, and a valid
 * signature over hash(message); for Ed25519 a pure Ed25519 signature over the message itself. Returns false for any
 * failure, including an unparsable key or signature, or a key of another type.
 */
export function verifySignature(options: VerifySignatureOptions): boolean {
  try {
    const key =
      options.publicKey instanceof crypto.KeyObject
        ? options.publicKey
        : parseCertificate(options.publicKey, "signer certificate").publicKey;
    const type = keyTypeOf(key);
    if (type === undefined || signatureFormProblem(options.signature, type) !== undefined) return false;
    if (type === "ed25519") return crypto.verify(null, options.message, key, options.signature);
    return crypto.verify(
      options.hashAlgorithm ?? "sha256",
      options.message,
      { key, dsaEncoding: "der" },
      options.signature,
    );
  } catch {
    return false;
  }
}
