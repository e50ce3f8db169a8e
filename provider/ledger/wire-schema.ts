/**
 * The wire layout of a protobuf message in our shapes (messages.ts conventions), compiled once per protobufjs Type
 * from the reflection of proto-root.ts: each field's property name, value kind, presence rule, tag and wire type.
 * wire-encode.ts and wire-decode.ts read and write protobuf bytes straight from and into our shapes with it, with
 * no intermediate protobufjs message.
 *
 * Only the field kinds our .proto files use are implemented; a Type using another kind (double, fixed32, sint64,
 * groups, packed repeated scalars, maps other than map<string, bytes>) is refused when it is compiled, with the type
 * and field named, so a new .proto cannot silently be mis-encoded.
 */
import * as protobuf from "protobufjs";

export const enum Kind {
  Message,
  Int32,
  Uint32,
  Bool,
  String,
  Bytes,
  Int64,
  Uint64,
}

export const enum Mode {
  /** proto3 implicit presence: not written when the default; decoded absent = the default. */
  Implicit,
  /** Oneof members and message fields: written whenever set; decoded absent = property left out. */
  Present,
  Repeated,
  /** map<string, bytes>. */
  Map,
}

export interface WireField {
  /** Our property name: camelCase with a lower-case first letter ("TransientMap" → "transientMap"). */
  readonly tsName: string;
  readonly number: number;
  readonly kind: Kind;
  readonly mode: Mode;
  /** 0 (varint) or 2 (length-delimited). */
  readonly wireType: number;
  /** The field's key (number << 3 | wire type) and its varint length. */
  readonly tag: number;
  readonly tagLength: number;
  /** For oneof members: the property names of the other members of the same oneof (cleared when this one is read). */
  readonly oneofSiblings: readonly string[] | undefined;
  /** For Kind.Message: the nested layout (filled after creation, so recursive types work). */
  message: WireMessage | undefined;
}

export interface WireMessage {
  readonly typeName: string;
  /** Fields in field-number order (the order they are written). */
  fields: readonly WireField[];
  /** Fields by number, for the decoder (holes are undefined). */
  byNumber: readonly (WireField | undefined)[];
  /** Fields a decoded message always has (implicit scalars, repeated, maps), in declaration order. */
  defaults: readonly WireField[];
}

/** protobufjs's recursion limit, which our decoder and encoder also enforce. */
export const MAX_DEPTH: number = (protobuf.util as unknown as { recursionLimit?: number }).recursionLimit ?? 100;

/** Our property name: camelCase (bundled google/protobuf definitions keep snake_case), lower-case first letter. */
export function tsNameOf(name: string): string {
  // Same rule as the protobufjs parser (which already camel-cases our .proto files): "type_url" → "typeUrl".
  const camel = name.replace(/_([a-z])(?=[a-z]|$)/g, (_match, letter: string) => letter.toUpperCase());
  return camel.charAt(0).toLowerCase() + camel.slice(1);
}

export function varintLength(value: number): number {
  return value < 128 ? 1 : value < 16384 ? 2 : value < 2097152 ? 3 : value < 268435456 ? 4 : 5;
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
      return Kind.Int64;
    case "uint64":
      return Kind.Uint64;
    default:
      return undefined;
  }
}

function unsupported(type: protobuf.Type, field: protobuf.Field): Error {
  const shape = field.map ? `map<${(field as unknown as protobuf.MapField).keyType}, ${field.type}>` : field.type;
  return new Error(
    `wire-schema: ${type.fullName.replace(/^\./, "")}.${field.name} (${field.repeated ? "repeated " : ""}${shape}) ` +
      "uses a field kind provider/ledger/wire-schema.ts does not implement; add it there with a byte-equality test",
  );
}

const compiled = new WeakMap<protobuf.Type, WireMessage>();

/** The compiled layout of `type` (and, recursively, of every message type it refers to). */
export function wireMessageOf(type: protobuf.Type): WireMessage {
  const known = compiled.get(type);
  if (known !== undefined) return known;
  const layout: WireMessage = { typeName: type.fullName.replace(/^\./, ""), fields: [], byNumber: [], defaults: [] };
  compiled.set(type, layout); // recursive types find it while it is being compiled
  try {
    const fields = type.fieldsArray.map((field) => compileField(type, field));
    layout.fields = [...fields].sort((a, b) => a.number - b.number);
    const byNumber: (WireField | undefined)[] = [];
    for (const f of fields) byNumber[f.number] = f;
    layout.byNumber = Array.from(byNumber); // dense: holes become undefined
    layout.defaults = fields.filter((f) => f.mode === Mode.Implicit || f.mode === Mode.Repeated || f.mode === Mode.Map);
  } catch (error) {
    compiled.delete(type);
    throw error;
  }
  return layout;
}

function compileField(type: protobuf.Type, field: protobuf.Field): WireField {
  field.resolve();
  const kind = kindOf(field);
  const supported =
    kind !== undefined &&
    !field.delimited &&
    (!field.map || ((field as unknown as protobuf.MapField).keyType === "string" && kind === Kind.Bytes)) &&
    (!field.repeated || kind === Kind.Message || kind === Kind.String || kind === Kind.Bytes);
  if (!supported) throw unsupported(type, field);
  const wireType = kind === Kind.Message || kind === Kind.String || kind === Kind.Bytes || field.map ? 2 : 0;
  const tag = ((field.id << 3) | wireType) >>> 0;
  const oneof = field.partOf;
  const mode = field.map
    ? Mode.Map
    : field.repeated
      ? Mode.Repeated
      : oneof !== null || kind === Kind.Message
        ? Mode.Present
        : Mode.Implicit;
  const wireField: WireField = {
    tsName: tsNameOf(field.name),
    number: field.id,
    kind,
    mode,
    wireType,
    tag,
    tagLength: varintLength(tag),
    oneofSiblings:
      oneof === null || field.map || field.repeated
        ? undefined
        : oneof.fieldsArray.filter((member) => member !== field).map((member) => tsNameOf(member.name)),
    message: undefined,
  };
  if (kind === Kind.Message) wireField.message = wireMessageOf(field.resolvedType as protobuf.Type);
  return wireField;
}

/** The nested message layouts a generated function calls (its N[i], S[i] or W[i]), each numbered once. */
export class NestedSlots {
  readonly layouts: WireMessage[] = [];

  /** The slot of field `f`'s message layout (a Kind.Message field). */
  slotOf(f: WireField): number {
    const layout = f.message as WireMessage;
    const at = this.layouts.indexOf(layout);
    return at >= 0 ? at : this.layouts.push(layout) - 1;
  }
}

/**
 * Compiles generated code: `source` is the body of a factory taking `names` and returning the generated function,
 * called with `values`. Sources are built by wire-decode.ts and wire-encode.ts from compiled layouts (field numbers
 * and JSON-quoted property names from our .proto files), never from input.
 */
export function compileGenerated(names: readonly string[], source: string, values: readonly unknown[]): unknown {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function(...names, source) as (...args: readonly unknown[]) => unknown;
  return factory(...values);
}
