/**
 * The official @hyperledger/fabric-gateway client against a real Fabric network (sandbox/fabric-network): submit,
 * evaluate, and qscc's GetTransactionByID, each through the gateway peer of the organization named.
 */
import { common, peer } from "@hyperledger/fabric-protos";
import { connectGateway, type FabricNetwork } from "../../sandbox/fabric-network";
import { waitFor } from "./wait-for";

/** How long a test lets a network of its own take to start: usually seconds, but 2 cores are shared with the suite. */
export const NETWORK_START_TIMEOUT_MS = 240_000;

/** How long waitForBlock waits for a peer to commit a block, in milliseconds. */
const BLOCK_TIMEOUT_MS = 120_000;

/** An error of a peer that does not accept connections yet (a restarted peer answers /healthz before gRPC). */
export function refused(e: unknown): boolean {
  return /UNAVAILABLE|ECONNREFUSED|No connection established/.test(String(e instanceof Error ? e.message : e));
}

/** The processed transaction qscc returns for `txId`, through `org`'s gateway. */
export async function processedTransaction(
  network: FabricNetwork,
  mspId: string,
  txId: string,
): Promise<peer.ProcessedTransaction> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const qscc = connection.gateway.getNetwork(network.channel).getContract("qscc");
    return peer.ProcessedTransaction.deserializeBinary(
      await qscc.evaluateTransaction("GetTransactionByID", network.channel, txId),
    );
  } finally {
    connection.close();
  }
}

/** Submits through `mspId`'s gateway; resolves to the txId, result bytes and commit status. */
export async function submit(
  network: FabricNetwork,
  mspId: string,
  fn: string,
  args: readonly (string | Uint8Array)[],
): Promise<{ txId: string; result: Buffer; status: { code: number; successful: boolean; blockNumber: bigint } }> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const contract = connection.gateway.getNetwork(network.channel).getContract(network.chaincode);
    const commit = await contract.submitAsync(fn, { arguments: [...args] });
    const status = await commit.getStatus();
    return { txId: commit.getTransactionId(), result: Buffer.from(commit.getResult()), status };
  } finally {
    connection.close();
  }
}

export async function evaluate(
  network: FabricNetwork,
  mspId: string,
  fn: string,
  args: readonly string[],
): Promise<Buffer> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const contract = connection.gateway.getNetwork(network.channel).getContract(network.chaincode);
    return Buffer.from(await contract.evaluateTransaction(fn, ...args));
  } finally {
    connection.close();
  }
}

/** The channel's height through `mspId`'s gateway (qscc GetChainInfo with the official client; mutual TLS when the
 * network requires it, connectGateway presents the organization's client pair). */
export async function readChainHeight(network: FabricNetwork, mspId: string): Promise<bigint> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const qscc = connection.gateway.getNetwork(network.channel).getContract("qscc");
    const info = common.BlockchainInfo.deserializeBinary(
      await qscc.evaluateTransaction("GetChainInfo", network.channel),
    );
    return BigInt(info.getHeight());
  } finally {
    connection.close();
  }
}

/**
 * Resolves once `mspId`'s peer has committed block `blockNumber`: its height (qscc GetChainInfo) counts committed
 * blocks only. (A commit status from one organization's gateway says nothing about the other peer.)
 */
export async function waitForBlock(network: FabricNetwork, mspId: string, blockNumber: bigint): Promise<void> {
  await waitFor({
    what: `${mspId}'s peer to commit block ${String(blockNumber)}`,
    read: () => readChainHeight(network, mspId),
    until: (height) => height > blockNumber,
    show: (height) => `height ${String(height)}`,
    retrying: refused,
    timeoutMs: BLOCK_TIMEOUT_MS,
    intervalMs: 250,
  });
}
