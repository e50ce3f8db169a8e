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

/**
 * Resolves once the peer of each organization in `organizations` reports `txId` committed, or the wait is over;
 * resolves to the organizations whose peer did not (empty when all did).
 */
export async function awaitEndorsingPeers(
  gateway: Gateway,
  channel: string,
  txId: string,
  organizations: readonly string[],
  options: EndorserCatchUpOptions = {},
): Promise<string[]> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const deadline = now() + (options.waitMs ?? DEFAULT_ENDORSER_CATCH_UP_MS);
  let pending = [...new Set(organizations)];
  for (let pause = ENDORSER_POLL_INITIAL_MS; ; pause = Math.min(pause * 2, ENDORSER_POLL_MAX_MS)) {
    const answers = await Promise.all(pending.map((mspId) => committedAt(gateway, channel, txId, mspId)));
    pending = pending.filter((_, i) => answers[i] !== true);
    const left = deadline - now();
    if (pending.length === 0 || left <= 0) return pending;
    await sleep(Math.min(pause, left));
  }
}
