/**
 * Mutations for the fuzz loop: byte-level ones (as libFuzzer's: bit flips, interesting bytes, inserts, erases,
 * copies, splices with another corpus entry) and protobuf-aware ones that parse the input as wire-format fields and
 * mutate one field at any depth (a length-delimited field's contents recursively, then every enclosing length is
 * rewritten), delete, duplicate or re-tag a field, or give a varint an edge value. Fabric messages nest bytes
 * fields holding messages six levels deep (Envelope → Payload → Transaction → ...): byte flips alone rarely get past
 * the outer length prefixes.
 */
type Random = () => number;

export interface Mutator {
  mutate(input: Uint8Array, corpus: readonly Uint8Array[]): Uint8Array;
}

interface Field {
  readonly start: number;
  readonly tagEnd: number;
  readonly wireType: number;
  readonly valueStart: number;
  readonly end: number;
}

const INTERESTING_BYTES = [0, 1, 2, 0x7f, 0x80, 0xff, 0x08, 0x0a, 0x12, 0x1a, 0x22];
const EDGE_VARINTS: readonly bigint[] = [
  0n,
  1n,
  127n,
  128n,
  255n,
  2n ** 31n - 1n,
  2n ** 31n,
  2n ** 32n - 1n,
  2n ** 63n,
  2n ** 64n - 1n,
];
/** How deep the protobuf-aware mutations look: a KVWrite sits 12 levels under the Envelope. */
const MAX_DEPTH = 24;

function varint(value: bigint): Uint8Array {
  const out: number[] = [];
  let v = value;
  do {
    const b = Number(v & 127n);
    v >>= 7n;
    out.push(v > 0n ? b | 128 : b);
  } while (v > 0n);
  return Uint8Array.from(out);
}

function readVarint(buf: Uint8Array, pos: number, end: number): [bigint, number] | undefined {
  let value = 0n;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) return undefined;
    const b = buf[pos++] as number;
    value |= BigInt(b & 127) << BigInt(7 * i);
    if (b < 128) return [value, pos];
  }
  return undefined;
}

/** The fields of `buf` when all of it parses as protobuf wire format (no groups), else undefined. */
function parseFields(buf: Uint8Array): Field[] | undefined {
  const fields: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const start = pos;
    const tag = readVarint(buf, pos, buf.length);
    if (tag === undefined || tag[0] >> 3n === 0n) return undefined;
    const wireType = Number(tag[0] & 7n);
    pos = tag[1];
    const valueStart = pos;
    if (wireType === 0) {
      const v = readVarint(buf, pos, buf.length);
      if (v === undefined) return undefined;
      pos = v[1];
    } else if (wireType === 1) pos += 8;
    else if (wireType === 5) pos += 4;
    else if (wireType === 2) {
      const len = readVarint(buf, pos, buf.length);
      if (len === undefined) return undefined;
      pos = len[1] + Number(len[0]);
    } else return undefined;
    if (pos > buf.length) return undefined;
    fields.push({ start, tagEnd: valueStart, wireType, valueStart, end: pos });
  }
  return fields;
}

/** The value of a length-delimited field (after its length prefix). */
function valueOf(buf: Uint8Array, f: Field): Uint8Array {
  const len = readVarint(buf, f.valueStart, f.end) as [bigint, number];
  return buf.subarray(len[1], f.end);
}

/** The bytes (tag included) of the field at the end of `path`, walking down from `buf`. */
function fieldAt(buf: Uint8Array, path: readonly Field[]): Uint8Array {
  let within = buf;
  for (const [i, f] of path.entries())
    within = i === path.length - 1 ? within.subarray(f.start, f.end) : valueOf(within, f);
  return within;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** libFuzzer-style and protobuf-aware mutations with `random` (Math.random unless given). */
export function newMutator(maxLength: number, random: Random = Math.random): Mutator {
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)] as T;

  function bytes(input: Uint8Array, corpus: readonly Uint8Array[]): Uint8Array {
    const buf = input;
    const n = buf.length;
    switch (int(8)) {
      case 0: {
        if (n === 0) break;
        const out = buf.slice();
        const i = int(n);
        out[i] = (out[i] as number) ^ (1 << int(8));
        return out;
      }
      case 1: {
        if (n === 0) break;
        const out = buf.slice();
        out[int(n)] = random() < 0.5 ? pick(INTERESTING_BYTES) : int(256);
        return out;
      }
      case 2: {
        const at = int(n + 1);
        const extra = Uint8Array.from({ length: 1 + int(8) }, () =>
          random() < 0.5 ? pick(INTERESTING_BYTES) : int(256),
        );
        return concat(buf.subarray(0, at), extra, buf.subarray(at));
      }
      case 3: {
        if (n === 0) break;
        const at = int(n);
        return concat(buf.subarray(0, at), buf.subarray(Math.min(n, at + 1 + int(16))));
      }
      case 4: {
        if (n === 0) break;
        const from = int(n);
        const len = 1 + int(Math.min(64, n - from));
        const at = int(n + 1);
        return concat(buf.subarray(0, at), buf.subarray(from, from + len), buf.subarray(at));
      }
      case 5: {
        const other = corpus.length === 0 ? undefined : pick(corpus);
        if (other === undefined || other.length === 0) break;
        const from = int(other.length);
        const at = int(n + 1);
        return concat(
          buf.subarray(0, at),
          other.subarray(from, from + 1 + int(other.length - from)),
          buf.subarray(int(n + 1)),
        );
      }
      case 6:
        return buf.subarray(0, int(n + 1));
      default: {
        if (n === 0) break;
        const at = int(n);
        return concat(buf.subarray(0, at), varint(pick(EDGE_VARINTS)), buf.subarray(at + 1));
      }
    }
    return Uint8Array.from([int(256)]);
  }

  /** Every field of `buf` at every depth, as the path of fields leading to it (offsets within each parent's value). */
  function paths(buf: Uint8Array, depth: number, prefix: readonly Field[], out: Field[][]): void {
    const fields = parseFields(buf);
    if (fields === undefined) return;
    for (const f of fields) {
      const path = [...prefix, f];
      out.push(path);
      if (f.wireType === 2 && depth < MAX_DEPTH) paths(valueOf(buf, f), depth + 1, path, out);
    }
  }

  /** `buf` with the field at the end of `path` replaced by `replace(field bytes)`, every enclosing length rewritten. */
  function rewrite(
    buf: Uint8Array,
    path: readonly Field[],
    replace: (field: Uint8Array, f: Field) => Uint8Array,
  ): Uint8Array {
    const [f, ...rest] = path as [Field, ...Field[]];
    const before = buf.subarray(0, f.start);
    const after = buf.subarray(f.end);
    if (rest.length === 0) return concat(before, replace(buf.subarray(f.start, f.end), f), after);
    const inner = rewrite(valueOf(buf, f), rest, replace);
    return concat(before, buf.subarray(f.start, f.tagEnd), varint(BigInt(inner.length)), inner, after);
  }

  /** One field anywhere in the tree (every depth equally likely to be reached): its value, tag or presence changed. */
  function structured(buf: Uint8Array, corpus: readonly Uint8Array[]): Uint8Array {
    const all: Field[][] = [];
    paths(buf, 0, [], all);
    if (all.length === 0) return bytes(buf, corpus);
    const path = pick(all);
    return rewrite(buf, path, (field, f) => {
      const local = {
        ...f,
        start: 0,
        tagEnd: f.tagEnd - f.start,
        valueStart: f.valueStart - f.start,
        end: f.end - f.start,
      };
      const tag = field.subarray(0, local.tagEnd);
      switch (int(6)) {
        case 0:
          return new Uint8Array(0);
        case 1:
          return concat(field, field);
        case 2: {
          const t = readVarint(field, 0, local.tagEnd) as [bigint, number];
          const newTag = random() < 0.5 ? (t[0] & ~7n) | BigInt(int(8)) : (BigInt(1 + int(20)) << 3n) | (t[0] & 7n);
          return concat(varint(newTag), field.subarray(local.tagEnd));
        }
        case 3: {
          // A field of another input (or of this one) inserted next to this one: crossover at the field level.
          const other = corpus.length === 0 ? buf : pick(corpus);
          const theirs: Field[][] = [];
          paths(other, 0, [], theirs);
          const donor = theirs.length === 0 ? new Uint8Array(0) : fieldAt(other, pick(theirs));
          return random() < 0.5 ? concat(field, donor) : donor;
        }
        default: {
          if (f.wireType === 0) return concat(tag, varint(pick(EDGE_VARINTS)));
          if (f.wireType !== 2)
            return concat(tag, bytes(field.subarray(local.tagEnd), corpus).subarray(0, local.end - local.tagEnd));
          const value = bytes(valueOf(field, local), corpus);
          return concat(tag, varint(BigInt(value.length)), value);
        }
      }
    });
  }

  return {
    mutate(input, corpus) {
      let out = input;
      const rounds = 1 + int(3);
      for (let i = 0; i < rounds; i++) out = random() < 0.7 ? structured(out, corpus) : bytes(out, corpus);
      return out.length > maxLength ? out.subarray(0, maxLength) : out;
    },
  };
}
