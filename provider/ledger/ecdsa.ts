/**
 * ECDSA over P-256 and P-384 on a precomputed digest, in DER, always low-S with the curve's own order.
 *
 * Node's crypto can only sign a message (it hashes it itself), but a Fabric Signer receives a digest, so signing is
 * done here with BigInt arithmetic: RFC 6979 deterministic nonces (HMAC with the curve's hash, SHA-256 for P-256 and
 * SHA-384 for P-384, as @noble/curves does), Jacobian coordinates and a fixed-base table. JavaScript BigInt is not
 * constant-time; like other pure-JS ECDSA libraries this is not hardened against local timing attackers — use an
 * HSM/KMS Signer where that matters. Fabric verifies ECDSA over SHA-256 whatever the curve (fabric.md "The 3.x line").
 */
import * as crypto from "node:crypto";

/** The parameters of a short-Weierstrass curve y² = x³ − 3x + b over F_p with a base point of prime order n. */
export interface EcdsaCurve {
  /** The JWK / Fabric name: "P-256" or "P-384". */
  readonly name: "P-256" | "P-384";
  /** Node's name of the curve (KeyObject.asymmetricKeyDetails.namedCurve). */
  readonly nodeName: "prime256v1" | "secp384r1";
  readonly p: bigint;
  /** The order n of the base point. */
  readonly n: bigint;
  /** n / 2: a signature is low-S when s ≤ this value. */
  readonly halfOrder: bigint;
  readonly b: bigint;
  readonly gx: bigint;
  readonly gy: bigint;
  /** Bytes of a field element and of a scalar. */
  readonly bytes: number;
  /** The HMAC hash of RFC 6979 nonces. */
  readonly nonceHash: "sha256" | "sha384";
  /** The DER of the curve's OID (PKCS#11 CKA_EC_PARAMS). */
  readonly oidDerHex: string;
}

function curve(c: Omit<EcdsaCurve, "halfOrder">): EcdsaCurve {
  return { ...c, halfOrder: c.n >> 1n };
}

/** NIST P-256 (secp256r1, prime256v1). */
export const P256: EcdsaCurve = curve({
  name: "P-256",
  nodeName: "prime256v1",
  p: 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn,
  n: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  b: 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn,
  gx: 0x6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296n,
  gy: 0x4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5n,
  bytes: 32,
  nonceHash: "sha256",
  oidDerHex: "06082a8648ce3d030107",
});

/** NIST P-384 (secp384r1). */
export const P384: EcdsaCurve = curve({
  name: "P-384",
  nodeName: "secp384r1",
  p: 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffffn,
  n: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
  b: 0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aefn,
  gx: 0xaa87ca22be8b05378eb1c71ef320ad746e1d3b628ba79b9859f741e082542a385502f25dbf55296c3a545e3872760ab7n,
  gy: 0x3617de4a96262c6f5d9e98bf9292dc29f8f41dbd289a147ce9da3113b5f0b8c00a60b1ce1d7e819d7a431d7c90ea0e5fn,
  bytes: 48,
  nonceHash: "sha384",
  oidDerHex: "06052b81040022",
});

/** The curve of a Node curve name (or JWK crv), or undefined for any other. */
export function ecdsaCurveNamed(name: string | undefined): EcdsaCurve | undefined {
  return [P256, P384].find((c) => c.nodeName === name || c.name === name);
}

interface Jacobian {
  readonly x: bigint;
  readonly y: bigint;
  readonly z: bigint;
}

const INFINITY: Jacobian = { x: 1n, y: 1n, z: 0n };

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function invert(a: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(a, m);
  for (let e = m - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
  }
  return result; // m is prime
}

/** Point arithmetic in Jacobian coordinates on one curve (a = −3). */
class Arithmetic {
  readonly #p: bigint;
  #table: Jacobian[][] | undefined;

  constructor(readonly c: EcdsaCurve) {
    this.#p = c.p;
  }

  double(q: Jacobian): Jacobian {
    const P = this.#p;
    if (q.z === 0n || q.y === 0n) return INFINITY;
    const delta = mod(q.z * q.z, P);
    const gamma = mod(q.y * q.y, P);
    const beta = mod(q.x * gamma, P);
    const alpha = mod(3n * (q.x - delta) * (q.x + delta), P);
    const x = mod(alpha * alpha - 8n * beta, P);
    const z = mod((q.y + q.z) * (q.y + q.z) - gamma - delta, P);
    const y = mod(alpha * (4n * beta - x) - 8n * gamma * gamma, P);
    return { x, y, z };
  }

  add(p: Jacobian, q: Jacobian): Jacobian {
    const P = this.#p;
    if (p.z === 0n) return q;
    if (q.z === 0n) return p;
    const z1z1 = mod(p.z * p.z, P);
    const z2z2 = mod(q.z * q.z, P);
    const u1 = mod(p.x * z2z2, P);
    const u2 = mod(q.x * z1z1, P);
    const s1 = mod(p.y * q.z * z2z2, P);
    const s2 = mod(q.y * p.z * z1z1, P);
    const h = mod(u2 - u1, P);
    const r = mod(2n * (s2 - s1), P);
    if (h === 0n) return r === 0n ? this.double(p) : INFINITY;
    const i = mod(4n * h * h, P);
    const j = mod(h * i, P);
    const v = mod(u1 * i, P);
    const x = mod(r * r - j - 2n * v, P);
    const y = mod(r * (v - x) - 2n * s1 * j, P);
    const z = mod(((p.z + q.z) * (p.z + q.z) - z1z1 - z2z2) * h, P);
    return { x, y, z };
  }

  /** Montgomery ladder: the same operations for every bit. */
  multiply(point: Jacobian, scalar: bigint): Jacobian {
    let r0 = INFINITY;
    let r1 = point;
    for (let i = this.c.bytes * 8 - 1; i >= 0; i--) {
      if ((scalar >> BigInt(i)) & 1n) {
        r0 = this.add(r0, r1);
        r1 = this.double(r1);
      } else {
        r1 = this.add(r0, r1);
        r0 = this.double(r0);
      }
    }
    return r0;
  }

  /** k·G with a fixed-base table of 4-bit windows, built on first use; one addition per window, also for 0. */
  multiplyBase(scalar: bigint): Jacobian {
    const rows = this.#baseTable();
    let acc = INFINITY;
    for (let w = 0; w < rows.length; w++) {
      const j = Number((scalar >> BigInt(w * 4)) & 0xfn);
      acc = this.add(acc, rows[w]?.[j] ?? INFINITY);
    }
    return acc;
  }

  affineX(q: Jacobian): bigint {
    const zInv = invert(q.z, this.#p);
    return mod(q.x * zInv * zInv, this.#p);
  }

  #baseTable(): Jacobian[][] {
    if (this.#table !== undefined) return this.#table;
    const rows: Jacobian[][] = [];
    let base: Jacobian = { x: this.c.gx, y: this.c.gy, z: 1n };
    for (let w = 0; w < (this.c.bytes * 8) / 4; w++) {
      const row: Jacobian[] = [INFINITY];
      for (let j = 1; j < 16; j++) row.push(this.add(row[j - 1] ?? INFINITY, base));
      rows.push(row);
      for (let i = 0; i < 4; i++) base = this.double(base);
    }
    this.#table = rows;
    return rows;
  }
}

const arithmetics = new Map<EcdsaCurve, Arithmetic>();

function arithmetic(c: EcdsaCurve): Arithmetic {
  let a = arithmetics.get(c);
  if (a === undefined) {
    a = new Arithmetic(c);
    arithmetics.set(c, a);
  }
  return a;
}

function bytesToBigInt(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString("hex")}`);
}

function intToBytes(value: bigint, length: number): Buffer {
  return Buffer.from(value.toString(16).padStart(length * 2, "0"), "hex");
}

/** RFC 6979 bits2int: the leftmost qlen bits of the digest. */
function bits2int(c: EcdsaCurve, digest: Uint8Array): bigint {
  const v = bytesToBigInt(digest);
  return digest.length > c.bytes ? v >> BigInt((digest.length - c.bytes) * 8) : v;
}

function* rfc6979Nonces(c: EcdsaCurve, d: bigint, digest: Uint8Array): Generator<bigint> {
  const hmac = (key: Buffer, ...data: Uint8Array[]): Buffer => {
    const h = crypto.createHmac(c.nonceHash, key);
    for (const part of data) h.update(part);
    return h.digest();
  };
  const size = c.nonceHash === "sha256" ? 32 : 48;
  const x = intToBytes(d, c.bytes);
  const h1 = intToBytes(mod(bits2int(c, digest), c.n), c.bytes);
  let v: Buffer = Buffer.alloc(size, 1);
  let k: Buffer = Buffer.alloc(size, 0);
  k = hmac(k, v, Uint8Array.of(0), x, h1);
  v = hmac(k, v);
  k = hmac(k, v, Uint8Array.of(1), x, h1);
  v = hmac(k, v);
  for (;;) {
    let t: Buffer = Buffer.alloc(0);
    while (t.length < c.bytes) {
      v = hmac(k, v);
      t = Buffer.concat([t, v]);
    }
    const candidate = bytesToBigInt(t.subarray(0, c.bytes));
    if (candidate >= 1n && candidate < c.n) yield candidate;
    k = hmac(k, v, Uint8Array.of(0));
    v = hmac(k, v);
  }
}

/** Signs a digest with private scalar d on curve c; returns (r, s) with s already low-S. */
export function signDigestOn(c: EcdsaCurve, d: bigint, digest: Uint8Array): { r: bigint; s: bigint } {
  if (d <= 0n || d >= c.n) throw new RangeError("the private scalar is out of range");
  const a = arithmetic(c);
  const e = mod(bits2int(c, digest), c.n);
  for (const k of rfc6979Nonces(c, d, digest)) {
    const r = mod(a.affineX(a.multiplyBase(k)), c.n);
    if (r === 0n) continue;
    const s = mod(invert(k, c.n) * (e + r * d), c.n);
    if (s === 0n) continue;
    return { r, s: s > c.halfOrder ? c.n - s : s };
  }
  /* c8 ignore next */
  throw new Error("unreachable");
}

/** Whether (x, y) is a point of curve c. */
export function isOnCurveOf(c: EcdsaCurve, x: bigint, y: bigint): boolean {
  if (x < 0n || x >= c.p || y < 0n || y >= c.p) return false;
  return mod(y * y - (x * x * x - 3n * x + c.b), c.p) === 0n;
}

/** Verifies (r, s) over a digest with public point (x, y) of curve c; low-S is NOT required here. */
export function verifyDigestOn(
  c: EcdsaCurve,
  point: { x: bigint; y: bigint },
  digest: Uint8Array,
  r: bigint,
  s: bigint,
): boolean {
  if (r <= 0n || r >= c.n || s <= 0n || s >= c.n || !isOnCurveOf(c, point.x, point.y)) return false;
  const a = arithmetic(c);
  const e = mod(bits2int(c, digest), c.n);
  const w = invert(s, c.n);
  const sum = a.add(a.multiplyBase(mod(e * w, c.n)), a.multiply({ ...point, z: 1n }, mod(r * w, c.n)));
  if (sum.z === 0n) return false;
  return mod(a.affineX(sum), c.n) === r;
}

function derInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, "hex");
  if ((bytes[0] ?? 0) & 0x80) bytes = Buffer.concat([Buffer.of(0), bytes]);
  return Buffer.concat([Buffer.of(0x02, bytes.length), bytes]);
}

/** ASN.1 DER `SEQUENCE { INTEGER r, INTEGER s }` (short-form lengths: at most 104 bytes for P-384). */
export function encodeDerSignature(r: bigint, s: bigint): Uint8Array {
  const body = Buffer.concat([derInteger(r), derInteger(s)]);
  return new Uint8Array(Buffer.concat([Buffer.of(0x30, body.length), body]));
}

function readDerInteger(bytes: Uint8Array, offset: number): { value: bigint; next: number } | undefined {
  if (bytes[offset] !== 0x02) return undefined;
  const length = bytes[offset + 1];
  if (length === undefined || length === 0 || length > 0x7f || offset + 2 + length > bytes.length) return undefined;
  const content = bytes.subarray(offset + 2, offset + 2 + length);
  const first = content[0] ?? 0;
  if (first & 0x80) return undefined; // negative
  if (first === 0 && length > 1 && ((content[1] ?? 0) & 0x80) === 0) return undefined; // non-minimal
  return { value: bytesToBigInt(content), next: offset + 2 + length };
}

/** Strict DER parse of an ECDSA signature; `undefined` for anything but canonical DER with 0 < r, s < n of `c`. */
export function decodeDerSignatureOn(c: EcdsaCurve, signature: Uint8Array): { r: bigint; s: bigint } | undefined {
  if (signature.length < 8 || signature[0] !== 0x30 || signature[1] !== signature.length - 2) return undefined;
  const r = readDerInteger(signature, 2);
  if (r === undefined) return undefined;
  const s = readDerInteger(signature, r.next);
  if (s === undefined || s.next !== signature.length) return undefined;
  if (r.value <= 0n || r.value >= c.n || s.value <= 0n || s.value >= c.n) return undefined;
  return { r: r.value, s: s.value };
}

/** A DER signature rewritten to low-S for curve c (s := n − s when s > n/2); undefined when it is not canonical DER. */
export function normalizeLowSOn(c: EcdsaCurve, signature: Uint8Array): Uint8Array | undefined {
  const parsed = decodeDerSignatureOn(c, signature);
  if (parsed === undefined) return undefined;
  return parsed.s > c.halfOrder ? encodeDerSignature(parsed.r, c.n - parsed.s) : signature;
}

/** Raw r ‖ s (IEEE P1363, PKCS#11 CKM_ECDSA's output) of curve c as low-S DER; undefined when r or s is out of range. */
export function rawToLowSDer(c: EcdsaCurve, raw: Uint8Array): Uint8Array | undefined {
  if (raw.length !== 2 * c.bytes) return undefined;
  const r = bytesToBigInt(raw.subarray(0, c.bytes));
  const s = bytesToBigInt(raw.subarray(c.bytes));
  if (r <= 0n || r >= c.n || s <= 0n || s >= c.n) return undefined;
  return encodeDerSignature(r, s > c.halfOrder ? c.n - s : s);
}
