/**
 * The ledger's read side over a Gateway: a committed transaction by txId (qscc GetTransactionByID and GetBlockByTxID,
 * decoded and verified: transaction-record.ts), a chaincode query (Evaluate), and the chain's height and hashes (qscc
 * GetChainInfo). Bad input is refused before anything is sent; the errors Fabric answers for a missing transaction,
 * a channel the peer has not joined, a chaincode not defined, and an identity the channel's policies refuse become
 * LedgerReadError naming the input and the fix.
 */
import { ValidationError } from "../errors/validation-error";
import { codecs } from "./codec";
import type { Gateway, ProposalRequest } from "./gateway-client";
import { isTransactionNotFound } from "./gateway-client";
import { GatewayError } from "../errors/ledger/gateway-error";
import { toHex } from "./hash";
import { LedgerReadError } from "../errors/ledger/ledger-read-error";
import { bytesView, describeProcessedTransaction } from "./transaction-record";
import type { LedgerBytesView, TransactionRecord } from "./transaction-record";
import type { EnvelopeVerifyOptions } from "./verify";

/** A Fabric transaction id: hex(SHA-256(nonce ‖ creator)), 64 lower-case hex characters. */
const TX_ID = /^[0-9a-f]{64}$/;

/** The chain's height and hashes (qscc GetChainInfo). */
export interface ChainInfo {
  /** The number of blocks (decimal); the newest block is height - 1. */
  readonly height: string;
  /** The header hash of the newest block, lower-case hex. */
  readonly currentBlockHash: string;
  /** The header hash of the block before it, lower-case hex. */
  readonly previousBlockHash: string;
}

/** A chaincode query's answer: the response payload. */
export type EvaluationResult = LedgerBytesView;

/** Why `transactionId` is not a txId, or undefined when it is one. */
export function transactionIdProblem(transactionId: unknown): string | undefined {
  if (typeof transactionId !== "string" || transactionId === "") {
    return "is required: the transaction's id, 64 hex characters (a LedgerTransaction's txId output)";
  }
  if (TX_ID.test(transactionId)) return undefined;
  if (TX_ID.test(transactionId.toLowerCase())) {
    return `'${transactionId}' has upper-case letters; Fabric's txIds are lower-case hex: pass '${transactionId.toLowerCase()}'`;
  }
  return `'${transactionId.length > 80 ? `${transactionId.slice(0, 80)}…` : transactionId}' is not a Fabric txId: it must be 64 lower-case hex characters (hex of SHA-256), e.g. a LedgerTransaction's txId output`;
}

const CHANNEL_CONFIG = /failed to get config for channel \[([^\]]*)\]/;
const NO_PEERS = /no peers available to evaluate chaincode (\S+) in channel (\S+)/;
const POLICY = /with policy \[\/Channel\/Application\/(Writers|Readers)\]/;

/** The readable error for what Fabric answered a read with, or the error itself when it is none of those. */
export function readErrorOf(
  error: unknown,
  context: { readonly channel: string; readonly chaincode: string; readonly transactionId?: string },
): unknown {
  if (!(error instanceof GatewayError)) return error;
  const txId = context.transactionId;
  if (txId !== undefined && isTransactionNotFound(error)) {
    return new LedgerReadError({
      problem: "TRANSACTION_NOT_FOUND",
      field: "txId",
      transactionId: txId,
      message:
        `txId ${txId} is not on channel '${context.channel}': the peer's index has no such transaction ` +
        "(qscc GetTransactionByID). Check the txId and the channel; a transaction still being ordered is found once it is committed",
      cause: error,
    });
  }
  const texts = [error.message, ...error.details.map((d) => d.message)];
  const channel = texts.map((t) => CHANNEL_CONFIG.exec(t)).find((m) => m !== null);
  if (channel) {
    return new LedgerReadError({
      problem: "CHANNEL_NOT_FOUND",
      field: "channel",
      transactionId: txId,
      message:
        `channel '${channel[1] ?? context.channel}': the gateway peer has not joined it (Fabric: ${channel[0]}). ` +
        "Check the channel name, or point gateway.address at a peer of that channel",
      cause: error,
    });
  }
  const noPeers = texts.map((t) => NO_PEERS.exec(t)).find((m) => m !== null);
  if (noPeers) {
    return new LedgerReadError({
      problem: "CHAINCODE_NOT_FOUND",
      field: "chaincode",
      message:
        `chaincode '${noPeers[1] ?? context.chaincode}' is not defined on channel '${noPeers[2] ?? context.channel}' ` +
        `(Fabric: ${noPeers[0]}). Check the chaincode name, or approve and commit its definition on the channel`,
      cause: error,
    });
  }
  const policy = texts.map((t) => POLICY.exec(t)).find((m) => m !== null);
  if (policy?.[1] === "Writers") {
    return new LedgerReadError({
      problem: "NOT_A_WRITER",
      field: "identity",
      message:
        `chaincode '${context.chaincode}' on channel '${context.channel}': the identity is not one of the channel's ` +
        "Writers, and Fabric's peers let only Writers send a proposal to a user chaincode, even a query (the " +
        "peer/Propose ACL). Evaluate with a client identity; getTransaction and getChainInfo need only the channel's Readers",
      cause: error,
    });
  }
  if (policy?.[1] === "Readers") {
    return new LedgerReadError({
      problem: "NOT_A_READER",
      field: "identity",
      transactionId: txId,
      message:
        `channel '${context.channel}': the identity is not one of the channel's Readers (the /Channel/Application/Readers ` +
        "policy refused it). Use an identity of an organization of the channel, enrolled with its CA",
      cause: error,
    });
  }
  return error;
}

async function readable<T>(
  call: () => Promise<T>,
  context: { readonly channel: string; readonly chaincode: string; readonly transactionId?: string },
): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw readErrorOf(error, context);
  }
}

function qscc(channelId: string, functionName: string, args: string[]): ProposalRequest {
  return { channelId, chaincodeName: "qscc", functionName, args: [channelId, ...args] };
}

/**
 * The committed transaction `transactionId` of `channelId`, decoded and verified (against `verify.trustedMsps` when
 * given). Throws ValidationError for a malformed txId before anything is sent, LedgerReadError for a txId that is
 * not on the channel and the other readable cases.
 */
export async function readTransaction(
  gateway: Gateway,
  request: { readonly channelId: string; readonly transactionId: string },
  verify: EnvelopeVerifyOptions = {},
): Promise<TransactionRecord> {
  const problem = transactionIdProblem(request.transactionId);
  if (problem !== undefined) {
    throw new ValidationError({ subject: "ledger.getTransaction", failures: [{ property: "txId", reason: problem }] });
  }
  const { channelId, transactionId } = request;
  const context = { channel: channelId, chaincode: "qscc", transactionId };
  // Both questions at once: a missing txId fails both, and the first one's error is the one reported.
  const [processed, block] = await Promise.allSettled([
    gateway.getTransactionById(channelId, transactionId),
    gateway.evaluateTransaction(qscc(channelId, "GetBlockByTxID", [transactionId])),
  ]);
  if (processed.status === "rejected") throw readErrorOf(processed.reason, context);
  if (block.status === "rejected") throw readErrorOf(block.reason, context);
  const blockNumber = codecs.Block.decode(block.value).header?.number ?? 0n;
  return await describeProcessedTransaction(
    processed.value,
    { txId: transactionId, channel: channelId, blockNumber },
    verify,
  );
}

/**
 * A chaincode query (Evaluate: endorsed by one peer, never ordered), its response payload as text and base64.
 * Throws LedgerReadError for a channel or chaincode Fabric does not know and an identity it does not let propose.
 */
export async function evaluateChaincode(gateway: Gateway, request: ProposalRequest): Promise<EvaluationResult> {
  const payload = await readable(() => gateway.evaluateTransaction(request), {
    channel: request.channelId,
    chaincode: request.chaincodeName,
  });
  return bytesView(payload);
}

/** qscc GetChainInfo: the height and the newest block's hashes. */
export async function readChainInfo(gateway: Gateway, channelId: string): Promise<ChainInfo> {
  const payload = await readable(() => gateway.evaluateTransaction(qscc(channelId, "GetChainInfo", [])), {
    channel: channelId,
    chaincode: "qscc",
  });
  const info = codecs.BlockchainInfo.decode(payload);
  return {
    height: info.height.toString(),
    currentBlockHash: toHex(info.currentBlockHash),
    previousBlockHash: toHex(info.previousBlockHash),
  };
}
