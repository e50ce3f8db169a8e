/**
 * Refresh of a ledger.LedgerTransactions: every recorded txId read back through qscc (GetTransactionByID), at most
 * `maxInFlight` at once (the bound its submissions use; `ordered` does not apply, a read depends on no other). An item
 * the ledger does not have leaves the outputs with a warning naming it. A lookup that fails fails the refresh, naming
 * each such item, after every other lookup has settled; the state is then unchanged, as with any failed refresh.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerError } from "../../errors";
import { mapBounded } from "../../ledger/bounded-map";
import { log } from "../../runtime/context";
import { messageOf, nameFromUrn } from "../common";
import type { LedgerTransactionsCommitted } from "./ledger-shapes";
import { lookup } from "./ledger-transaction-submit";
import { lookupLimit } from "./ledger-transactions-inputs";
import type { LedgerTransactionsOutputs } from "./ledger-transactions-inputs";
import { resourceFrame, sessionOfOutputs, withSession } from "./session/ledger-session";

/** Items named per distinct failure in a refresh's error; the rest are counted. */
const NAMED_PER_FAILURE = 20;

/** What a refresh found of the recorded items, each in the order of `committed`. */
export interface RecordedOnLedger {
  /** Found on the ledger. */
  readonly kept: readonly LedgerTransactionsCommitted[];
  /** The ledger does not have their txId. */
  readonly missing: readonly LedgerTransactionsCommitted[];
  /** Their lookup failed; `error` is what it failed with. */
  readonly failed: readonly { readonly item: LedgerTransactionsCommitted; readonly error: unknown }[];
}

/**
 * Looks every recorded item's txId up once with `find` (undefined: not on the ledger), at most `limit` at once. A
 * failed lookup is reported with its item; the other lookups still run and their answers are kept.
 */
export async function lookUpRecorded(
  committed: readonly LedgerTransactionsCommitted[],
  limit: number,
  find: (txId: string) => Promise<unknown>,
): Promise<RecordedOnLedger> {
  const { outcomes } = await mapBounded(committed, limit, async (c) => (await find(c.txId)) !== undefined);
  const kept: LedgerTransactionsCommitted[] = [];
  const missing: LedgerTransactionsCommitted[] = [];
  const failed: { item: LedgerTransactionsCommitted; error: unknown }[] = [];
  for (const [index, item] of committed.entries()) {
    const o = outcomes[index];
    if (o === undefined) continue; // every item starts: no stopAfter
    if (!o.ok) failed.push({ item, error: o.error });
    else if (o.value) kept.push(item);
    else missing.push(item);
  }
  return { kept, missing, failed };
}

/** The refresh's error: the failed items grouped by what they failed with, each group's first items named. */
export function refreshFailure(subject: string, found: RecordedOnLedger): LedgerError {
  const byMessage = new Map<string, LedgerTransactionsCommitted[]>();
  for (const { item, error } of found.failed) {
    const message = messageOf(error);
    byMessage.set(message, [...(byMessage.get(message) ?? []), item]);
  }
  const groups = [...byMessage].map(([message, items]) => {
    const named = items.slice(0, NAMED_PER_FAILURE).map((c) => `'${c.key}' (${c.txId})`);
    const more = items.length > named.length ? ` and ${String(items.length - named.length)} more` : "";
    return `${named.join(", ")}${more}: ${message}`;
  });
  const total = found.failed.length + found.kept.length + found.missing.length;
  const [first] = found.failed;
  return new LedgerError({
    message:
      `${subject}: refresh could not read ${String(found.failed.length)} of ${String(total)} recorded transactions ` +
      `back, so the state is unchanged: ${groups.join("; ")}`,
    transactionId: found.failed.length === 1 ? first?.item.txId : undefined,
    cause: first?.error,
  });
}

/** Refresh: each recorded txId read back; one the ledger does not have leaves the outputs. */
export async function readLedgerTransactions(
  id: string,
  props: LedgerTransactionsOutputs,
): Promise<dynamic.ReadResult<LedgerTransactionsOutputs>> {
  const subject = `LedgerTransactions ${nameFromUrn(props.__urn)}`;
  return withSession(sessionOfOutputs(props), "create", resourceFrame(subject), async ({ gateway }) => {
    const found = await lookUpRecorded(props.committed, lookupLimit(props), (txId) =>
      lookup(gateway, props.channel, txId),
    );
    if (found.failed.length > 0) throw refreshFailure(subject, found);
    for (const c of found.missing)
      log("warning", `${subject}: '${c.key}' (${c.txId}) is not on the ledger`, props.__urn);
    const keys = new Set(found.kept.map((c) => c.key));
    const only = <T>(m: Record<string, T>) => Object.fromEntries(Object.entries(m).filter(([k]) => keys.has(k)));
    return {
      id,
      props: {
        ...props,
        committed: [...found.kept],
        __planned: only(props.__planned),
        __generations: only(props.__generations),
      },
    };
  });
}
