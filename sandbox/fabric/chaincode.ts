/**
 * The built-in key/value asset chaincode. Values are opaque bytes (returned as stored); GetAssetsByRange returns
 * JSON with values decoded as UTF-8. Every function that changes state first reads the keys it depends on, so
 * their versions land in the read set and a concurrent change makes the transaction an MVCC_READ_CONFLICT;
 * PutAsset is a blind write (no read, so never a conflict). GetAssetsByRange records a range query, which a
 * committer re-checks (PHANTOM_READ_CONFLICT when a key appeared or changed in the range).
 */

export interface ChaincodeEventData {
  readonly name: string;
  readonly payload: Buffer;
}

/** What a chaincode function sees of the ledger during simulation. */
export interface ChaincodeStub {
  readonly txId: string;
  readonly channelId: string;
  getState(key: string): Buffer | undefined;
  putState(key: string, value: Uint8Array): void;
  deleteState(key: string): void;
  getStateByRange(startKey: string, endKey: string): { key: string; value: Buffer }[];
  setEvent(name: string, payload: Uint8Array): void;
}

export interface ChaincodeResponse {
  readonly status: number;
  readonly message: string;
  readonly payload: Buffer;
}

export interface Chaincode {
  readonly name: string;
  readonly version: string;
  /**
   * Runs `fcn` with `args` (args[0] of the ChaincodeInput is the function name, already removed; undefined when the
   * input has no arguments at all).
   */
  invoke(stub: ChaincodeStub, fcn: string | undefined, args: readonly Buffer[]): ChaincodeResponse;
}

/** The sandbox chaincode's version, reported in ChaincodeAction.chaincode_id.version (Fabric requires non-empty). */
export const DEFAULT_CHAINCODE_VERSION = "1.0";

/** HTTP-like chaincode status codes (Fabric's shim: OK = 200, ERROR = 500). */
export const CHAINCODE_OK = 200;
export const CHAINCODE_ERROR = 500;

function ok(payload: Uint8Array = Buffer.alloc(0)): ChaincodeResponse {
  return { status: CHAINCODE_OK, message: "", payload: Buffer.from(payload) };
}

function error(message: string): ChaincodeResponse {
  return { status: CHAINCODE_ERROR, message, payload: Buffer.alloc(0) };
}

type AssetFunction = (stub: ChaincodeStub, args: readonly string[], raw: readonly Buffer[]) => ChaincodeResponse;

interface FunctionSpec {
  readonly parameters: readonly string[];
  /** @Transaction(false) in the real contract: tagged EVALUATE in its metadata. */
  readonly evaluate?: boolean;
  readonly run: AssetFunction;
}

const FUNCTIONS: Readonly<Record<string, FunctionSpec>> = {
  CreateAsset: {
    parameters: ["key", "value"],
    run: (stub, [key = ""], [, value = Buffer.alloc(0)]) => {
      if (stub.getState(key) !== undefined) return error(`the asset ${key} already exists`);
      stub.putState(key, value);
      stub.setEvent("AssetCreated", Buffer.from(key));
      return ok(value);
    },
  },
  ReadAsset: {
    evaluate: true,
    parameters: ["key"],
    run: (stub, [key = ""]) => {
      const value = stub.getState(key);
      return value === undefined ? error(`the asset ${key} does not exist`) : ok(value);
    },
  },
  AssetExists: {
    evaluate: true,
    parameters: ["key"],
    run: (stub, [key = ""]) => ok(Buffer.from(stub.getState(key) === undefined ? "false" : "true")),
  },
  UpdateAsset: {
    parameters: ["key", "value"],
    run: (stub, [key = ""], [, value = Buffer.alloc(0)]) => {
      if (stub.getState(key) === undefined) return error(`the asset ${key} does not exist`);
      stub.putState(key, value);
      stub.setEvent("AssetUpdated", Buffer.from(key));
      return ok(value);
    },
  },
  PutAsset: {
    parameters: ["key", "value"],
    run: (stub, [key = ""], [, value = Buffer.alloc(0)]) => {
      stub.putState(key, value);
      stub.setEvent("AssetPut", Buffer.from(key));
      return ok(value);
    },
  },
  DeleteAsset: {
    parameters: ["key"],
    run: (stub, [key = ""]) => {
      if (stub.getState(key) === undefined) return error(`the asset ${key} does not exist`);
      stub.deleteState(key);
      stub.setEvent("AssetDeleted", Buffer.from(key));
      return ok();
    },
  },
  TransferAsset: {
    parameters: ["key", "newKey"],
    run: (stub, [key = "", newKey = ""]) => {
      const value = stub.getState(key);
      if (value === undefined) return error(`the asset ${key} does not exist`);
      if (stub.getState(newKey) !== undefined) return error(`the asset ${newKey} already exists`);
      stub.putState(newKey, value);
      stub.deleteState(key);
      stub.setEvent("AssetTransferred", Buffer.from(`${key}->${newKey}`));
      return ok(value);
    },
  },
  GetAssetsByRange: {
    evaluate: true,
    parameters: ["startKey", "endKey"],
    run: (stub, [startKey = "", endKey = ""]) => {
      const assets = stub
        .getStateByRange(startKey, endKey)
        .map((e) => ({ key: e.key, value: e.value.toString("utf8") }));
      return ok(Buffer.from(JSON.stringify(assets)));
    },
  },
};

/** The names of the asset chaincode's functions, in documentation order. */
export const ASSET_FUNCTIONS: readonly string[] = Object.keys(FUNCTIONS);

/** The contract API's system contract, which answers GetMetadata. */
export const SYSTEM_CONTRACT = "org.hyperledger.fabric";

/**
 * "contract:function" as fabric-contract-api splits it (fabric-shim chaincodefromcontract.js _splitFunctionName): the
 * text before the first colon names the contract (empty: the default one), the rest is the function.
 */
function splitFunctionName(fcn: string, defaultContract: string): { contract: string; fn: string } {
  const colon = fcn.indexOf(":");
  if (colon === -1) return { contract: defaultContract, fn: fcn };
  const contract = fcn.slice(0, colon);
  return { contract: contract.trim() === "" ? defaultContract : contract, fn: fcn.slice(colon + 1) };
}

/** The contract API's GetMetadata answer for the assets contract, as the real chaincode gives it. */
function metadata(name: string, version: string): string {
  const parameter = (p: string) => ({ name: p, description: "", schema: { type: "string" } });
  return JSON.stringify({
    $schema: "https://hyperledger.github.io/fabric-chaincode-node/main/api/contract-schema.json",
    contracts: {
      [name]: {
        name,
        contractInstance: { name, default: true },
        transactions: Object.entries(FUNCTIONS).map(([fn, spec]) => ({
          tag: spec.evaluate === true ? ["EVALUATE"] : ["SUBMIT", "submitTx"],
          parameters: spec.parameters.map(parameter),
          name: fn,
        })),
        info: { title: "", version: "" },
      },
      [SYSTEM_CONTRACT]: {
        name: SYSTEM_CONTRACT,
        contractInstance: { name: SYSTEM_CONTRACT },
        transactions: [{ name: "GetMetadata" }],
        info: { title: "", version: "" },
      },
    },
    info: { version, title: name },
    components: { schemas: {} },
  });
}

/**
 * The chaincode as fabric-contract-api serves it: one contract named like the chaincode (the default), the system
 * contract with GetMetadata, "contract:function" names, the contract API's errors.
 */
export function assetChaincode(name: string, version: string = DEFAULT_CHAINCODE_VERSION): Chaincode {
  return {
    name,
    version,
    invoke(stub, fcn, args) {
      if (fcn === undefined) return ok(Buffer.from("Default initiator successful."));
      const { contract, fn } = splitFunctionName(fcn, name);
      if (contract !== name && contract !== SYSTEM_CONTRACT) return error(`Contract name is not known: ${contract}`);
      const notFound = error(`You've asked to invoke a function that does not exist: ${fcn}`);
      if (contract === SYSTEM_CONTRACT)
        return fn === "GetMetadata" ? ok(Buffer.from(metadata(name, version))) : notFound;
      const spec = Object.hasOwn(FUNCTIONS, fn) ? FUNCTIONS[fn] : undefined;
      if (spec === undefined) return notFound;
      if (args.length !== spec.parameters.length) {
        return error(`Expected ${spec.parameters.length} parameters, but ${args.length} have been supplied`);
      }
      return spec.run(
        stub,
        args.map((a) => a.toString("utf8")),
        args,
      );
    },
  };
}
