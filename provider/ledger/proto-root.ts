/**
 * The protobufjs 8 Root for our Fabric-compatible .proto files, loaded once.
 *
 * The .proto files live in provider/ledger/protos (the npm package ships them; they are not copied into dist/) and are
 * read through provider/assets/package-files.ts: from the package's folder, or from the assets of the plugin's single
 * executable. Each is parsed from its text, as Root.loadSync would parse it, so no file path is needed.
 *
 * Only protobufjs 8 is used: 7.x (the copy under @grpc/proto-loader) writes explicitly set proto3 defaults and
 * breaks byte equality with Go and google-protobuf.
 */
import * as protobuf from "protobufjs";
import { readPackageFile } from "../assets/package-files";

/** The folder of the .proto files, relative to the package's root. */
export const PROTOS_DIR = "provider/ledger/protos";

/** Every .proto file we load, relative to PROTOS_DIR (imports name files the same way). */
export const PROTO_FILES: readonly string[] = [
  "common/common.proto",
  "common/policies.proto",
  "common/ledger.proto",
  "common/configtx.proto",
  "msp/identities.proto",
  "msp/msp_principal.proto",
  "peer/chaincode.proto",
  "peer/chaincode_event.proto",
  "peer/proposal.proto",
  "peer/proposal_response.proto",
  "peer/transaction.proto",
  "ledger/rwset/rwset.proto",
  "ledger/rwset/kvrwset/kv_rwset.proto",
  "orderer/ab.proto",
  "gateway/gateway.proto",
  "google/rpc/status.proto",
];

/** protobufjs's bundled well-known types (google/protobuf/*.proto), which our files import and PROTOS_DIR lacks. */
const WELL_KNOWN = "google/protobuf/";

let cached: protobuf.Root | undefined;

function parseInto(root: protobuf.Root, file: string): protobuf.IParserResult {
  try {
    return protobuf.parse(readPackageFile(`${PROTOS_DIR}/${file}`), root);
  } catch (e) {
    throw new Error(`${PROTOS_DIR}/${file}: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
  }
}

/** Loads (once) and returns the resolved Root with every message, enum and the gateway.Gateway service. */
export function protoRoot(): protobuf.Root {
  if (cached !== undefined) return cached;
  const root = new protobuf.Root();
  for (const file of PROTO_FILES) {
    const parsed = parseInto(root, file);
    for (const imported of [...(parsed.imports ?? []), ...(parsed.weakImports ?? [])]) {
      if (imported.startsWith(WELL_KNOWN)) root.loadSync(imported);
      else if (!PROTO_FILES.includes(imported)) throw new Error(`${file} imports ${imported}, which PROTO_FILES lacks`);
    }
  }
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
