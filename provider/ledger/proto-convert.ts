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

function bytesFromPb(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? new Uint8Array(value) : new Uint8Array(0);
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

const compiled = new WeakMap<protobuf.Type, readonly FieldConverter[]>();

function convertersOf(type: protobuf.Type): readonly FieldConverter[] {
  let fields = compiled.get(type);
  if (fields === undefined) {
    fields = type.fieldsArray.map(compileField);
    compiled.set(type, fields);
  }
  return fields;
}

/** Our shape (possibly partial) → a plain object protobufjs `Type.encode` accepts. Unknown properties are ignored. */
export function toPbMessage(type: protobuf.Type, value: Plain): Plain {
  const out: Plain = {};
  for (const f of convertersOf(type)) {
    const v = value[f.tsName];
    if (v === undefined || v === null || !f.shouldWrite(v)) continue;
    out[f.pbName] = f.toPb(v);
  }
  return out;
}

/** A decoded protobufjs message → our shape, with defaults filled in and absent messages left out. */
export function fromPbMessage(type: protobuf.Type, message: Plain): Plain {
  const out: Plain = {};
  for (const f of convertersOf(type)) {
    if (!f.isPresent(message)) continue;
    const v = message[f.pbName];
    if (v === undefined || v === null) {
      const d = f.defaultValue();
      if (d !== undefined) out[f.tsName] = d;
      continue;
    }
    out[f.tsName] = f.fromPb(v);
  }
  return out;
}
