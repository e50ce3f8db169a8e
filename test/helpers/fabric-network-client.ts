/**
 * The official @hyperledger/fabric-gateway client against a real Fabric network (sandbox/fabric-network): submit,
 * evaluate, and qscc's GetTransactionByID, each through the gateway peer of the organization named.
 */
import { peer } from "@hyperledger/fabric-protos";
import { connectGateway, type FabricNetwork } from "../../sandbox/fabric-network";

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

/**
 * Resolves once `mspId`'s peer has committed block `blockNumber`: its deliver service sends a block only after the
 * peer committed it. (A commit status from one organization's gateway says nothing about the other peer.)
 */
export async function waitForBlock(network: FabricNetwork, mspId: string, blockNumber: bigint): Promise<void> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const blocks = await connection.gateway
      .getNetwork(network.channel)
      .getFilteredBlockEvents({ startBlock: blockNumber });
    try {
      for await (const block of blocks) if (BigInt(block.getNumber()) >= blockNumber) return;
    } finally {
      blocks.close();
    }
  } finally {
    connection.close();
  }
}
