/**
 * Signing: `Signer = (digest) => Promise<signature>` exactly like the official client's, so an HSM or KMS signer
 * can be plugged in. Our private-key signer produces ECDSA P-256 DER signatures that are always low-S (Fabric
 * rejects high-S: "Invalid S. Must be smaller than half the order").
 */
import * as crypto from "node:crypto";
import { decodeDerSignature, encodeDerSignature, P256_HALF_ORDER, P256_ORDER, signDigest } from "./ecdsa-p256";
import { IdentityError } from "./identity-error";
import { parseCertificate } from "./identity";

/** Signs a digest (never the message) and returns a DER-encoded signature. */
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

/**
 * A Signer for an ECDSA P-256 private key (PEM text, PEM bytes or a KeyObject). Signatures are DER, low-S and
 * deterministic (RFC 6979). Throws IdentityError (without key material) for other key types.
 */
export function newPrivateKeySigner(privateKey: string | Uint8Array | crypto.KeyObject): Signer {
  const key = toPrivateKey(privateKey);
  if (
    key.type !== "private" ||
    key.asymmetricKeyType !== "ec" ||
    key.asymmetricKeyDetails?.namedCurve !== "prime256v1"
  ) {
    throw new IdentityError({ subject: "private key", reason: "must be an ECDSA P-256 (prime256v1) private key" });
  }
  const d = base64UrlToBigInt(key.export({ format: "jwk" }).d);
  const signer: Signer = (digest: Uint8Array) => {
    const { r, s } = signDigest(d, digest);
    return Promise.resolve(encodeDerSignature(r, s));
  };
  messageSigners.set(signer, (message, hashAlgorithm) =>
    normalizeLowS(new Uint8Array(crypto.sign(hashAlgorithm, message, { key, dsaEncoding: "der" }))),
  );
  return signer;
}

/** Whether a DER ECDSA P-256 signature is canonical DER and low-S (s ≤ n/2). */
export function isLowS(signature: Uint8Array): boolean {
  const parsed = decodeDerSignature(signature);
  return parsed !== undefined && parsed.s <= P256_HALF_ORDER;
}

/** Rewrites a DER signature to low-S (s := n − s when s > n/2); returns the input unchanged when already low-S. */
export function normalizeLowS(signature: Uint8Array): Uint8Array {
  const parsed = decodeDerSignature(signature);
  if (parsed === undefined)
    throw new IdentityError({ subject: "signature", reason: "not a canonical DER ECDSA P-256 signature" });
  return parsed.s > P256_HALF_ORDER ? encodeDerSignature(parsed.r, P256_ORDER - parsed.s) : signature;
}

/** Wraps any Signer (HSM, KMS) so that its DER signatures always come out low-S. */
export function lowSSigner(signer: Signer): Signer {
  return async (digest) => normalizeLowS(await signer(digest));
}

/**
 * A P-256 signature as a backend returns it, as canonical low-S DER: 64 bytes are PKCS#11's raw r ‖ s (CKM_ECDSA,
 * IEEE P1363), anything else must be DER (Cloud KMS, OpenSSL). Throws IdentityError for anything else, including an
 * r or s outside 1..n-1.
 */
export function toLowSDer(signature: Uint8Array): Uint8Array {
  if (signature.length === 64) {
    const r = BigInt(`0x${Buffer.from(signature.subarray(0, 32)).toString("hex")}`);
    const s = BigInt(`0x${Buffer.from(signature.subarray(32)).toString("hex")}`);
    if (r <= 0n || r >= P256_ORDER || s <= 0n || s >= P256_ORDER) {
      throw new IdentityError({ subject: "signature", reason: "raw r || s is not a valid ECDSA P-256 signature" });
    }
    return encodeDerSignature(r, s > P256_HALF_ORDER ? P256_ORDER - s : s);
  }
  return normalizeLowS(signature);
}

export interface VerifySignatureOptions {
  /** A PEM certificate (bytes or text) or a public KeyObject. */
  readonly publicKey: string | Uint8Array | crypto.KeyObject;
  /** The signed message (not its digest). */
  readonly message: Uint8Array;
  readonly signature: Uint8Array;
  /**
   * The hash the signer's digest was made with, by Node name.
   * @default "sha256"
   */
  readonly hashAlgorithm?: string;
}

/**
 * Verifies like a Fabric MSP: canonical DER, low-S, and a valid ECDSA signature over hash(message). Returns false
 * for any failure, including an unparsable key or signature.
 */
export function verifySignature(options: VerifySignatureOptions): boolean {
  if (!isLowS(options.signature)) return false;
  let key: crypto.KeyObject;
  try {
    key =
      options.publicKey instanceof crypto.KeyObject
        ? options.publicKey
        : parseCertificate(
            typeof options.publicKey === "string" ? Buffer.from(options.publicKey) : options.publicKey,
            "signer certificate",
          ).publicKey;
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
