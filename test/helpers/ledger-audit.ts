/**
 * What the real ledger says about transactions, read through each organization's peer with the official client:
 * every entry of the blocks (filtered blocks from the peer's deliver service: txId and validation code) and qscc's
 * GetTransactionByID. `assertCommittedOnce` is the "nothing lost, nothing twice" check of the fault tests: each txId
 * has exactly one VALID entry on both peers (and qscc agrees); any other entry of it is a DUPLICATE_TXID — the trace
 * of a resubmitted envelope whose first copy also reached a block, which changes nothing.
 */
import { strict as assert } from "node:assert";
import { peer } from "@hyperledger/fabric-protos";
import { randomUUID } from "node:crypto";
import { connectGateway, type FabricNetwork } from "../../sandbox/fabric-network";
import { readChainHeight, refused, submit, waitForBlock } from "./fabric-network-client";
import { waitFor } from "./wait-for";

export { readChainHeight };

export interface LedgerEntry {
  readonly txId: string;
  readonly block: bigint;
  readonly codeName: string;
}

const CODE_NAMES: Readonly<Record<number, string>> = Object.fromEntries(
  (Object.entries(peer.TxValidationCode) as [string, number][]).map(([name, code]) => [code, name]),
);

/** How long a read waits for a peer whose gRPC port does not accept connections yet (a restarted peer). */
const PEER_ANSWER_TIMEOUT_MS = 60_000;

/**
 * Runs a read, again while the peer refuses connections: a restarted peer answers /healthz (what startProcess waits
 * for) before its gRPC port accepts connections.
 */
function whenAnswering<T>(read: () => Promise<T>): Promise<T> {
  return waitFor({
    what: "the peer to accept connections",
    read,
    retrying: refused,
    timeoutMs: PEER_ANSWER_TIMEOUT_MS,
    intervalMs: 250,
  });
}

/** The peer's block height (qscc GetChainInfo). */
export function chainHeight(network: FabricNetwork, mspId: string): Promise<bigint> {
  return whenAnswering(() => readChainHeight(network, mspId));
}

/**
 * Every transaction entry of blocks `fromBlock`..`toBlock` as `mspId`'s peer committed them. The deliver service sends
 * a block only once the peer has committed it, so this also waits for a peer that is behind.
 */
export function ledgerEntries(
  network: FabricNetwork,
  mspId: string,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<LedgerEntry[]> {
  return whenAnswering(() => readEntries(network, mspId, fromBlock, toBlock));
}

async function readEntries(
  network: FabricNetwork,
  mspId: string,
  fromBlock: bigint,
  toBlock: bigint,
): Promise<LedgerEntry[]> {
  const connection = connectGateway(network.organization(mspId));
  const entries: LedgerEntry[] = [];
  try {
    const blocks = await connection.gateway
      .getNetwork(network.channel)
      .getFilteredBlockEvents({ startBlock: fromBlock });
    try {
      for await (const block of blocks) {
        const number = BigInt(block.getNumber());
        for (const tx of block.getFilteredTransactionsList()) {
          entries.push({ txId: tx.getTxid(), block: number, codeName: CODE_NAMES[tx.getTxValidationCode()] ?? "?" });
        }
        if (number >= toBlock) break;
      }
    } finally {
      blocks.close();
    }
  } finally {
    connection.close();
  }
  return entries;
}

/** qscc GetTransactionByID's validation code name through `mspId`'s peer, or "not found". */
export function qsccCode(network: FabricNetwork, mspId: string, txId: string): Promise<string> {
  return whenAnswering(() => readQsccCode(network, mspId, txId));
}

async function readQsccCode(network: FabricNetwork, mspId: string, txId: string): Promise<string> {
  const connection = connectGateway(network.organization(mspId));
  try {
    const qscc = connection.gateway.getNetwork(network.channel).getContract("qscc");
    const bytes = await qscc.evaluateTransaction("GetTransactionByID", network.channel, txId);
    return CODE_NAMES[peer.ProcessedTransaction.deserializeBinary(bytes).getValidationcode()] ?? "?";
  } catch (e) {
    if (String(e instanceof Error ? e.message : e).includes("no such transaction ID")) return "not found";
    throw e;
  } finally {
    connection.close();
  }
}

/** How long assertNotOrdered tries to commit its sentinel (a restarted peer takes a while to endorse again). */
const SENTINEL_TIMEOUT_MS = 120_000;

/**
 * Proves that `txIds` never reached the ledger: a transaction of ours submitted now through `mspId`'s gateway commits
 * VALID (asked again while a restarted node cannot endorse yet), `mspId`'s peer has its block, and qscc there knows none
 * of them — the orderers cut blocks in the order they receive transactions, so anything sent before is in an earlier
 * block or never will be. A "not found" read right after a fault, with no such sentinel, proves nothing.
 */
export async function assertNotOrdered(network: FabricNetwork, mspId: string, txIds: readonly string[]): Promise<void> {
  const sentinel = await waitFor({
    what: `a sentinel transaction to commit through ${mspId}'s gateway`,
    read: () => submit(network, mspId, "CreateAsset", [`sentinel-${randomUUID()}`, "after"]),
    retrying: () => true,
    timeoutMs: SENTINEL_TIMEOUT_MS,
    intervalMs: 500,
  });
  assert.equal(sentinel.status.code, peer.TxValidationCode.VALID, `the sentinel ${sentinel.txId} committed`);
  await waitForBlock(network, mspId, sentinel.status.blockNumber);
  for (const txId of txIds) {
    assert.equal(await qsccCode(network, mspId, txId), "not found", `${txId} is not on ${mspId}'s ledger`);
  }
}

export interface OnceReport {
  /** Entries per txId as the first organization's peer has them. */
  readonly entries: ReadonlyMap<string, readonly LedgerEntry[]>;
  /** How many DUPLICATE_TXID entries the txIds left (resubmitted envelopes whose first copy also committed). */
  readonly duplicates: number;
}

/**
 * Asserts, through every organization's peer, that each txId is on the ledger exactly once as VALID, that its other
 * entries (if any) are DUPLICATE_TXID after the VALID one, and that qscc reports it VALID. Reads every block up to the
 * first organization's current height, so a late duplicate is seen too.
 */
export async function assertCommittedOnce(network: FabricNetwork, txIds: readonly string[]): Promise<OnceReport> {
  const [first, ...others] = network.organizations.map((o) => o.mspId);
  assert.ok(first !== undefined);
  const top = (await chainHeight(network, first)) - 1n;
  let firstView: Map<string, LedgerEntry[]> | undefined;
  let duplicates = 0;
  for (const mspId of [first, ...others]) {
    const ours = new Set(txIds);
    const byTxId = new Map<string, LedgerEntry[]>(txIds.map((id) => [id, []]));
    for (const entry of await ledgerEntries(network, mspId, 0n, top)) {
      if (ours.has(entry.txId)) byTxId.get(entry.txId)?.push(entry);
    }
    for (const [txId, entries] of byTxId) {
      const codes = entries.map((e) => e.codeName);
      assert.equal(
        codes[0],
        "VALID",
        `${mspId}: ${txId} is on the ledger, first as VALID (${codes.join(", ") || "absent"})`,
      );
      assert.deepEqual(
        codes.slice(1).filter((c) => c !== "DUPLICATE_TXID"),
        [],
        `${mspId}: ${txId}'s other entries are DUPLICATE_TXID only (${codes.join(", ")})`,
      );
      assert.equal(await qsccCode(network, mspId, txId), "VALID", `${mspId}: qscc GetTransactionByID(${txId})`);
      if (mspId === first) duplicates += entries.length - 1;
    }
    if (mspId === first) firstView = byTxId;
    else
      assert.deepEqual(
        [...byTxId].map(([id, e]) => [id, e.map((x) => `${x.block} ${x.codeName}`)]),
        [...(firstView ?? [])].map(([id, e]) => [id, e.map((x) => `${x.block} ${x.codeName}`)]),
        `${mspId}'s peer has the same entries as ${first}'s`,
      );
  }
  return { entries: firstView ?? new Map(), duplicates };
}
