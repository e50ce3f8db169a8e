/**
 * After a ledger.LedgerTransactionSubmission commits: wait until the peer of every organization that endorsed it has
 * committed it too.
 *
 * A commit status is the word of one peer, the gateway's: the other organizations' peers commit the same block on
 * their own time. A transaction that reads what this one wrote (a resource that depends on it, the next `pulumi up`)
 * is endorsed by those peers too, and one that has not caught up simulates against older state — Fabric's gateway then
 * refuses the endorsement ("ProposalResponsePayloads do not match", or the chaincode's own error from that peer); how
 * often that happened on Fabric 2.5 and 3.1 is in docs/decisions/0018-wait-for-every-endorsing-peer.md. So the
 * component reports a transaction done only once each endorsing organization's peer answers qscc GetTransactionByID
 * for it (an evaluation through the gateway, targeted at that organization), asking again with growing pauses, and for
 * at most DEFAULT_ENDORSER_CATCH_UP_MS: a peer that does not answer by then does not fail a committed transaction, it is
 * named in a warning.
 */
import { codecs } from "./codec";
import type { Gateway } from "./gateway-client";

/** How long a submission waits for the endorsing organizations' peers to report its transaction. */
export const DEFAULT_ENDORSER_CATCH_UP_MS = 30_000;
/** The first pause before asking a peer again; it doubles up to ENDORSER_POLL_MAX_MS. */
export const ENDORSER_POLL_INITIAL_MS = 50;
export const ENDORSER_POLL_MAX_MS = 1_000;

export interface EndorserCatchUpOptions {
  /** @default DEFAULT_ENDORSER_CATCH_UP_MS */
  readonly waitMs?: number;
  /** @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /** @default Date.now */
  readonly now?: () => number;
}

/** Whether `mspId`'s peer knows `txId` (an error — not found yet, unreachable — counts as not yet). */
async function committedAt(gateway: Gateway, channel: string, txId: string, mspId: string): Promise<boolean> {
  try {
    await gateway.evaluateTransaction({
      channelId: channel,
      chaincodeName: "qscc",
      functionName: "GetTransactionByID",
      args: [channel, txId],
      targetOrganizations: [mspId],
    });
    return true;
  } catch {
    return false;
  }
}

/** The height of `mspId`'s peer's chain (qscc GetChainInfo), or undefined when it does not answer. */
async function heightAt(gateway: Gateway, channel: string, mspId: string): Promise<bigint | undefined> {
  try {
    const info = await gateway.evaluateTransaction({
      channelId: channel,
      chaincodeName: "qscc",
      functionName: "GetChainInfo",
      args: [channel],
      targetOrganizations: [mspId],
    });
    return codecs.BlockchainInfo.decode(info).height;
  } catch {
    return undefined;
  }
}

/**
 * Polls `ask` for each organization until it answers true or the wait is over; resolves to the organizations whose
 * peer never did.
 */
async function pollPeers(
  organizations: readonly string[],
  ask: (mspId: string) => Promise<boolean>,
  options: EndorserCatchUpOptions,
): Promise<string[]> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + (options.waitMs ?? DEFAULT_ENDORSER_CATCH_UP_MS);
  let pending = [...new Set(organizations)];
  for (let pause = ENDORSER_POLL_INITIAL_MS; ; pause = Math.min(pause * 2, ENDORSER_POLL_MAX_MS)) {
    const answers = await Promise.all(pending.map(ask));
    pending = pending.filter((_, i) => answers[i] !== true);
    const left = deadline - now();
    if (pending.length === 0 || left <= 0) return pending;
    await sleep(Math.min(pause, left));
  }
}

/**
 * Many transactions at once (ledger.LedgerTransactions): resolves once the peer of each organization in
 * `organizations` has committed block `blockNumber` (its chain is higher: blocks commit in order, so it has every
 * transaction of that block and of the blocks before), or the wait is over. One GetChainInfo per organization and
 * poll, however many transactions the blocks hold; resolves to the organizations whose peer did not get there.
 */
export function awaitPeersAtBlock(
  gateway: Gateway,
  channel: string,
  blockNumber: bigint,
  organizations: readonly string[],
  options: EndorserCatchUpOptions = {},
): Promise<string[]> {
  return pollPeers(
    organizations,
    async (mspId) => ((await heightAt(gateway, channel, mspId)) ?? 0n) > blockNumber,
    options,
  );
}

/**
 * Resolves once the peer of each organization in `organizations` reports `txId` committed, or the wait is over;
 * resolves to the organizations whose peer did not (empty when all did).
 */
export function awaitEndorsingPeers(
  gateway: Gateway,
  channel: string,
  txId: string,
  organizations: readonly string[],
  options: EndorserCatchUpOptions = {},
): Promise<string[]> {
  return pollPeers(organizations, (mspId) => committedAt(gateway, channel, txId, mspId), options);
}
