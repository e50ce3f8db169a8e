/**
 * The `assets` contract of the real Fabric network: the same functions, parameters, reads and writes, events,
 * payloads and error messages as the sandbox's built-in chaincode (sandbox/fabric/chaincode.ts), on
 * fabric-contract-api. Values are opaque bytes: they are read from the raw arguments (the contract API hands
 * parameters over as UTF-8 strings) and returned as stored (OpaqueBytesSerializer). Every function that changes
 * state first reads the keys it depends on, so their versions are in the read set and a concurrent change makes the
 * transaction an MVCC_READ_CONFLICT; PutAsset is a blind write. GetAssetsByRange records a range query.
 *
 * A peer records a write of an empty value as a delete (rwsetutil newKVWrite: IsDelete = len(value) == 0) and reads a
 * missing key as empty, so an asset with an empty value does not exist (the sandbox does the same).
 */
import { Context, Contract, Transaction } from "fabric-contract-api";

/** The runtime stub of fabric-shim has getBufferArgs() (the arguments as sent); fabric-shim-api's types omit it. */
interface RawArguments {
  getBufferArgs(): Buffer[];
}

/** Parameter `index` as sent; `decoded` is the contract API's UTF-8 string of it, which must match. */
function rawArgument(ctx: Context, index: number, decoded: string): Buffer {
  const stub = ctx.stub as unknown as Partial<RawArguments>;
  if (typeof stub.getBufferArgs !== "function") throw new Error("the chaincode stub has no getBufferArgs()");
  // Argument 0 is the function name.
  const raw = stub.getBufferArgs()[index + 1] ?? Buffer.alloc(0);
  if (raw.toString("utf8") !== decoded) throw new Error(`argument ${index} does not match the raw arguments`);
  return raw;
}

async function read(ctx: Context, key: string): Promise<Buffer | undefined> {
  const value = await ctx.stub.getState(key);
  return value.length === 0 ? undefined : Buffer.from(value);
}

export class AssetsContract extends Contract {
  constructor() {
    super("assets");
  }

  @Transaction()
  async CreateAsset(ctx: Context, key: string, value: string): Promise<Buffer> {
    if ((await read(ctx, key)) !== undefined) throw new Error(`the asset ${key} already exists`);
    const bytes = rawArgument(ctx, 1, value);
    await ctx.stub.putState(key, bytes);
    ctx.stub.setEvent("AssetCreated", Buffer.from(key));
    return bytes;
  }

  @Transaction(false)
  async ReadAsset(ctx: Context, key: string): Promise<Buffer> {
    const value = await read(ctx, key);
    if (value === undefined) throw new Error(`the asset ${key} does not exist`);
    return value;
  }

  @Transaction(false)
  async AssetExists(ctx: Context, key: string): Promise<string> {
    return (await read(ctx, key)) === undefined ? "false" : "true";
  }

  @Transaction()
  async UpdateAsset(ctx: Context, key: string, value: string): Promise<Buffer> {
    if ((await read(ctx, key)) === undefined) throw new Error(`the asset ${key} does not exist`);
    const bytes = rawArgument(ctx, 1, value);
    await ctx.stub.putState(key, bytes);
    ctx.stub.setEvent("AssetUpdated", Buffer.from(key));
    return bytes;
  }

  /** A blind write: no read, so never a read conflict. */
  @Transaction()
  async PutAsset(ctx: Context, key: string, value: string): Promise<Buffer> {
    const bytes = rawArgument(ctx, 1, value);
    await ctx.stub.putState(key, bytes);
    ctx.stub.setEvent("AssetPut", Buffer.from(key));
    return bytes;
  }

  @Transaction()
  async DeleteAsset(ctx: Context, key: string): Promise<void> {
    if ((await read(ctx, key)) === undefined) throw new Error(`the asset ${key} does not exist`);
    await ctx.stub.deleteState(key);
    ctx.stub.setEvent("AssetDeleted", Buffer.from(key));
  }

  @Transaction()
  async TransferAsset(ctx: Context, key: string, newKey: string): Promise<Buffer> {
    const value = await read(ctx, key);
    if (value === undefined) throw new Error(`the asset ${key} does not exist`);
    if ((await read(ctx, newKey)) !== undefined) throw new Error(`the asset ${newKey} already exists`);
    await ctx.stub.putState(newKey, value);
    await ctx.stub.deleteState(key);
    ctx.stub.setEvent("AssetTransferred", Buffer.from(`${key}->${newKey}`));
    return value;
  }

  @Transaction(false)
  async GetAssetsByRange(ctx: Context, startKey: string, endKey: string): Promise<string> {
    const assets: { key: string; value: string }[] = [];
    for await (const entry of ctx.stub.getStateByRange(startKey, endKey)) {
      assets.push({ key: entry.key, value: Buffer.from(entry.value).toString("utf8") });
    }
    return JSON.stringify(assets);
  }
}
