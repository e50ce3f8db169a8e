/**
 * ECDSA over P-256 on a precomputed digest (the P-256 instances of ecdsa.ts, kept under their original names).
 */
import { decodeDerSignatureOn, isOnCurveOf, P256, signDigestOn, verifyDigestOn } from "./ecdsa";

export { encodeDerSignature } from "./ecdsa";

/** n / 2 for P-256: a signature is low-S when s ≤ this value. */
export const P256_HALF_ORDER = P256.halfOrder;
/** The order n of P-256. */
export const P256_ORDER = P256.n;

/** Signs a digest with private scalar d; returns (r, s) with s already low-S. */
export function signDigest(d: bigint, digest: Uint8Array): { r: bigint; s: bigint } {
  return signDigestOn(P256, d, digest);
}

/** Whether (x, y) is a point of P-256. */
export function isOnCurve(x: bigint, y: bigint): boolean {
  return isOnCurveOf(P256, x, y);
}

/** Verifies (r, s) over a digest with public point (x, y); low-S is NOT required here (checked by the caller). */
export function verifyDigest(x: bigint, y: bigint, digest: Uint8Array, r: bigint, s: bigint): boolean {
  return verifyDigestOn(P256, { x, y }, digest, r, s);
}

/** Strict DER parse of a P-256 ECDSA signature; `undefined` for anything but canonical DER with 0 < r, s < n. */
export function decodeDerSignature(signature: Uint8Array): { r: bigint; s: bigint } | undefined {
  return decodeDerSignatureOn(P256, signature);
}
