/**
 * The protobufjs 8 Root for our Fabric-compatible .proto files, loaded once.
 *
 * The .proto files live in provider/ledger/protos and are not copied into dist/, so the directory is found by
 * walking up from this module's directory until `provider/ledger/protos` (or a sibling `protos`) exists: that works
 * from provider/ledger (ts-node style) and from dist/provider/ledger (compiled), and from an installed package
 * (package.json ships provider/ledger/protos).
 *
 * Only protobufjs 8 is used: 7.x (the copy under @grpc/proto-loader) writes explicitly set proto3 defaults and
 * breaks byte equality with Go and google-protobuf.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as protobuf from "protobufjs";

/** Every .proto file we load, relative to the protos directory (imports resolve against the same directory). */
export const PROTO_FILES: readonly string[] = [
  "common/common.proto",
  "common/policies.proto",
  "common/ledger.proto",
  "common/configtx.proto",
  "common/configuration.proto",
  "msp/identities.proto",
  "msp/msp_principal.proto",
  "msp/msp_config.proto",
  "peer/chaincode.proto",
  "peer/chaincode_event.proto",
  "peer/proposal.proto",
  "peer/proposal_response.proto",
  "peer/transaction.proto",
  "peer/policy.proto",
  "peer/collection.proto",
  "peer/lifecycle/lifecycle.proto",
  "ledger/rwset/rwset.proto",
  "ledger/rwset/kvrwset/kv_rwset.proto",
  "orderer/ab.proto",
  "orderer/configuration.proto",
  "orderer/etcdraft/configuration.proto",
  "orderer/smartbft/configuration.proto",
  "peer/configuration.proto",
  "peer/query.proto",
  "gateway/gateway.proto",
  "google/rpc/status.proto",
];

const MARKER = path.join("common", "common.proto");

/**
 * The absolute path of the protos directory, searched upward from `startDir` (default: this module's directory).
 * Throws an Error naming the searched directories when none is found.
 */
export function findProtosDir(startDir: string = __dirname): string {
  const tried: string[] = [];
  for (let dir = path.resolve(startDir); ; dir = path.dirname(dir)) {
    for (const candidate of [path.join(dir, "protos"), path.join(dir, "provider", "ledger", "protos")]) {
      tried.push(candidate);
      if (fs.existsSync(path.join(candidate, MARKER))) return candidate;
    }
    if (path.dirname(dir) === dir) break;
  }
  throw new Error(`provider/ledger/protos not found; looked in: ${tried.join(", ")}`);
}

let cached: protobuf.Root | undefined;

/** Loads (once) and returns the resolved Root with every message, enum and the gateway.Gateway service. */
export function protoRoot(): protobuf.Root {
  if (cached !== undefined) return cached;
  const dir = findProtosDir();
  const root = new protobuf.Root();
  // Imports such as "peer/proposal.proto" are relative to the protos directory, not the importing file.
  // google/protobuf/*.proto resolve to protobufjs's bundled definitions.
  root.resolvePath = (_origin: string, target: string): string =>
    path.isAbsolute(target) ? target : path.join(dir, target);
  root.loadSync(PROTO_FILES.map((f) => path.join(dir, f)));
  root.resolveAll();
  cached = root;
  return root;
}

/** Looks up a message type by its full name, for example "common.Envelope". */
export function protoType(fullName: string): protobuf.Type {
  return protoRoot().lookupType(fullName);
}

/** Looks up an enum by its full name, for example "protos.TxValidationCode". */
export function protoEnum(fullName: string): protobuf.Enum {
  return protoRoot().lookupEnum(fullName);
}
