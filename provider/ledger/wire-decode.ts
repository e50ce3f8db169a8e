/**
 * Protobuf wire bytes → our shape, in one pass, with no intermediate protobufjs message. Like protobufjs and
 * google-protobuf's generated code, each message type gets its own decoder, generated once from the compiled
 * layout (wire-schema.ts) so property names are constants (a generic loop over field names makes every property
 * access megamorphic and costs about half the speed). The generated code only calls the helpers below.
 *
 * Semantics are proto3's (and protobufjs 8's, and Go's):
 * - absent implicit scalars get their default (0, "", false, 0n, empty bytes), repeated fields [], maps an empty
 *   Map; absent messages and oneof members are left out;
 * - a repeated singular scalar: the last value wins; a repeated singular message: the occurrences are merged;
 *   a oneof: the last member read wins and clears the others;
 * - unknown fields, and known fields with an unexpected wire type, are skipped (groups included);
 * - strings must be valid UTF-8 (proto3), bytes fields are views of the input (no copy);
 * - truncated input, over-long varints, field number 0, stray end-group tags, wire types 6 and 7 and nesting deeper
 *   than MAX_DEPTH throw WireFormatError.
 */
import { WireFormatError } from "../errors/ledger/wire-format-error";
import { compileGenerated, Kind, MAX_DEPTH, Mode, NestedSlots, type WireField, type WireMessage } from "./wire-schema";

type Plain = Record<string, unknown>;

interface Reader {
  buf: Uint8Array;
  pos: number;
}

type DecodeFn = (r: Reader, end: number, depth: number, target: Plain | undefined) => Plain;

/** The empty bytes value of absent fields: shared, and frozen (it has no elements to change). */
const EMPTY_BYTES: Uint8Array = Object.freeze(new Uint8Array(0));

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Scratch for 64-bit varints: the low and high 32 bits of the last readVarint64. */
let LO = 0;
let HI = 0;

function truncated(): WireFormatError {
  return new WireFormatError({ message: "index out of range: the message is truncated" });
}

function readVarint32(r: Reader, end: number): number {
  const buf = r.buf;
  let pos = r.pos;
  let value = 0;
  for (let shift = 0; shift < 70; shift += 7) {
    if (pos >= end) throw truncated();
    const b = buf[pos++] as number;
    if (shift < 32) value |= (b & 127) << shift;
    if (b < 128) {
      r.pos = pos;
      return value >>> 0;
    }
  }
  throw new WireFormatError({ message: "invalid varint encoding (more than 10 bytes)" });
}

function readVarint64(r: Reader, end: number): void {
  const buf = r.buf;
  let pos = r.pos;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw truncated();
    const b = buf[pos++] as number;
    const bits = b & 127;
    if (i < 4) lo |= bits << (i * 7);
    else if (i === 4) {
      lo |= bits << 28;
      hi |= bits >>> 4;
    } else hi |= bits << (i * 7 - 32);
    if (b < 128) {
      r.pos = pos;
      LO = lo >>> 0;
      HI = hi >>> 0;
      return;
    }
  }
  throw new WireFormatError({ message: "invalid varint encoding (more than 10 bytes)" });
}

/**
 * A field key (the first byte is already known to be >= 128): at most 5 bytes and 32 bits, as protobufjs requires
 * (Go also accepts over-long encodings, which no encoder writes).
 */
function readTag(r: Reader, end: number): number {
  const buf = r.buf;
  let pos = r.pos;
  let value = 0;
  for (let shift = 0; shift < 35; shift += 7) {
    if (pos >= end) throw truncated();
    const b = buf[pos++] as number;
    if (shift === 28 && b > 15) throw new WireFormatError({ message: "invalid tag encoding" });
    value |= (b & 127) << shift;
    if (b < 128) {
      r.pos = pos;
      return value >>> 0;
    }
  }
  throw new WireFormatError({ message: "invalid tag encoding" });
}

/** The end of a length-delimited value starting at r.pos (after its length), checked against `end`. */
function delimitedEnd(r: Reader, end: number): number {
  // A length is at most 5 bytes and below 2^31, as protobufjs requires.
  const buf = r.buf;
  let pos = r.pos;
  let length = 0;
  for (let shift = 0; ; shift += 7) {
    if (pos >= end) throw truncated();
    const b = buf[pos++] as number;
    if (shift === 28) {
      if (b > 7) throw new WireFormatError({ message: "invalid length encoding" });
      length = (length | (b << 28)) >>> 0;
      break;
    }
    length |= (b & 127) << shift;
    if (b < 128) break;
  }
  r.pos = pos;
  const valueEnd = pos + length;
  if (valueEnd > end) throw truncated();
  return valueEnd;
}

function readString(r: Reader, end: number): string {
  const stop = delimitedEnd(r, end);
  const buf = r.buf;
  const start = r.pos;
  r.pos = stop;
  if (stop - start <= 64) {
    let ascii = true;
    for (let i = start; i < stop; i++) {
      if ((buf[i] as number) > 127) {
        ascii = false;
        break;
      }
    }
    if (ascii) return String.fromCharCode.apply(null, buf.subarray(start, stop) as unknown as number[]);
  }
  try {
    return utf8.decode(buf.subarray(start, stop));
  } catch {
    throw new WireFormatError({ message: "a string field is not valid UTF-8" });
  }
}

function readBytes(r: Reader, end: number): Uint8Array {
  const stop = delimitedEnd(r, end);
  const start = r.pos;
  r.pos = stop;
  return stop === start ? EMPTY_BYTES : r.buf.subarray(start, stop);
}

function readInt32(r: Reader, end: number): number {
  readVarint64(r, end);
  return LO | 0;
}

function readBool(r: Reader, end: number): boolean {
  readVarint64(r, end);
  return LO !== 0 || HI !== 0;
}

function readInt64(r: Reader, end: number): bigint {
  readVarint64(r, end);
  return HI === 0 ? BigInt(LO) : BigInt.asIntN(64, (BigInt(HI) << 32n) | BigInt(LO));
}

function readUint64(r: Reader, end: number): bigint {
  readVarint64(r, end);
  return HI === 0 ? BigInt(LO) : (BigInt(HI) << 32n) | BigInt(LO);
}

/** Skips one unknown field (of wire type `wireType`), groups included. */
function skipField(r: Reader, end: number, wireType: number, fieldNumber: number, depth: number): void {
  if (fieldNumber === 0) throw new WireFormatError({ message: "illegal tag: field number 0" });
  switch (wireType) {
    case 0:
      readVarint64(r, end);
      return;
    case 1:
      if (r.pos + 8 > end) throw truncated();
      r.pos += 8;
      return;
    case 2:
      r.pos = delimitedEnd(r, end);
      return;
    case 3: {
      if (depth + 1 > MAX_DEPTH) throw new WireFormatError({ message: "max depth exceeded" });
      for (;;) {
        const tag = readTag(r, end);
        if ((tag & 7) === 4) {
          if (tag >>> 3 !== fieldNumber) throw new WireFormatError({ message: "invalid end group tag" });
          return;
        }
        skipField(r, end, tag & 7, tag >>> 3, depth + 1);
      }
    }
    case 5:
      if (r.pos + 4 > end) throw truncated();
      r.pos += 4;
      return;
    case 4:
      throw new WireFormatError({ message: "invalid end group tag" });
    default:
      throw new WireFormatError({ message: `invalid wire type ${wireType}` });
  }
}

/** One map<string, bytes> entry into `map` (a missing key is "", a missing value empty bytes; the last wins). */
function readMapEntry(r: Reader, end: number, map: Map<string, Uint8Array>, depth: number): void {
  const stop = delimitedEnd(r, end);
  let key = "";
  let value = EMPTY_BYTES;
  while (r.pos < stop) {
    const tag = readTag(r, stop);
    if (tag === 10) key = readString(r, stop);
    else if (tag === 18) value = readBytes(r, stop);
    else skipField(r, stop, tag & 7, tag >>> 3, depth + 1);
  }
  map.set(key, value);
}

function tooDeep(): WireFormatError {
  return new WireFormatError({ message: "max depth exceeded" });
}

/** What generated decoders call (the `rt` parameter of the generated code). */
const runtime = {
  EMPTY_BYTES,
  MAX_DEPTH,
  readVarint32,
  readTag,
  delimitedEnd,
  readString,
  readBytes,
  readInt32,
  readBool,
  readInt64,
  readUint64,
  skipField,
  readMapEntry,
  truncated,
  tooDeep,
};

const READERS: Record<Kind, string> = {
  [Kind.Message]: "",
  [Kind.Int32]: "rt.readInt32(r, end)",
  [Kind.Uint32]: "rt.readVarint32(r, end)",
  [Kind.Bool]: "rt.readBool(r, end)",
  [Kind.String]: "rt.readString(r, end)",
  [Kind.Bytes]: "rt.readBytes(r, end)",
  [Kind.Int64]: "rt.readInt64(r, end)",
  [Kind.Uint64]: "rt.readUint64(r, end)",
};

const DEFAULTS: Record<Kind, string> = {
  [Kind.Message]: "undefined",
  [Kind.Int32]: "0",
  [Kind.Uint32]: "0",
  [Kind.Bool]: "false",
  [Kind.String]: '""',
  [Kind.Bytes]: "rt.EMPTY_BYTES",
  [Kind.Int64]: "0n",
  [Kind.Uint64]: "0n",
};

/** `m["name"]`: property names come from our .proto files, quoted as JSON string literals. */
function prop(name: string): string {
  return `m[${JSON.stringify(name)}]`;
}

function defaultOf(f: WireField): string {
  if (f.mode === Mode.Repeated) return "[]";
  if (f.mode === Mode.Map) return "new Map()";
  return DEFAULTS[f.kind];
}

function fieldCase(f: WireField, nested: number): string {
  const m = prop(f.tsName);
  const clear = (f.oneofSiblings ?? []).map((s) => `if (${prop(s)} !== undefined) delete ${prop(s)}; `).join("");
  const read =
    f.kind === Kind.Message
      ? (target: string): string => `N[${nested}](r, rt.delimitedEnd(r, end), depth + 1, ${target})`
      : (): string => READERS[f.kind];
  switch (f.mode) {
    case Mode.Implicit:
      return `case ${f.tag}: ${m} = ${read("")}; continue;`;
    case Mode.Present:
      return `case ${f.tag}: ${clear}${m} = ${read(m)}; continue;`;
    case Mode.Repeated:
      return `case ${f.tag}: ${m}.push(${read("undefined")}); continue;`;
    default:
      return `case ${f.tag}: rt.readMapEntry(r, end, ${m}, depth); continue;`;
  }
}

/** The generated decoder's body (parameters: r, end, depth, m; closure: rt, N the nested decoders). */
function decoderSource(layout: WireMessage, nestedIndex: (f: WireField) => number): string {
  const init = layout.defaults.map((f) => `${JSON.stringify(f.tsName)}: ${defaultOf(f)}`).join(", ");
  const cases = layout.fields.map((f) => fieldCase(f, f.kind === Kind.Message ? nestedIndex(f) : -1)).join("\n      ");
  return `return function decode(r, end, depth, m) {
  if (depth > rt.MAX_DEPTH) throw rt.tooDeep();
  if (m === undefined) m = { ${init} };
  const buf = r.buf;
  while (r.pos < end) {
    let t = buf[r.pos];
    if (t < 128) r.pos++;
    else t = rt.readTag(r, end);
    switch (t) {
      ${cases}
    }
    rt.skipField(r, end, t & 7, t >>> 3, depth);
  }
  if (r.pos !== end) throw rt.truncated();
  return m;
};`;
}

const decoders = new WeakMap<WireMessage, DecodeFn>();

/** The generated decoder of a layout (and of every message type it contains), compiled once. */
function decoderOf(layout: WireMessage): DecodeFn {
  const known = decoders.get(layout);
  if (known !== undefined) return known;
  const slots = new NestedSlots();
  const source = decoderSource(layout, (f) => slots.slotOf(f));
  const nested: DecodeFn[] = [];
  const decode = compileGenerated(["rt", "N"], source, [runtime, nested]) as DecodeFn;
  decoders.set(layout, decode); // before the nested ones, so recursive types find it
  for (const n of slots.layouts) nested.push(decoderOf(n));
  return decode;
}

const reader: Reader = { buf: EMPTY_BYTES, pos: 0 };

/** The decoder of a layout's messages; throws WireFormatError when bytes are not a valid encoding. */
export function wireDecoder(layout: WireMessage): (bytes: Uint8Array) => Plain {
  const decode = decoderOf(layout);
  return (bytes) => {
    // Views of a plain Uint8Array are plain Uint8Arrays (a Buffer's would be Buffers).
    const buf =
      bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    // Decoding is synchronous and calls no user code, so one reader serves every call; it lets go of the input after.
    reader.buf = buf;
    reader.pos = 0;
    try {
      return decode(reader, buf.length, 0, undefined);
    } finally {
      reader.buf = EMPTY_BYTES;
    }
  };
}

/** Decodes wire bytes as the message of `layout` (wireDecoder, once). */
export function decodeWireMessage(layout: WireMessage, bytes: Uint8Array): Plain {
  return wireDecoder(layout)(bytes);
}
