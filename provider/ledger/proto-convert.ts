/**
 * Conversion between our message shapes (messages.ts conventions) and protobufjs 8 messages, driven by the
 * reflection Types of proto-root.ts. Converters are compiled once per Type.
 *
 * Encoding never writes proto3 implicit defaults (0, "", false, empty bytes, 0n) outside oneofs, whatever the
 * protobufjs version would do, so re-marshalled structures are canonical (the same bytes as Go and google-protobuf).
 */
import * as protobuf from "protobufjs";

type Plain = Record<string, unknown>;

interface FieldConverter {
  /** Our property name (protobufjs name with a lower-case first letter). */
  readonly tsName: string;
  /** The protobufjs property name. */
  readonly pbName: string;
  readonly toPb: (value: unknown) => unknown;
  readonly fromPb: (value: unknown) => unknown;
  /** Whether to write the value: false for implicit defaults outside oneofs. */
  readonly shouldWrite: (value: unknown) => boolean;
  /** Decoded presence: for oneof members and messages, absent values are left out. */
  readonly isPresent: (message: Plain) => boolean;
  readonly defaultValue: () => unknown;
}

const LONG_TYPES = new Set(["int64", "uint64", "sint64", "fixed64", "sfixed64"]);

/** Our property name: camelCase (bundled google/protobuf definitions keep snake_case), lower-case first letter. */
function tsNameOf(name: string): string {
  // Same rule as the protobufjs parser (which already camel-cases our .proto files): "type_url" → "typeUrl".
  const camel = name.replace(/_([a-z])(?=[a-z]|$)/g, (_match, letter: string) => letter.toUpperCase());
  return camel.charAt(0).toLowerCase() + camel.slice(1);
}

/** Decoded bytes as a plain Uint8Array view of the same memory (no copy; protobufjs returns Buffer subarrays). */
function bytesFromPb(value: unknown): Uint8Array {
  if (!(value instanceof Uint8Array)) return new Uint8Array(0);
  return value.constructor === Uint8Array ? value : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
}

function bigintFromPb(value: unknown): bigint {
  if (typeof value === "number") return BigInt(value);
  if (typeof value === "string") return BigInt(value);
  if (typeof value === "object" && value !== null) return BigInt((value as { toString(): string }).toString());
  return 0n;
}

/** bigint → the `{low, high}` bits protobufjs writers accept for 64-bit fields (two's complement for negatives). */
function longToPb(value: unknown): unknown {
  const bits = BigInt.asUintN(64, BigInt(value as bigint | number));
  return { low: Number(bits & 0xffffffffn) | 0, high: Number(bits >> 32n) | 0, unsigned: true };
}

function scalarConverters(field: protobuf.Field): Pick<FieldConverter, "toPb" | "fromPb" | "defaultValue"> {
  if (field.resolvedType instanceof protobuf.Type) {
    const type = field.resolvedType;
    return {
      toPb: (v) => toPbMessage(type, v as Plain),
      fromPb: (v) => fromPbMessage(type, v as Plain),
      defaultValue: () => undefined,
    };
  }
  if (field.resolvedType instanceof protobuf.Enum) {
    return { toPb: (v) => v, fromPb: (v) => (typeof v === "number" ? v : 0), defaultValue: () => 0 };
  }
  if (field.type === "bytes") return { toPb: (v) => v, fromPb: bytesFromPb, defaultValue: () => new Uint8Array(0) };
  if (LONG_TYPES.has(field.type)) {
    return { toPb: longToPb, fromPb: bigintFromPb, defaultValue: () => 0n };
  }
  if (field.type === "string")
    return { toPb: (v) => v, fromPb: (v) => (typeof v === "string" ? v : ""), defaultValue: () => "" };
  if (field.type === "bool") return { toPb: (v) => v, fromPb: (v) => v === true, defaultValue: () => false };
  return { toPb: (v) => v, fromPb: (v) => (typeof v === "number" ? v : 0), defaultValue: () => 0 };
}

function isImplicitDefault(value: unknown): boolean {
  if (value === 0 || value === 0n || value === "" || value === false) return true;
  return value instanceof Uint8Array && value.length === 0;
}

function compileField(field: protobuf.Field): FieldConverter {
  field.resolve();
  const tsName = tsNameOf(field.name);
  const pbName = field.name;
  const scalar = scalarConverters(field);
  if (field.map) {
    // For a map field, `type`/`resolvedType` describe the value; keys are strings in our protos.
    const valueConv = scalar;
    return {
      tsName,
      pbName,
      toPb: (value) => {
        const out = Object.create(null) as Plain;
        for (const [k, v] of value as ReadonlyMap<string, unknown>) out[k] = valueConv.toPb(v);
        return out;
      },
      fromPb: (value) => {
        const out = new Map<string, unknown>();
        if (typeof value === "object" && value !== null) {
          for (const k of Object.keys(value)) out.set(k, valueConv.fromPb((value as Plain)[k]));
        }
        return out;
      },
      shouldWrite: (value) => (value as ReadonlyMap<string, unknown>).size > 0,
      isPresent: () => true,
      defaultValue: () => new Map(),
    };
  }
  if (field.repeated) {
    return {
      tsName,
      pbName,
      toPb: (value) => (value as readonly unknown[]).map(scalar.toPb),
      fromPb: (value) => (Array.isArray(value) ? value.map(scalar.fromPb) : []),
      shouldWrite: (value) => (value as readonly unknown[]).length > 0,
      isPresent: () => true,
      defaultValue: () => [],
    };
  }
  const oneof = field.partOf;
  if (oneof !== null) {
    return {
      tsName,
      pbName,
      toPb: scalar.toPb,
      fromPb: scalar.fromPb,
      shouldWrite: () => true,
      isPresent: (message) => message[oneof.name] === pbName,
      defaultValue: () => undefined,
    };
  }
  const isMessage = field.resolvedType instanceof protobuf.Type;
  return {
    tsName,
    pbName,
    toPb: scalar.toPb,
    fromPb: scalar.fromPb,
    shouldWrite: isMessage ? () => true : (value) => !isImplicitDefault(value),
    isPresent: isMessage ? (message) => message[pbName] !== null && message[pbName] !== undefined : () => true,
    defaultValue: scalar.defaultValue,
  };
}

/** One field's decoded value → our shape, written into `out` (left out when absent). */
type FieldDecoder = (message: Plain, out: Plain) => void;

function fieldDecoder(field: protobuf.Field, f: FieldConverter): FieldDecoder {
  const { tsName, pbName, fromPb, defaultValue } = f;
  const oneof = field.partOf;
  if (!field.map && !field.repeated && oneof !== null) {
    const oneofName = oneof.name;
    return (message, out) => {
      if (message[oneofName] !== pbName) return;
      const v = message[pbName];
      if (v !== undefined && v !== null) out[tsName] = fromPb(v);
    };
  }
  if (!field.map && !field.repeated && field.resolvedType instanceof protobuf.Type) {
    return (message, out) => {
      const v = message[pbName];
      if (v !== undefined && v !== null) out[tsName] = fromPb(v);
    };
  }
  return (message, out) => {
    const v = message[pbName];
    out[tsName] = v === undefined || v === null ? defaultValue() : fromPb(v);
  };
}

interface CompiledType {
  readonly converters: readonly FieldConverter[];
  readonly decoders: readonly FieldDecoder[];
}

const compiled = new WeakMap<protobuf.Type, CompiledType>();

function compiledOf(type: protobuf.Type): CompiledType {
  let c = compiled.get(type);
  if (c === undefined) {
    const fields = type.fieldsArray;
    const converters = fields.map(compileField);
    c = { converters, decoders: fields.map((field, i) => fieldDecoder(field, converters[i] as FieldConverter)) };
    compiled.set(type, c);
  }
  return c;
}

/** Our shape (possibly partial) → a plain object protobufjs `Type.encode` accepts. Unknown properties are ignored. */
export function toPbMessage(type: protobuf.Type, value: Plain): Plain {
  const out: Plain = {};
  for (const f of compiledOf(type).converters) {
    const v = value[f.tsName];
    if (v === undefined || v === null || !f.shouldWrite(v)) continue;
    out[f.pbName] = f.toPb(v);
  }
  return out;
}

/** A decoded protobufjs message → our shape, with defaults filled in and absent messages left out. */
export function fromPbMessage(type: protobuf.Type, message: Plain): Plain {
  const out: Plain = {};
  const decoders = compiledOf(type).decoders;
  for (let i = 0; i < decoders.length; i++) (decoders[i] as FieldDecoder)(message, out);
  return out;
}

/*
 * Direct encoder: our shape → wire bytes in two passes (sizes, then one allocation and the writes), without the
 * intermediate protobufjs object or its Writer. It writes exactly what `type.encode(toPbMessage(type, value))`
 * writes: fields by number, the same skipped defaults, map entries in the order of a plain object's keys. Types
 * using a field kind it does not implement (none in our protos today) fall back to protobufjs.
 */

const enum Kind {
  Message,
  Int32,
  Uint32,
  Bool,
  String,
  Bytes,
  Long,
}

const enum Mode {
  /** Not written when an implicit default. */
  Implicit,
  /** Oneof members and message fields: written whenever not null/undefined. */
  Present,
  Repeated,
  /** map<string, bytes>. */
  Map,
}

interface EncField {
  readonly tsName: string;
  readonly kind: Kind;
  readonly mode: Mode;
  /** The field's key (number << 3 | wire type) and its varint length. */
  readonly tag: number;
  readonly tagLength: number;
  /** For Kind.Message: the nested type's encoder (filled after creation, so recursive types work). */
  message: EncType | undefined;
}

interface EncType {
  fields: readonly EncField[];
}

/** Encoding state: nested message and string sizes of the size pass, read back in the same order by the write pass. */
interface EncState {
  readonly sizes: number[];
  index: number;
  buf: Buffer;
  pos: number;
}

const MAX_DEPTH: number = (protobuf.util as unknown as { recursionLimit?: number }).recursionLimit ?? 100;

function varintLength(value: number): number {
  return value < 128 ? 1 : value < 16384 ? 2 : value < 2097152 ? 3 : value < 268435456 ? 4 : 5;
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

/** protobufjs LongBits.fromNumber: the 64-bit two's complement of a number, as [lo, hi]. */
function longBitsOfNumber(value: number): [number, number] {
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
  return [lo, hi];
}

function longBitsOf(value: unknown): [number, number] {
  const bits = BigInt.asUintN(64, BigInt(value as bigint | number));
  return [Number(bits & 0xffffffffn), Number(bits >> 32n)];
}

function writeVarint32(st: EncState, value: number): void {
  const buf = st.buf;
  let pos = st.pos;
  while (value > 127) {
    buf[pos++] = (value & 127) | 128;
    value >>>= 7;
  }
  buf[pos++] = value;
  st.pos = pos;
}

function writeVarint64(st: EncState, lo: number, hi: number): void {
  const buf = st.buf;
  let pos = st.pos;
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
  st.pos = pos;
}

/** Whether a non-oneof scalar is skipped (toPbMessage's implicit defaults, then protobufjs's own checks). */
function skipsImplicit(kind: Kind, v: unknown): boolean {
  if (isImplicitDefault(v)) return true;
  switch (kind) {
    case Kind.Bytes:
      return !(v as ArrayLike<number>).length;
    case Kind.Long: {
      const [lo, hi] = longBitsOf(v);
      return lo === 0 && hi === 0;
    }
    case Kind.Bool:
      return v === false;
    case Kind.String:
      return v === "";
    default:
      return v === 0;
  }
}

/** Size of one scalar value (without its tag); strings push their byte length. */
function scalarSize(kind: Kind, v: unknown, st: EncState): number {
  switch (kind) {
    case Kind.String: {
      const n = Buffer.byteLength(v as string, "utf8");
      st.sizes.push(n);
      return varintLength(n) + n;
    }
    case Kind.Bytes: {
      const n = (v as ArrayLike<number>).length;
      return varintLength(n) + n;
    }
    case Kind.Uint32:
      return varintLength((v as number) >>> 0);
    case Kind.Int32:
      return (v as number) < 0 ? 10 : varintLength((v as number) >>> 0);
    case Kind.Bool:
      return 1;
    default: {
      const [lo, hi] = longBitsOf(v);
      return varint64Length(lo, hi);
    }
  }
}

function writeScalar(kind: Kind, v: unknown, st: EncState): void {
  switch (kind) {
    case Kind.String: {
      const s = v as string;
      const n = st.sizes[st.index++] as number;
      writeVarint32(st, n);
      if (n === s.length && n < 64) {
        const buf = st.buf;
        let pos = st.pos;
        for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i);
        st.pos = pos;
      } else if (n > 0) {
        st.buf.write(s, st.pos, n, "utf8");
        st.pos += n;
      }
      return;
    }
    case Kind.Bytes: {
      const b = v as ArrayLike<number>;
      const n = b.length;
      writeVarint32(st, n);
      if (n < 40) {
        const buf = st.buf;
        let pos = st.pos;
        for (let i = 0; i < n; i++) buf[pos++] = b[i] as number;
        st.pos = pos;
      } else {
        st.buf.set(b, st.pos);
        st.pos += n;
      }
      return;
    }
    case Kind.Uint32:
      writeVarint32(st, (v as number) >>> 0);
      return;
    case Kind.Int32:
      if ((v as number) < 0) {
        const [lo, hi] = longBitsOfNumber(v as number);
        writeVarint64(st, lo, hi);
      } else writeVarint32(st, (v as number) >>> 0);
      return;
    case Kind.Bool:
      st.buf[st.pos++] = v ? 1 : 0;
      return;
    default: {
      const [lo, hi] = longBitsOf(v);
      writeVarint64(st, lo, hi);
    }
  }
}

/** The map's entries as protobufjs sees them: the keys of a plain object built in insertion order. */
function mapEntries(value: ReadonlyMap<unknown, unknown>): Plain {
  const out = Object.create(null) as Plain;
  for (const [k, v] of value) out[k as string] = v;
  return out;
}

function messageSize(type: EncType, value: Plain, st: EncState, depth: number): number {
  if (depth > MAX_DEPTH) throw Error("max depth exceeded");
  let size = 0;
  for (const f of type.fields) {
    const v = value[f.tsName];
    if (v === undefined || v === null) continue;
    switch (f.mode) {
      case Mode.Implicit:
        if (skipsImplicit(f.kind, v)) continue;
        break;
      case Mode.Repeated:
        if ((v as readonly unknown[]).length === 0) continue;
        for (const e of v as readonly unknown[]) size += f.tagLength + valueSize(f, e, st, depth);
        continue;
      case Mode.Map: {
        if ((v as ReadonlyMap<unknown, unknown>).size === 0) continue;
        const entries = mapEntries(v as ReadonlyMap<unknown, unknown>);
        for (const k of Object.keys(entries)) {
          const n = 1 + scalarSize(Kind.String, k, st) + 1 + scalarSize(Kind.Bytes, entries[k], st);
          size += f.tagLength + varintLength(n) + n;
        }
        continue;
      }
      default:
        break;
    }
    size += f.tagLength + valueSize(f, v, st, depth);
  }
  return size;
}

/** Size of one value of field `f` (length-prefixed for messages), without the tag. */
function valueSize(f: EncField, v: unknown, st: EncState, depth: number): number {
  if (f.kind !== Kind.Message) return scalarSize(f.kind, v, st);
  const slot = st.sizes.length;
  st.sizes.push(0);
  const n = messageSize(f.message as EncType, v as Plain, st, depth + 1);
  st.sizes[slot] = n;
  return varintLength(n) + n;
}

function writeMessage(type: EncType, value: Plain, st: EncState): void {
  for (const f of type.fields) {
    const v = value[f.tsName];
    if (v === undefined || v === null) continue;
    switch (f.mode) {
      case Mode.Implicit:
        if (skipsImplicit(f.kind, v)) continue;
        break;
      case Mode.Repeated:
        if ((v as readonly unknown[]).length === 0) continue;
        for (const e of v as readonly unknown[]) {
          writeVarint32(st, f.tag);
          writeValue(f, e, st);
        }
        continue;
      case Mode.Map: {
        if ((v as ReadonlyMap<unknown, unknown>).size === 0) continue;
        const entries = mapEntries(v as ReadonlyMap<unknown, unknown>);
        for (const k of Object.keys(entries)) {
          const keyLength = st.sizes[st.index] as number;
          const b = entries[k] as ArrayLike<number>;
          writeVarint32(st, f.tag);
          writeVarint32(st, 1 + varintLength(keyLength) + keyLength + 1 + varintLength(b.length) + b.length);
          st.buf[st.pos++] = 10;
          writeScalar(Kind.String, k, st);
          st.buf[st.pos++] = 18;
          writeScalar(Kind.Bytes, b, st);
        }
        continue;
      }
      default:
        break;
    }
    writeVarint32(st, f.tag);
    writeValue(f, v, st);
  }
}

function writeValue(f: EncField, v: unknown, st: EncState): void {
  if (f.kind !== Kind.Message) {
    writeScalar(f.kind, v, st);
    return;
  }
  writeVarint32(st, st.sizes[st.index++] as number);
  writeMessage(f.message as EncType, v as Plain, st);
}

function kindOf(field: protobuf.Field): Kind | undefined {
  if (field.resolvedType instanceof protobuf.Type) return Kind.Message;
  if (field.resolvedType instanceof protobuf.Enum) return Kind.Int32;
  switch (field.type) {
    case "int32":
      return Kind.Int32;
    case "uint32":
      return Kind.Uint32;
    case "bool":
      return Kind.Bool;
    case "string":
      return Kind.String;
    case "bytes":
      return Kind.Bytes;
    case "int64":
    case "uint64":
      return Kind.Long;
    default:
      return undefined;
  }
}

const encoders = new WeakMap<protobuf.Type, EncType | null>();

/** The direct encoder of a Type, or null when it (or a nested Type) uses a field kind not implemented here. */
function encoderOf(type: protobuf.Type): EncType | null {
  const known = encoders.get(type);
  if (known !== undefined) return known;
  const enc: EncType = { fields: [] };
  encoders.set(type, enc); // recursive types find it while it is being compiled
  const fields: EncField[] = [];
  for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
    field.resolve();
    const kind = kindOf(field);
    const supported =
      kind !== undefined &&
      !field.delimited &&
      (!field.map || ((field as unknown as protobuf.MapField).keyType === "string" && kind === Kind.Bytes)) &&
      (!field.repeated || kind === Kind.Message || kind === Kind.String || kind === Kind.Bytes);
    if (!supported) {
      encoders.set(type, null);
      return null;
    }
    const wireType = kind === Kind.Message || kind === Kind.String || kind === Kind.Bytes || field.map ? 2 : 0;
    const tag = ((field.id << 3) | wireType) >>> 0;
    const mode = field.map
      ? Mode.Map
      : field.repeated
        ? Mode.Repeated
        : field.partOf !== null || kind === Kind.Message
          ? Mode.Present
          : Mode.Implicit;
    const encField: EncField = {
      tsName: tsNameOf(field.name),
      kind,
      mode,
      tag,
      tagLength: varintLength(tag),
      message: undefined,
    };
    if (kind === Kind.Message) {
      const nested = encoderOf(field.resolvedType as protobuf.Type);
      if (nested === null) {
        encoders.set(type, null);
        return null;
      }
      encField.message = nested;
    }
    fields.push(encField);
  }
  enc.fields = fields;
  return enc;
}

/**
 * Encodes our shape (possibly partial) of `type` to wire bytes: the same bytes as
 * `type.encode(toPbMessage(type, value)).finish()`, as a plain Uint8Array.
 */
export function encodeMessage(type: protobuf.Type, value: Plain): Uint8Array {
  const enc = encoderOf(type);
  if (enc === null) {
    const bytes = type.encode(toPbMessage(type, value)).finish();
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  const st: EncState = { sizes: [], index: 0, buf: EMPTY_BUFFER, pos: 0 };
  const size = messageSize(enc, value, st, 0);
  st.buf = Buffer.allocUnsafe(size);
  writeMessage(enc, value, st);
  if (st.pos !== size) throw new Error(`encodeMessage: wrote ${st.pos} of ${size} bytes`);
  return new Uint8Array(st.buf.buffer, st.buf.byteOffset, size);
}

const EMPTY_BUFFER = Buffer.alloc(0);
