/**
 * ECDSA over P-256 on a precomputed digest, in DER, always low-S.
 *
 * Node's crypto can only sign a message (it hashes it itself), but a Fabric Signer receives a digest, so signing is
 * done here with BigInt arithmetic: RFC 6979 deterministic nonces (HMAC-SHA-256), Jacobian coordinates and a
 * Montgomery ladder (the same operations for every bit). JavaScript BigInt is not constant-time; like other pure-JS
 * ECDSA libraries this is not hardened against local timing attackers — use an HSM/KMS Signer where that matters.
 */
import * as crypto from "node:crypto";

const P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;
const B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;
const GX = 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n;
const GY = 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n;

/** n / 2 for P-256: a signature is low-S when s ≤ this value. */
export const P256_HALF_ORDER = N >> 1n;
/** The order n of P-256. */
export const P256_ORDER = N;

interface Jacobian {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
}

const INFINITY: Jacobian = { x: 1n, y: 1n, z: 0n };

function mod(a: bigint, m: bigint = P): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function powMod(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result;
}

function invert(a: bigint, m: bigint): bigint {
  return powMod(a, m - 2n, m); // m is prime
}

function double(p: Jacobian): Jacobian {
  if (p.z === 0n || p.y === 0n) return INFINITY;
  const delta = mod(p.z * p.z);
  const gamma = mod(p.y * p.y);
  const beta = mod(p.x * gamma);
  const alpha = mod(3n * (p.x - delta) * (p.x + delta));
  const x = mod(alpha * alpha - 8n * beta);
  const z = mod((p.y + p.z) * (p.y + p.z) - gamma - delta);
  const y = mod(alpha * (4n * beta - x) - 8n * gamma * gamma);
  return { x, y, z };
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  if (p.z === 0n) return q;
  if (q.z === 0n) return p;
  const z1z1 = mod(p.z * p.z);
  const z2z2 = mod(q.z * q.z);
  const u1 = mod(p.x * z2z2);
  const u2 = mod(q.x * z1z1);
  const s1 = mod(p.y * q.z * z2z2);
  const s2 = mod(q.y * p.z * z1z1);
  const h = mod(u2 - u1);
  const r = mod(2n * (s2 - s1));
  if (h === 0n) return r === 0n ? double(p) : INFINITY;
  const i = mod(4n * h * h);
  const j = mod(h * i);
  const v = mod(u1 * i);
  const x = mod(r * r - j - 2n * v);
  const y = mod(r * (v - x) - 2n * s1 * j);
  const z = mod(((p.z + q.z) * (p.z + q.z) - z1z1 - z2z2) * h);
  return { x, y, z };
}

function multiply(point: Jacobian, scalar: bigint): Jacobian {
  let r0 = INFINITY;
  let r1 = point;
  for (let i = 255; i >= 0; i--) {
    if ((scalar >> BigInt(i)) & 1n) {
      r0 = add(r0, r1);
      r1 = double(r1);
    } else {
      r1 = add(r0, r1);
      r0 = double(r0);
    }
  }
  return r0;
}

function affineX(p: Jacobian): bigint {
  const zInv = invert(p.z, P);
  return mod(p.x * zInv * zInv);
}

const G: Jacobian = { x: GX, y: GY, z: 1n };

const WINDOW_BITS = 4;
const WINDOWS = 256 / WINDOW_BITS;

/**
 * Fixed-base table for k·G: entry [w][j] = j · 2^(4w) · G (j = 0..15), built once on first use. Each window then
 * costs one addition (always performed, also for j = 0, to keep the operation count independent of k).
 */
let baseTable: Jacobian[][] | undefined;

function table(): Jacobian[][] {
  if (baseTable !== undefined) return baseTable;
  const rows: Jacobian[][] = [];
  let base = G;
  for (let w = 0; w < WINDOWS; w++) {
    const row: Jacobian[] = [INFINITY];
    for (let j = 1; j < 1 << WINDOW_BITS; j++) row.push(add(row[j - 1] ?? INFINITY, base));
    rows.push(row);
    for (let i = 0; i < WINDOW_BITS; i++) base = double(base);
  }
  baseTable = rows;
  return rows;
}

/** k·G with the fixed-base table. */
function multiplyBase(scalar: bigint): Jacobian {
  const rows = table();
  let acc = INFINITY;
  for (let w = 0; w < WINDOWS; w++) {
    const j = Number((scalar >> BigInt(w * WINDOW_BITS)) & 0xfn);
    acc = add(acc, rows[w]?.[j] ?? INFINITY);
  }
  return acc;
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}

function bigIntTo32Bytes(value: bigint): Buffer {
  return Buffer.from(value.toString(16).padStart(64, "0"), "hex");
}

/** RFC 6979 bits2int for a 256-bit order: the leftmost 256 bits of the digest. */
function bits2int(digest: Uint8Array): bigint {
  const v = bytesToBigInt(digest);
  return digest.length > 32 ? v >> BigInt((digest.length - 32) * 8) : v;
}

function hmac(key: Buffer, ...data: Uint8Array[]): Buffer {
  const h = crypto.createHmac("sha256", key);
  for (const d of data) h.update(d);
  return h.digest();
}

function* rfc6979Nonces(d: bigint, digest: Uint8Array): Generator<bigint> {
  const x = bigIntTo32Bytes(d);
  const h1 = bigIntTo32Bytes(mod(bits2int(digest), N));
  let v: Buffer = Buffer.alloc(32, 1);
  let k: Buffer = Buffer.alloc(32, 0);
  k = hmac(k, v, Uint8Array.of(0), x, h1);
  v = hmac(k, v);
  k = hmac(k, v, Uint8Array.of(1), x, h1);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const candidate = bytesToBigInt(v);
    if (candidate >= 1n && candidate < N) yield candidate;
    k = hmac(k, v, Uint8Array.of(0));
    v = hmac(k, v);
  }
}

/** Signs a digest with private scalar d; returns (r, s) with s already low-S. */
export function signDigest(d: bigint, digest: Uint8Array): { r: bigint; s: bigint } {
  if (d <= 0n || d >= N) throw new RangeError("the private scalar is out of range");
  const e = mod(bits2int(digest), N);
  for (const k of rfc6979Nonces(d, digest)) {
    const r = mod(affineX(multiplyBase(k)), N);
    if (r === 0n) continue;
    const s = mod(invert(k, N) * (e + r * d), N);
    if (s === 0n) continue;
    return { r, s: s > P256_HALF_ORDER ? N - s : s };
  }
  /* c8 ignore next */
  throw new Error("unreachable");
}

/** Whether (x, y) is a point of P-256. */
export function isOnCurve(x: bigint, y: bigint): boolean {
  if (x < 0n || x >= P || y < 0n || y >= P) return false;
  return mod(y * y - (x * x * x - 3n * x + B)) === 0n;
}

/** Verifies (r, s) over a digest with public point (x, y); low-S is NOT required here (checked by the caller). */
export function verifyDigest(x: bigint, y: bigint, digest: Uint8Array, r: bigint, s: bigint): boolean {
  if (r <= 0n || r >= N || s <= 0n || s >= N || !isOnCurve(x, y)) return false;
  const e = mod(bits2int(digest), N);
  const w = invert(s, N);
  const point = add(multiplyBase(mod(e * w, N)), multiply({ x, y, z: 1n }, mod(r * w, N)));
  if (point.z === 0n) return false;
  return mod(affineX(point), N) === r;
}

function derInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, "hex");
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.of(0), bytes]);
  return Buffer.concat([Buffer.of(0x02, bytes.length), bytes]);
}

/** ASN.1 DER `SEQUENCE { INTEGER r, INTEGER s }` (always short-form lengths for P-256). */
export function encodeDerSignature(r: bigint, s: bigint): Uint8Array {
  const body = Buffer.concat([derInteger(r), derInteger(s)]);
  return new Uint8Array(Buffer.concat([Buffer.of(0x30, body.length), body]));
}

function readDerInteger(bytes: Uint8Array, offset: number): { value: bigint; next: number } | undefined {
  if (bytes[offset] !== 0x02) return undefined;
  const length = bytes[offset + 1];
  if (length === undefined || length === 0 || length > 33 || offset + 2 + length > bytes.length) return undefined;
  const content = bytes.subarray(offset + 2, offset + 2 + length);
  const first = content[0] ?? 0;
  if (first & 0x80) return undefined; // negative
  if (first === 0 && length > 1 && ((content[1] ?? 0) & 0x80) === 0) return undefined; // non-minimal
  return { value: bytesToBigInt(content), next: offset + 2 + length };
}

/** Strict DER parse of an ECDSA signature; `undefined` for anything but canonical DER with 0 < r, s < n. */
export function decodeDerSignature(signature: Uint8Array): { r: bigint; s: bigint } | undefined {
  if (signature.length < 8 || signature[0] !== 0x30 || signature[1] !== signature.length - 2) return undefined;
  const r = readDerInteger(signature, 2);
  if (r === undefined) return undefined;
  const s = readDerInteger(signature, r.next);
  if (s === undefined || s.next !== signature.length) return undefined;
  if (r.value <= 0n || r.value >= N || s.value <= 0n || s.value >= N) return undefined;
  return { r: r.value, s: s.value };
}
