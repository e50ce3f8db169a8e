/**
 * The helpers generated encoders call (the `rt` parameter of the code wire-encode.ts generates): varints, 64-bit
 * values, strings, bytes and map<string, bytes> fields, each as a size function and a write function.
 */
import { MAX_DEPTH, varintLength } from "./wire-schema";

export type Plain = Record<string, unknown>;

/**
 * Encoding state: nested message and string sizes recorded by the size pass (`count` of them), read back in the same
 * order by the write pass (`index`). The array is reused and never truncated (truncating is a slow accessor store).
 */
export interface EncState {
  readonly sizes: number[];
  count: number;
  index: number;
}

/** Scratch for 64-bit values: the low and high 32 bits of the last value passed to longBits. */
let LO = 0;
let HI = 0;

/** The 64-bit two's complement bits of an int64/uint64 value (bigint, or a number/string BigInt accepts). */
function longBits(value: unknown): void {
  if (typeof value === "bigint" && value >= 0n && value <= 0xffffffffn) {
    LO = Number(value);
    HI = 0;
    return;
  }
  const bits = BigInt.asUintN(64, typeof value === "bigint" ? value : BigInt(value as number | string));
  LO = Number(bits & 0xffffffffn);
  HI = Number(bits >> 32n);
}

/** protobufjs LongBits.fromNumber: the 64-bit two's complement of a (negative int32) number, into LO/HI. */
function numberBits(value: number): void {
  const sign = value < 0;
  if (sign) value = -value;
  let lo = value >>> 0;
  let hi = ((value - lo) / 4294967296) >>> 0;
  if (sign) {
    hi = ~hi >>> 0;
    lo = ~lo >>> 0;
    if (++lo > 4294967295) {
      lo = 0;
      if (++hi > 4294967295) hi = 0;
    }
  }
  LO = lo;
  HI = hi;
}

function varint64Length(lo: number, hi: number): number {
  let n = 1;
  while (hi !== 0) {
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
    n++;
  }
  while (lo > 127) {
    lo >>>= 7;
    n++;
  }
  return n;
}

function writeVarint32(buf: Buffer, pos: number, value: number): number {
  while (value > 127) {
    buf[pos++] = (value & 127) | 128;
    value >>>= 7;
  }
  buf[pos++] = value;
  return pos;
}

function writeVarint64(buf: Buffer, pos: number, lo: number, hi: number): number {
  while (hi !== 0) {
    buf[pos++] = (lo & 127) | 128;
    lo = ((lo >>> 7) | (hi << 25)) >>> 0;
    hi >>>= 7;
  }
  while (lo > 127) {
    buf[pos++] = (lo & 127) | 128;
    lo >>>= 7;
  }
  buf[pos++] = lo;
  return pos;
}

function isZero64(v: unknown): boolean {
  if (v === 0n || v === 0) return true;
  longBits(v);
  return LO === 0 && HI === 0;
}

function size64(v: unknown): number {
  longBits(v);
  return varint64Length(LO, HI);
}

function write64(buf: Buffer, pos: number, v: unknown): number {
  longBits(v);
  return writeVarint64(buf, pos, LO, HI);
}

function int32Size(v: number): number {
  return v < 0 ? 10 : varintLength(v >>> 0);
}

function writeInt32(buf: Buffer, pos: number, v: number): number {
  if (v >= 0) return writeVarint32(buf, pos, v >>> 0);
  numberBits(v);
  return writeVarint64(buf, pos, LO, HI);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 127) return false;
  return true;
}

/** Size of a string value with its length prefix; records the byte length for writeString. */
function stringSize(s: string, st: EncState): number {
  let n = s.length;
  // ASCII is its own byte length (one pass over short strings).
  if (n > 64 || !isAscii(s)) n = Buffer.byteLength(s, "utf8");
  st.sizes[st.count++] = n;
  return varintLength(n) + n;
}

function writeString(buf: Buffer, pos: number, s: string, n: number): number {
  pos = writeVarint32(buf, pos, n);
  if (n === s.length && n <= 64) {
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i);
    return pos;
  }
  return n === 0 ? pos : pos + buf.write(s, pos, n, "utf8");
}

function bytesSize(b: ArrayLike<number>): number {
  return varintLength(b.length) + b.length;
}

function writeBytes(buf: Buffer, pos: number, b: ArrayLike<number>): number {
  const n = b.length;
  pos = writeVarint32(buf, pos, n);
  if (n < 40) {
    for (let i = 0; i < n; i++) buf[pos++] = b[i] as number;
    return pos;
  }
  buf.set(b, pos);
  return pos + n;
}

/** The map's entries as protobufjs orders them: the keys of a plain object built in insertion order. */
function mapEntries(value: ReadonlyMap<unknown, unknown>): Plain {
  const out = Object.create(null) as Plain;
  for (const [k, v] of value) out[k as string] = v;
  return out;
}

/** Size of a map<string, bytes> field (every entry with its tag). */
function mapSize(map: ReadonlyMap<unknown, unknown>, tagLength: number, st: EncState): number {
  const entries = mapEntries(map);
  let size = 0;
  for (const k of Object.keys(entries)) {
    const n = 1 + stringSize(k, st) + 1 + bytesSize(entries[k] as ArrayLike<number>);
    size += tagLength + varintLength(n) + n;
  }
  return size;
}

function writeMap(map: ReadonlyMap<unknown, unknown>, tag: number, buf: Buffer, pos: number, st: EncState): number {
  const entries = mapEntries(map);
  for (const k of Object.keys(entries)) {
    const keyLength = st.sizes[st.index++] as number;
    const b = entries[k] as ArrayLike<number>;
    pos = writeVarint32(buf, pos, tag);
    pos = writeVarint32(buf, pos, 1 + varintLength(keyLength) + keyLength + 1 + bytesSize(b));
    buf[pos++] = 10;
    pos = writeString(buf, pos, k, keyLength);
    buf[pos++] = 18;
    pos = writeBytes(buf, pos, b);
  }
  return pos;
}

function tooDeep(): Error {
  return new Error("max depth exceeded");
}

/** What generated encoders call (the `rt` parameter of the generated code). */
export const runtime = {
  MAX_DEPTH,
  tooDeep,
  vlen: varintLength,
  wv: writeVarint32,
  isZero64,
  size64,
  write64,
  int32Size,
  writeInt32,
  stringSize,
  writeString,
  bytesSize,
  writeBytes,
  mapSize,
  writeMap,
};
