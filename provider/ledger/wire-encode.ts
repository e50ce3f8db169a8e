/**
 * Our shape (possibly partial) → protobuf wire bytes, in two passes: sizes first, then one allocation and the
 * writes. Each message type gets its own size and write functions, generated once from the compiled layout
 * (wire-schema.ts), so property names are constants (as in protobufjs and google-protobuf generated code); the
 * generated code only calls the helpers of wire-encode-runtime.ts. It writes what Go and google-protobuf write for the same
 * message: fields by number, proto3 implicit defaults (0, "", false, empty bytes, 0n) left out outside oneofs,
 * map entries in the key order of a plain object built from the Map (integer-like keys first, as protobufjs does).
 *
 * Allocation: results up to SLAB_MAX_MESSAGE bytes are carved from a shared SLAB_SIZE slab (the technique of
 * protobufjs's own writer pool and Node's Buffer pool, with a larger slab): one backing store per slab instead of
 * one per message, which is most of the cost of encoding a few kilobytes. Every result is a plain Uint8Array view
 * covering exactly its own bytes; like any pooled Buffer, its `.buffer` is the shared slab (zero-filled when made, so
 * it holds only other encoded messages, never stale memory).
 */
import { type EncState, type Plain, runtime } from "./wire-encode-runtime";
import { compileGenerated, Kind, Mode, NestedSlots, type WireField, type WireMessage } from "./wire-schema";

/** Shared slab size, and the largest result carved from it (larger results get their own allocation). */
export const SLAB_SIZE = 64 * 1024;
export const SLAB_MAX_MESSAGE = 8 * 1024;

let slabView = new Uint8Array(SLAB_SIZE);
let slab = Buffer.from(slabView.buffer, 0, SLAB_SIZE);
let slabOffset = 0;

type SizeFn = (m: Plain, st: EncState, depth: number) => number;
type WriteFn = (m: Plain, buf: Buffer, pos: number, st: EncState) => number;

interface Encoder {
  readonly size: SizeFn;
  readonly write: WriteFn;
}

/** One reusable state (encoding is synchronous); a re-entrant call (a getter that encodes) gets its own. */
const shared: EncState = { sizes: [], count: 0, index: 0 };
let sharedBusy = false;

/** `m["name"]`: property names come from our .proto files, quoted as JSON string literals. */
function prop(name: string): string {
  return `m[${JSON.stringify(name)}]`;
}

/** The condition under which a present value `v` of field `f` is written (proto3 implicit defaults are not). */
function writtenIf(f: WireField): string {
  if (f.mode === Mode.Map) return "v != null && v.size !== 0";
  if (f.mode !== Mode.Implicit) return "v != null";
  switch (f.kind) {
    case Kind.Bytes:
      return "v != null && v.length !== 0";
    case Kind.String:
      return 'v != null && v !== ""';
    case Kind.Bool:
      return "v != null && v !== false";
    case Kind.Int64:
    case Kind.Uint64:
      return "v != null && !rt.isZero64(v)";
    default:
      return "v != null && v !== 0";
  }
}

/** Size of one scalar value `e` (without its tag). */
function scalarSizeOf(kind: Kind, e: string): string {
  switch (kind) {
    case Kind.Bytes:
      return `rt.bytesSize(${e})`;
    case Kind.String:
      return `rt.stringSize(${e}, st)`;
    case Kind.Bool:
      return "1";
    case Kind.Int32:
      return `rt.int32Size(${e})`;
    case Kind.Uint32:
      return `rt.vlen(${e} >>> 0)`;
    default:
      return `rt.size64(${e})`;
  }
}

function scalarWriteOf(kind: Kind, e: string): string {
  switch (kind) {
    case Kind.Bytes:
      return `pos = rt.writeBytes(buf, pos, ${e});`;
    case Kind.String:
      return `pos = rt.writeString(buf, pos, ${e}, st.sizes[st.index++]);`;
    case Kind.Bool:
      return `buf[pos++] = ${e} ? 1 : 0;`;
    case Kind.Int32:
      return `pos = rt.writeInt32(buf, pos, ${e});`;
    case Kind.Uint32:
      return `pos = rt.wv(buf, pos, ${e} >>> 0);`;
    default:
      return `pos = rt.write64(buf, pos, ${e});`;
  }
}

/** Statements adding the size of one value `e` of field `f`, with its tag, to `s`. */
function valueSizeOf(f: WireField, nested: number, e: string): string {
  if (f.kind !== Kind.Message) return `s += ${f.tagLength} + ${scalarSizeOf(f.kind, e)};`;
  return (
    `slot = st.count++; st.sizes[slot] = 0; n = S[${nested}](${e}, st, depth + 1); st.sizes[slot] = n; ` +
    `s += ${f.tagLength} + rt.vlen(n) + n;`
  );
}

/** Statements writing one value `e` of field `f` with its tag. */
function valueWriteOf(f: WireField, nested: number, e: string): string {
  const tagBytes: number[] = [];
  for (let t = f.tag; ; t >>>= 7) {
    if (t < 128) {
      tagBytes.push(t);
      break;
    }
    tagBytes.push((t & 127) | 128);
  }
  const tag = tagBytes.map((b) => `buf[pos++] = ${b};`).join(" ");
  if (f.kind !== Kind.Message) return `${tag} ${scalarWriteOf(f.kind, e)}`;
  return `${tag} n = st.sizes[st.index++]; pos = rt.wv(buf, pos, n); pos = W[${nested}](${e}, buf, pos, st);`;
}

function encoderSources(layout: WireMessage, nestedIndex: (f: WireField) => number): { size: string; write: string } {
  const sizes: string[] = [];
  const writes: string[] = [];
  for (const f of layout.fields) {
    const nested = f.kind === Kind.Message ? nestedIndex(f) : -1;
    const head = `v = ${prop(f.tsName)}; if (${writtenIf(f)}) `;
    if (f.mode === Mode.Map) {
      sizes.push(`${head}s += rt.mapSize(v, ${f.tagLength}, st);`);
      writes.push(`${head}pos = rt.writeMap(v, ${f.tag}, buf, pos, st);`);
    } else if (f.mode === Mode.Repeated) {
      sizes.push(`${head}for (let i = 0; i < v.length; i++) { ${valueSizeOf(f, nested, "v[i]")} }`);
      writes.push(`${head}for (let i = 0; i < v.length; i++) { ${valueWriteOf(f, nested, "v[i]")} }`);
    } else {
      sizes.push(`${head}{ ${valueSizeOf(f, nested, "v")} }`);
      writes.push(`${head}{ ${valueWriteOf(f, nested, "v")} }`);
    }
  }
  return {
    size: `return function size(m, st, depth) {
  if (depth > rt.MAX_DEPTH) throw rt.tooDeep();
  let s = 0, v, n, slot;
  ${sizes.join("\n  ")}
  return s;
};`,
    write: `return function write(m, buf, pos, st) {
  let v, n;
  ${writes.join("\n  ")}
  return pos;
};`,
  };
}

const encoders = new WeakMap<WireMessage, Encoder>();

/** The generated size and write functions of a layout (and of every message type it contains), compiled once. */
function encoderOf(layout: WireMessage): Encoder {
  const known = encoders.get(layout);
  if (known !== undefined) return known;
  const slots = new NestedSlots();
  const sources = encoderSources(layout, (f) => slots.slotOf(f));
  const S: SizeFn[] = [];
  const W: WriteFn[] = [];
  const encoder: Encoder = {
    size: compileGenerated(["rt", "S"], sources.size, [runtime, S]) as SizeFn,
    write: compileGenerated(["rt", "W"], sources.write, [runtime, W]) as WriteFn,
  };
  encoders.set(layout, encoder); // before the nested ones, so recursive types find it
  for (const n of slots.layouts) {
    const e = encoderOf(n);
    S.push(e.size);
    W.push(e.write);
  }
  return encoder;
}

/** Where a result goes (set by place): the Buffer to write and the start offset in it. */
let placedBuf: Buffer = slab;
let placedStart = 0;

/** Reserves `size` bytes: a slice of the slab, or its own memory when larger than SLAB_MAX_MESSAGE. */
function place(size: number): Uint8Array {
  if (size > SLAB_MAX_MESSAGE) {
    const own = new Uint8Array(size);
    placedBuf = Buffer.from(own.buffer, 0, size);
    placedStart = 0;
    return own;
  }
  if (slabOffset + size > SLAB_SIZE) {
    // Zero-filled, so a slab never exposes stale process memory through `.buffer`; only other encoded messages.
    slabView = new Uint8Array(SLAB_SIZE);
    slab = Buffer.from(slabView.buffer, 0, SLAB_SIZE);
    slabOffset = 0;
  }
  placedBuf = slab;
  placedStart = slabOffset;
  slabOffset = (placedStart + size + 7) & ~7; // keep slices 8-byte aligned
  return slabView.subarray(placedStart, placedStart + size);
}

/** The encoder of a layout's messages: our shape (possibly partial) → wire bytes, as a plain Uint8Array. */
export function wireEncoder(layout: WireMessage): (value: Plain) => Uint8Array {
  const encoder = encoderOf(layout);
  return (value) => {
    const reentrant = sharedBusy;
    const st: EncState = reentrant ? { sizes: [], count: 0, index: 0 } : shared;
    sharedBusy = true;
    try {
      st.count = 0;
      st.index = 0;
      const size = encoder.size(value, st, 0);
      const out = place(size);
      const start = placedStart;
      const end = encoder.write(value, placedBuf, start, st);
      if (end - start !== size) throw new Error(`wireEncoder: wrote ${end - start} of ${size} bytes`);
      return out;
    } finally {
      if (!reentrant) sharedBusy = false;
    }
  };
}

/** Encodes our shape of a message of `layout` (wireEncoder, once). */
export function encodeWireMessage(layout: WireMessage, value: Plain): Uint8Array {
  return wireEncoder(layout)(value);
}
