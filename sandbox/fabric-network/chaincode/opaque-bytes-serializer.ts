/**
 * The contract's transaction serializer: fabric-contract-api's JSONSerializer, except that a returned Uint8Array
 * (Buffer) goes to the peer as its bytes. The JSON serializer would turn it into `{"type":"Buffer","data":[...]}`,
 * and asset values are opaque bytes, returned exactly as stored (as in sandbox/fabric/chaincode.ts).
 */
import { JSONSerializer } from "fabric-contract-api";

export class OpaqueBytesSerializer extends JSONSerializer {
  override toBuffer(result: unknown, schema: unknown, loggerPrefix?: string): Buffer {
    if (result instanceof Uint8Array) return Buffer.from(result.buffer, result.byteOffset, result.byteLength);
    return super.toBuffer(result, schema, loggerPrefix);
  }
}
