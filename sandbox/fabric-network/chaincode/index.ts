/**
 * The module `fabric-chaincode-node server` loads (through the `main` of the package.json that the network writes
 * into its folder): the contracts it serves and the serializer their transactions use. See bootstrap.js of
 * fabric-shim: `contracts` and `serializers` are the names it reads.
 */
import { AssetsContract } from "./assets-contract";
import { OpaqueBytesSerializer } from "./opaque-bytes-serializer";

export const contracts = [AssetsContract];

export const serializers = {
  transaction: "opaqueBytes",
  serializers: { opaqueBytes: OpaqueBytesSerializer },
};
