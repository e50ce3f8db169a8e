/**
 * Hash functions for signing: `Hash = (message) => digest`, as in the official client. The digest is what a
 * Signer receives: SHA-256 for ECDSA identities, the message itself (`none`) for Ed25519 ones.
 */
import * as crypto from "node:crypto";

export type Hash = (message: Uint8Array) => Uint8Array;

function nodeHash(algorithm: string): Hash {
  return (message) => new Uint8Array(crypto.createHash(algorithm).update(message).digest());
}

/** SHA-256, the default (channel SignatureHashFamily SHA2). */
export const sha256: Hash = nodeHash("sha256");
export const sha384: Hash = nodeHash("sha384");
export const sha3_256: Hash = nodeHash("sha3-256");
export const sha3_384: Hash = nodeHash("sha3-384");

/**
 * No hash: the message itself is what the Signer gets, as the official client's `hash.none`. Ed25519 identities need
 * it (Fabric verifies Ed25519 over the message); ECDSA identities must not use it.
 */
export const none: Hash = (message) => message;

/** The default hash of every signing step. */
export const DEFAULT_HASH: Hash = sha256;

/** Concatenation of byte arrays (for signed and hashed concatenations such as prp ‖ endorser). */
export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Lower-case hex. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}

/** Byte-wise equality. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
