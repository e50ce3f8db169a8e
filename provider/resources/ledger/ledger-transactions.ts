/**
 * ledger.LedgerTransactions: many Fabric transactions in one resource, each submitted exactly once, in the session the
 * single transaction opens (session/ledger-session.ts: the signer opened and checked against the certificate, the
 * gateway over the process's shared channel, the channel's capabilities; verify-before-sign and fault retries in
 * provider/ledger) and, per item, only the calls a plain script makes (ledger-transactions-submit.ts: no qscc lookup
 * unless the endorser refuses a txId it has, no qscc read, one wait for the endorsing peers per batch).
 * docs/decisions/0046-ledger-transactions-in-one-resource.md says why and how, and 0050 why the batch's items skip the
 * single transaction's per-transaction calls.
 *
 * Exactly once per item: an item's nonce is deriveNonce(creator, `<URN>#item/<key>`, generation), so its txId depends
 * on its key, not on its place in the list. check keeps an item's generation while its transaction is unchanged and
 * bumps it when it changes, and writes each item's txId into the checked inputs (what the preview shows). create and
 * update submit every item whose planned txId is not yet recorded as committed, a bounded number at a time (or one at
 * a time in list order with `ordered`); one a killed run committed is refused by the endorser as a duplicate txId,
 * looked up then, and adopted.
 *
 * A failed item (an invalid validation code, a fault that outlasted its retries) does not lose the others: the error
 * carries the resource's id and outputs with every committed item (the engine's ErrorResourceInitFailed, which the
 * dynamic-provider host builds from a PartialFailureError's `id`, `properties` and `reasons`, and the plugin too).
 * The engine records them with the error, and the next `pulumi up` updates the resource: it submits what is missing.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerTransactionsError } from "../../errors";
import { mapBounded } from "../../ledger/bounded-map";
import { log } from "../../runtime/context";
import { messageOf, nameFromUrn } from "../common";
import type { Timeouts } from "../common";
import type { LedgerTransactionsCommitted, LedgerTransactionsPlanned } from "./ledger-shapes";
import type { SubmitOnceRequest } from "./ledger-transaction-submit";
import { batchId, ledgerTransactionsInputFailures, submissionLimit } from "./ledger-transactions-inputs";
import { itemAsTransaction, plannedItems } from "./ledger-transaction-txid";
import type { LedgerTransactionsInputs, LedgerTransactionsOutputs } from "./ledger-transactions-inputs";
import { readLedgerTransactions } from "./ledger-transactions-refresh";
import { peersAt, progress, submitItem } from "./ledger-transactions-submit";
import type { ItemOutcome } from "./ledger-transactions-submit";
import { canonical } from "./ledger-values";
import { checkSession, resourceFrame, sessionChanged, sessionOutputs, withSession } from "./session/ledger-session";

const KIND = "LedgerTransactions";

/** The request submitOnce takes for an item. */
function requestOf(i: LedgerTransactionsInputs, item: LedgerTransactionsPlanned): SubmitOnceRequest {
  const one = itemAsTransaction(i, item);
  return {
    urn: one.__urn,
    channel: one.channel,
    chaincode: one.chaincode,
    function: one.function,
    args: one.args ?? [],
    transientData: {},
    endorsingOrganizations: one.endorsingOrganizations ?? [],
    visibility: "full",
    allowInvalid: false,
    generation: item.generation ?? 1,
  };
}

/** Says which items a step will submit, with their txIds (the first 20): what a preview shows on the resource's row. */
function showPending(urn: string, pending: readonly LedgerTransactionsPlanned[]): void {
  if (pending.length === 0) return;
  const shown = pending.slice(0, 20).map((t) => `${t.key} → ${t.txId ?? "(known once its inputs are)"}`);
  const more = pending.length > shown.length ? `, and ${String(pending.length - shown.length)} more` : "";
  log("info", `${KIND} ${nameFromUrn(urn)}: ${String(pending.length)} to submit: ${shown.join(", ")}${more}`, urn);
}

async function check(
  olds: Partial<LedgerTransactionsInputs>,
  news: LedgerTransactionsInputs,
): Promise<dynamic.CheckResult> {
  const failures = ledgerTransactionsInputFailures(news);
  return checkSession(news, news.__urn, failures, () => {
    // A list not known yet (preview: made from another resource's outputs) shows no txIds.
    if (!Array.isArray(news.transactions)) return Promise.resolve({ inputs: news });
    const transactions = plannedItems(olds, news);
    // A first create has no diff step: its preview shows what will be submitted from here.
    if (olds.transactions === undefined) showPending(news.__urn, transactions);
    return Promise.resolve({ inputs: { ...news, transactions } });
  });
}

/** The items the last run recorded as committed, by key, with the txId check had planned for each. */
function recorded(
  olds: LedgerTransactionsOutputs | undefined,
): Map<string, LedgerTransactionsCommitted & { planned: string }> {
  const planned = olds?.__planned ?? {};
  return new Map((olds?.committed ?? []).map((c) => [c.key, { ...c, planned: planned[c.key] ?? c.txId }]));
}

/** Whether the item's planned transaction is the one already recorded as committed. */
function isRecorded(item: LedgerTransactionsPlanned, done: ReturnType<typeof recorded>): boolean {
  return item.txId !== undefined && done.get(item.key)?.planned === item.txId;
}

const SETTINGS = [
  "channelCapability",
  "chaincode",
  "trustedRootCertificates",
  "ordered",
  "maxInFlight",
  "timeouts",
] as const;

async function diff(
  _id: string,
  olds: LedgerTransactionsOutputs,
  news: LedgerTransactionsInputs,
): Promise<dynamic.DiffResult> {
  if (!Array.isArray(news.transactions)) return { changes: true, replaces: [], deleteBeforeReplace: false };
  const done = recorded(olds);
  const name = nameFromUrn(news.__urn);
  const keys = new Set(news.transactions.map((t) => t.key));
  const removed = [...done.values()].filter((c) => !keys.has(c.key));
  const pending = news.transactions.filter((t) => !isRecorded(t, done));
  for (const c of removed) {
    log(
      "info",
      `${KIND} ${name}: '${c.key}' is no longer listed: its transaction ${c.txId} stays on the ledger (it is ` +
        "append-only); nothing is sent for it, and it leaves the outputs",
      news.__urn,
    );
  }
  showPending(news.__urn, pending);
  const changed =
    sessionChanged(olds, news) ||
    canonical(olds.channel) !== canonical(news.channel) ||
    SETTINGS.some((k) => canonical(olds[k]) !== canonical(news[k]));
  return Promise.resolve({
    changes: changed || pending.length > 0 || removed.length > 0,
    replaces: [],
    deleteBeforeReplace: false,
  });
}

/** The outputs: the settings without keys and PIN (those under `credentials`), and the committed items in list order. */
function outputsOf(
  i: LedgerTransactionsInputs,
  outcomes: ReadonlyMap<string, { outcome: LedgerTransactionsCommitted; planned: string; generation: number }>,
): LedgerTransactionsOutputs {
  const { identity: _i, gateway: _g, ...rest } = i;
  const committed = i.transactions.flatMap((t) => {
    const o = outcomes.get(t.key);
    return o === undefined ? [] : [o];
  });
  return {
    ...rest,
    ...sessionOutputs(i),
    committed: committed.map((c) => c.outcome),
    __planned: Object.fromEntries(committed.map((c) => [c.outcome.key, c.planned])),
    __generations: Object.fromEntries(committed.map((c) => [c.outcome.key, c.generation])),
  };
}

function outcomeOf(key: string, o: ItemOutcome): LedgerTransactionsCommitted {
  return {
    key,
    txId: o.txId,
    validationCode: o.validationCode,
    validationCodeNumber: o.validationCodeNumber,
    blockNumber: o.blockNumber.toString(),
  };
}

/** Submits (or adopts) every item not yet recorded; carries the recorded ones. Fails naming each failed item. */
async function apply(
  i: LedgerTransactionsInputs,
  olds: LedgerTransactionsOutputs | undefined,
  step: keyof Timeouts,
): Promise<{ id: string; outs: LedgerTransactionsOutputs }> {
  const name = nameFromUrn(i.__urn);
  const done = recorded(olds);
  const outcomes = new Map<string, { outcome: LedgerTransactionsCommitted; planned: string; generation: number }>();
  const todo: LedgerTransactionsPlanned[] = [];
  for (const item of i.transactions) {
    const was = done.get(item.key);
    if (was !== undefined && isRecorded(item, done)) {
      const { planned, ...outcome } = was;
      outcomes.set(item.key, { outcome, planned, generation: olds?.__generations[item.key] ?? item.generation ?? 1 });
    } else todo.push(item);
  }
  const failed: { key: string; message: string }[] = [];
  const frame = resourceFrame(`${KIND} ${name}`, { urn: i.__urn });
  const notStarted = await withSession(i, step, frame, async ({ gateway, connection }) => {
    const shown = progress(i.__urn, todo.length);
    const reached = { block: -1n, endorsers: new Set<string>(), submitted: 0, adopted: 0 };
    const run = await mapBounded(
      todo,
      submissionLimit(i),
      async (item) => {
        const outcome = await submitItem(gateway, connection, requestOf(i, item), step, i.__urn);
        outcomes.set(item.key, {
          outcome: outcomeOf(item.key, outcome),
          planned: item.txId ?? outcome.txId,
          generation: outcome.generation,
        });
        if (outcome.adopted) reached.adopted++;
        else reached.submitted++;
        if (outcome.blockNumber > reached.block) reached.block = outcome.blockNumber;
        for (const org of outcome.endorsers) reached.endorsers.add(org);
        shown.done();
        // In list order the next item may read what this one wrote: its endorsing peers must have its block.
        if (i.ordered === true) await peersAt(gateway, i.channel, i.__urn, outcome.blockNumber, outcome.endorsers);
      },
      // In list order, a later item may depend on a failed one.
      { stopAfter: (o) => !o.ok && i.ordered === true },
    );
    // In list order, whatever order they failed in.
    for (const [index, item] of todo.entries()) {
      const o = run.outcomes[index];
      if (o?.ok !== false) continue;
      // The single transaction's message offers allowInvalid, which a list item does not have.
      failed.push({
        key: item.key,
        message: messageOf(o.error).replace(/, or set allowInvalid: true to record it$/, ""),
      });
    }
    // Concurrently, once for the batch: each endorsing organization's peer has the highest block of any item.
    if (i.ordered !== true && reached.block >= 0n)
      await peersAt(gateway, i.channel, i.__urn, reached.block, [...reached.endorsers]);
    if (reached.submitted + reached.adopted > 0) {
      const adopted = reached.adopted > 0 ? ` (${String(reached.adopted)} of them adopted, already committed)` : "";
      log(
        "info",
        `${KIND} ${name}: ${String(reached.submitted + reached.adopted)} transactions committed VALID${adopted}, ` +
          `up to block ${reached.block.toString()}`,
        i.__urn,
      );
    }
    return run.notStarted;
  });
  const outs = outputsOf(i, outcomes);
  const id = batchId(i.__urn);
  if (failed.length === 0) return { id, outs };
  const items = failed.map((f) => `'${f.key}': ${f.message}`);
  const waiting = notStarted > 0 ? `; ${String(notStarted)} not started (ordered: each waits for the one before)` : "";
  const summary =
    `${KIND} ${name}: ${String(failed.length)} of ${String(todo.length)} transactions failed${waiting}; the ` +
    `${String(outs.committed.length)} committed are recorded, and the next \`pulumi up\` submits the rest`;
  // The engine shows the reasons of a partial failure (not the message): the summary first, then each item.
  throw new LedgerTransactionsError({
    message: `${summary}. ${items.join("; ")}`,
    id,
    properties: { ...outs },
    reasons: [summary, ...items],
  });
}

export const ledgerTransactionsProvider = {
  check,
  diff,
  create(inputs: LedgerTransactionsInputs): Promise<dynamic.CreateResult> {
    return apply(inputs, undefined, "create");
  },
  async update(
    _id: string,
    olds: LedgerTransactionsOutputs,
    news: LedgerTransactionsInputs,
  ): Promise<dynamic.UpdateResult> {
    const { outs } = await apply(news, olds, "update");
    return { outs };
  },
  /** Refresh: each recorded txId read back through qscc, `maxInFlight` at once (ledger-transactions-refresh.ts). */
  read: readLedgerTransactions,
  /** The ledger is append-only: destroying the resource sends nothing. */
  delete(_id: string, props: LedgerTransactionsOutputs): Promise<void> {
    log(
      "info",
      `${KIND} ${nameFromUrn(props.__urn)}: its ${String(props.committed.length)} transactions stay on the ledger (it is append-only)`,
      props.__urn,
    );
    return Promise.resolve();
  },
};
