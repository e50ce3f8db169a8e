/**
 * One item of a ledger.LedgerTransactions, submitted exactly once with the calls a plain script makes (Endorse,
 * Submit, the commit status) and nothing per item beyond them (docs/decisions/0050-ledger-transactions-items-make-a-scripts-calls.md):
 *
 * - No qscc lookup before endorsing. A txId already on the ledger (a killed run committed it) is refused by the
 *   endorsing peer itself ("duplicate transaction found", Fabric's endorser checks every proposal's txId against its
 *   ledger); only then, or on any other endorsement failure, is the txId looked up, and a committed transaction is
 *   adopted (or its generation skipped when it is invalid or carries other inputs), as submitOnce does before it
 *   endorses. A transaction the orderers hold but have not committed yet is not refused: the second envelope has the
 *   same txId, so at most one of the two is VALID, and the commit status (of the txId) names that one.
 * - No qscc read of the committed transaction: an item's outputs (txId, validation code, block) are the commit
 *   status's; the endorsing organizations come from the endorsement verified before signing.
 * - No wait for every endorsing peer per item: the batch waits once, for each organization's peer to reach the
 *   highest block any item committed in (awaitPeersAtBlock); in list order each item waits for its own block before the
 *   next starts, since the next may read what it wrote.
 * - Progress is the resource row's status, at most twice a second; the lasting messages are the batch's summary, an
 *   adoption, a skipped generation and a resubmission.
 */
import { validationCodeName } from "../../errors/ledger/validation-codes";
import { computeTxId, unwrap, codecs, deserializeIdentity } from "../../ledger";
import { LedgerError } from "../../errors";
import type { Gateway, ProcessedTransaction, Transaction } from "../../ledger";
import { nameFromUrn } from "../common";
import type { Timeouts } from "../common";
import { log, status as rowStatus } from "../../runtime/context";
import { deliver, ENDORSE_CALL_TIMEOUT_MS, withRetries } from "../../ledger/delivery";
import {
  carries,
  deliveryOptionsOf,
  invalidMessage,
  lookup,
  MAX_GENERATION_SKIPS,
  proposalRequestOf,
} from "./ledger-transaction-submit";
import type { SubmitOnceRequest } from "./ledger-transaction-submit";
import { awaitPeersAtBlock } from "../../ledger/endorsing-peers";
import { creatorOf, deriveNonce } from "./ledger-transaction-txid";
import type { Connection } from "./session/gateway-connection";

/** What an item's submission (or adoption) reports. */
export interface ItemOutcome {
  readonly generation: number;
  readonly txId: string;
  readonly validationCode: string;
  readonly validationCodeNumber: number;
  readonly blockNumber: bigint;
  /** The organizations that endorsed it (whose peers a transaction reading its writes needs up to date). */
  readonly endorsers: readonly string[];
  /** Whether an earlier run had committed it. */
  readonly adopted: boolean;
}

/** The organizations whose endorsements an envelope carries. */
function endorsersOf(envelope: { payload: Uint8Array } | undefined): string[] {
  try {
    const payload = envelope?.payload ?? new Uint8Array(0);
    const tx = unwrap(codecs.Envelope.encode({ payload, signature: new Uint8Array(0) }));
    return [...new Set(tx.endorsedAction.endorsements.map((e) => deserializeIdentity(e.endorser).mspId))];
  } catch {
    return [];
  }
}

/** The organizations that endorsed a transaction: from the endorsements verified before signing, else its envelope. */
function endorsersOfTransaction(transaction: Transaction): string[] {
  const verified = transaction.getVerification()?.endorsers;
  if (verified !== undefined) return [...new Set(verified.map((e) => e.mspId))];
  return endorsersOf(codecs.PreparedTransaction.decode(transaction.getBytes()).envelope);
}

/**
 * The transaction of `txId` when it is on the ledger, asked after an endorsement failed (the endorser refuses a txId
 * it has: "duplicate transaction found"); undefined when it is not, or when the gateway does not answer (then the
 * endorsement's own error is the one to report). One call, no retries: the gateway has just answered.
 */
async function committedAfterRefusal(
  gateway: Gateway,
  channel: string,
  txId: string,
): Promise<ProcessedTransaction | undefined> {
  try {
    return await lookup(gateway, channel, txId, { deadline: new Date(Date.now() + ENDORSE_CALL_TIMEOUT_MS) });
  } catch {
    return undefined;
  }
}

/**
 * Submits the transaction of the item's generation (or adopts it when an earlier run committed it), skipping
 * generations burnt by invalid transactions; faults are retried as for one transaction (provider/ledger/delivery.ts).
 * Rejects with the single transaction's message for an invalid one.
 */
export async function submitItem(
  gateway: Gateway,
  c: Connection,
  r: SubmitOnceRequest,
  step: keyof Timeouts,
  rowUrn: string,
): Promise<ItemOutcome> {
  const name = nameFromUrn(r.urn);
  const creator = creatorOf(c.identity);
  const delivery = deliveryOptionsOf(c, r, step, rowUrn);
  for (let generation = r.generation; generation < r.generation + MAX_GENERATION_SKIPS; generation++) {
    const nonce = deriveNonce(creator, r.urn, generation);
    const request = proposalRequestOf(r, nonce);
    const txId = computeTxId(nonce, creator);
    let transaction: Transaction;
    try {
      // verify-before-sign happens in endorse(); endorsing again changes nothing on the ledger.
      transaction = await withRetries(delivery, undefined, (o) => gateway.newProposal(request).endorse(o));
    } catch (error) {
      const committed = await committedAfterRefusal(gateway, r.channel, txId);
      if (committed === undefined) throw error;
      if (carries(committed, request, c.identity) && committed.validationCode === 0) {
        const status = await withRetries(delivery, txId, (o) => gateway.getCommitStatus(r.channel, txId, o));
        log(
          "info",
          `LedgerTransaction ${name}: adopted transaction ${txId}, already committed in block ${status.blockNumber.toString()} (VALID)`,
          rowUrn,
        );
        return {
          generation,
          txId,
          validationCode: "VALID",
          validationCodeNumber: 0,
          blockNumber: status.blockNumber,
          endorsers: endorsersOf(committed.transactionEnvelope),
          adopted: true,
        };
      }
      const why =
        committed.validationCode === 0
          ? "with other inputs by an interrupted run"
          : `as ${validationCodeName(committed.validationCode)}`;
      log(
        "info",
        `LedgerTransaction ${name}: transaction ${txId} was committed earlier ${why}; submitting a new transaction`,
        rowUrn,
      );
      continue;
    }
    const { status } = await deliver(transaction, {
      ...delivery,
      commitStatus: (o) => gateway.getCommitStatus(r.channel, txId, o),
    });
    if (status.code !== 0) {
      throw new LedgerError({
        message: invalidMessage(name, txId, status.blockNumber.toString(), status.code),
        transactionId: txId,
      });
    }
    return {
      generation,
      txId,
      validationCode: status.codeName,
      validationCodeNumber: status.code,
      blockNumber: status.blockNumber,
      endorsers: endorsersOfTransaction(transaction),
      adopted: false,
    };
  }
  throw new LedgerError({
    message: `LedgerTransaction ${name}: ${String(MAX_GENERATION_SKIPS)} transactions of this item are already on the ledger as invalid; see the earlier errors`,
  });
}

/** Shows "k of n committed" on the resource's row, at most every `everyMs`. */
export function progress(rowUrn: string, total: number, everyMs = 500): { done(): void } {
  let count = 0;
  let shownAt = 0;
  return {
    done(): void {
      count++;
      const now = Date.now();
      if (now - shownAt < everyMs && count < total) return;
      shownAt = now;
      rowStatus(rowUrn, `${String(count)} of ${String(total)} transactions committed`);
    },
  };
}

/** Waits until each of `organizations`' peers has committed `block`; names in a warning those that did not. */
export async function peersAt(
  gateway: Gateway,
  channel: string,
  urn: string,
  block: bigint,
  organizations: readonly string[],
): Promise<void> {
  const behind = await awaitPeersAtBlock(gateway, channel, block, organizations);
  if (behind.length === 0) return;
  log(
    "warning",
    `LedgerTransactions ${nameFromUrn(urn)}: the transactions are committed (up to block ${block.toString()}), but the peer ` +
      `of ${behind.join(", ")} did not report that block within the wait; a transaction that reads their writes may ` +
      "fail to endorse there until that peer catches up",
    urn,
  );
}
