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
  /** Runs `fn` with `args` (args[0] of the ChaincodeInput is the function name, already removed). */
  invoke(stub: ChaincodeStub, fn: string, args: readonly Buffer[]): ChaincodeResponse;
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
    parameters: ["key"],
    run: (stub, [key = ""]) => {
      const value = stub.getState(key);
      return value === undefined ? error(`the asset ${key} does not exist`) : ok(value);
    },
  },
  AssetExists: {
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

export function assetChaincode(name: string, version: string = DEFAULT_CHAINCODE_VERSION): Chaincode {
  return {
    name,
    version,
    invoke(stub, fn, args) {
      const spec = FUNCTIONS[fn];
      if (spec === undefined) return error(`You've asked to invoke a function that does not exist: ${fn}`);
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
