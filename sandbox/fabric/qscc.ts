/**
 * The query system chaincode (Fabric core/scc/qscc/query.go), evaluated through the gateway as chaincode "qscc":
 * GetTransactionByID, GetBlockByNumber, GetBlockByHash, GetBlockByTxID and GetChainInfo, with Fabric's messages.
 * Results are the serialized protos.ProcessedTransaction, common.Block and common.BlockchainInfo.
 */
import { CHAINCODE_ERROR, CHAINCODE_OK, type ChaincodeResponse } from "./chaincode";
import type { Ledger } from "./ledger";
import { lengthDelimitedField, varintField } from "./wire";

export const QSCC_NAME = "qscc";

function error(message: string): ChaincodeResponse {
  return { status: CHAINCODE_ERROR, message, payload: Buffer.alloc(0) };
}

function ok(payload: Buffer): ChaincodeResponse {
  return { status: CHAINCODE_OK, message: "", payload };
}

/** protos.ProcessedTransaction with the stored envelope embedded verbatim. */
export function processedTransaction(envelope: Buffer, validationCode: number): Buffer {
  return Buffer.concat([lengthDelimitedField(1, envelope), varintField(2, validationCode)]);
}

/** common.BlockchainInfo {height = 1, currentBlockHash = 2, previousBlockHash = 3} (common/ledger.proto). */
function blockchainInfo(ledger: Ledger): Buffer {
  const blocks = ledger.blocks;
  const current = blocks[blocks.length - 1];
  const previous = blocks[blocks.length - 2];
  return Buffer.concat([
    varintField(1, blocks.length),
    current === undefined ? Buffer.alloc(0) : lengthDelimitedField(2, current.headerHash),
    previous === undefined ? Buffer.alloc(0) : lengthDelimitedField(3, previous.headerHash),
  ]);
}

/** Runs qscc function `fn` with `raw` arguments (args[1..] of the ChaincodeInput). */
export function invokeQscc(ledger: Ledger, fn: string, raw: readonly Buffer[]): ChaincodeResponse {
  const args = raw.map((a) => a.toString("utf8"));
  if (args.length < 1) return error(`Incorrect number of arguments, ${args.length + 1}`);
  const [channel = "", arg = ""] = args;
  if (channel !== ledger.channel) return error(`Invalid chain ID, ${channel}`);
  switch (fn) {
    case "GetChainInfo":
      return ok(blockchainInfo(ledger));
    case "GetTransactionByID": {
      if (args.length < 2) return error("missing 3rd argument for transaction ID");
      const tx = ledger.transaction(arg);
      if (tx === undefined) {
        return error(`Failed to get transaction with id ${arg}, error no such transaction ID [${arg}] in index`);
      }
      return ok(processedTransaction(tx.envelope, tx.code));
    }
    case "GetBlockByNumber": {
      if (args.length < 2) return error("missing 3rd argument for block number");
      if (!/^\d+$/.test(arg))
        return error(`Failed to parse block number with error strconv.ParseUint: parsing "${arg}": invalid syntax`);
      const block = ledger.block(BigInt(arg));
      if (block === undefined)
        return error(`Failed to get block number ${arg}, error no such block number [${arg}] in index`);
      return ok(block.bytes);
    }
    case "GetBlockByHash": {
      if (args.length < 2) return error("missing 3rd argument for block hash");
      const hash = raw[1] ?? Buffer.alloc(0);
      const block = ledger.blocks.find((b) => b.headerHash.equals(hash));
      if (block === undefined) {
        return error(`Failed to get block hash ${hash.toString("hex")}, error no such block hash in index`);
      }
      return ok(block.bytes);
    }
    case "GetBlockByTxID": {
      if (args.length < 2) return error("missing 3rd argument for transaction ID");
      const tx = ledger.transaction(arg);
      const block = tx === undefined ? undefined : ledger.block(tx.blockNumber);
      if (block === undefined)
        return error(`Failed to get block for txID ${arg}, error no such transaction ID [${arg}] in index`);
      return ok(block.bytes);
    }
    default:
      return error(`Requested function ${fn} not found.`);
  }
}
