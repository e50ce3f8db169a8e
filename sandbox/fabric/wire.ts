/**
 * The sandbox's own protobuf codec over the shared wire schemas (provider/ledger/protos, loaded with protobufjs 8,
 * never the 7.x copy under @grpc/proto-loader: 7.x writes explicit proto3 defaults and breaks byte equality).
 * Only the .proto files are shared with the client library; the encode/decode logic here is independent.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as protobuf from "protobufjs";
import type { MessageInput, MessageName, Messages } from "./messages";

/** The schema files loaded, relative to the protos directory (imports resolve against the same directory). */
export const SANDBOX_PROTO_FILES: readonly string[] = [
  "common/common.proto",
  "msp/identities.proto",
  "peer/chaincode.proto",
  "peer/chaincode_event.proto",
  "peer/proposal.proto",
  "peer/proposal_response.proto",
  "peer/transaction.proto",
  "peer/lifecycle/lifecycle.proto",
  "ledger/rwset/rwset.proto",
  "ledger/rwset/kvrwset/kv_rwset.proto",
  "orderer/ab.proto",
  "gateway/gateway.proto",
  "google/rpc/status.proto",
];

/** A message that does not parse as the named type. */
export class WireDecodeError extends Error {
  readonly messageType: string;

  constructor(properties: Readonly<{ messageType: string; reason: string }>) {
    super(`cannot decode ${properties.messageType}: ${properties.reason}`);
    this.name = "WireDecodeError";
    this.messageType = properties.messageType;
  }
}

/** The protos directory, searched upward from `startDir` (works from sandbox/fabric and dist/sandbox/fabric). */
export function findProtosDirectory(startDir: string = __dirname): string {
  for (let dir = path.resolve(startDir); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "provider", "ledger", "protos");
    if (fs.existsSync(path.join(candidate, "common", "common.proto"))) return candidate;
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`sandbox/fabric: provider/ledger/protos not found above ${startDir}`);
}

let root: protobuf.Root | undefined;
const types = new Map<string, protobuf.Type>();

function loadRoot(): protobuf.Root {
  if (root !== undefined) return root;
  const dir = findProtosDirectory();
  const loaded = new protobuf.Root();
  loaded.resolvePath = (_origin: string, target: string): string =>
    path.isAbsolute(target) ? target : path.join(dir, target);
  loaded.loadSync(SANDBOX_PROTO_FILES.map((f) => path.join(dir, f)));
  loaded.resolveAll();
  root = loaded;
  return loaded;
}

function typeOf(name: string): protobuf.Type {
  let type = types.get(name);
  if (type === undefined) {
    type = loadRoot().lookupType(name);
    types.set(name, type);
  }
  return type;
}

const TO_OBJECT: protobuf.IConversionOptions = { longs: BigInt, defaults: true, arrays: true, objects: true };

function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Decodes `bytes` as the named message; throws WireDecodeError when they do not parse. */
export function decode<K extends MessageName>(name: K, bytes: Uint8Array): Messages[K] {
  const type = typeOf(name);
  try {
    return type.toObject(type.decode(asBuffer(bytes)), TO_OBJECT) as Messages[K];
  } catch (err) {
    throw new WireDecodeError({ messageType: name, reason: err instanceof Error ? err.message : String(err) });
  }
}

/** Like decode(), but undefined instead of an error. */
export function tryDecode<K extends MessageName>(name: K, bytes: Uint8Array): Messages[K] | undefined {
  try {
    return decode(name, bytes);
  } catch {
    return undefined;
  }
}

/** Encodes a message; proto3 defaults are omitted, fields in ascending number order (as Go and google-protobuf). */
export function encode<K extends MessageName>(name: K, value: MessageInput<Messages[K]>): Buffer {
  const type = typeOf(name);
  return asBuffer(type.encode(type.fromObject(value)).finish());
}

function varint(value: number): Buffer {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
  return Buffer.from(out);
}

/**
 * One length-delimited field holding already-serialized bytes, for embedding a message verbatim (for example the
 * stored Envelope inside a ProcessedTransaction) instead of re-encoding it.
 */
export function lengthDelimitedField(fieldNumber: number, bytes: Uint8Array): Buffer {
  return Buffer.concat([varint(fieldNumber * 8 + 2), varint(bytes.length), bytes]);
}

/** One varint field (omitted when zero, as proto3 does). */
export function varintField(fieldNumber: number, value: number): Buffer {
  return value === 0 ? Buffer.alloc(0) : Buffer.concat([varint(fieldNumber * 8), varint(value)]);
}

/**
 * The raw bytes of the first length-delimited field `fieldNumber` of a serialized message, or undefined when
 * absent: for keeping an embedded message (such as SubmitRequest.prepared_transaction) exactly as the client sent it.
 */
export function rawField(message: Uint8Array, fieldNumber: number): Buffer | undefined {
  const reader = protobuf.Reader.create(asBuffer(message));
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (tag >>> 3 === fieldNumber && (tag & 7) === 2) return Buffer.from(reader.bytes());
    reader.skipType(tag & 7);
  }
  return undefined;
}
