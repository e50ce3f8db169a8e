/**
 * ledger.LedgerTransactions inputs and outputs, and their checks (see ledger-transactions.ts): the shared settings are
 * a session's (session/session-checks.ts, once), and every item is checked with the single transaction's own field
 * checks (ledger-transaction-inputs.ts): one rule for both resources. What check sets on each item is planned in
 * ledger-transaction-txid.ts.
 */
import * as crypto from "node:crypto";
import type { FieldFailure } from "../../errors";
import { checkTimeouts } from "../common";
import type { Timeouts } from "../common";
import type { LedgerTransactionsCommitted, LedgerTransactionsPlanned, LedgerTransactionsShape } from "./ledger-shapes";
import { argsFailures, organizationsFailures } from "./ledger-transaction-inputs";
import { hasUnknown, isRecord } from "./ledger-values";
import { nonEmpty, sessionFailures } from "./session/session-checks";
import type { SessionOutputs } from "./session/ledger-session";

/** How many items are in flight (endorsed, submitted, waiting for their commit status) at once by default. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** The most items in flight a resource may ask for. */
export const MAX_IN_FLIGHT_LIMIT = 256;

/** Items submitted at once: one with `ordered` (each may read what the one before wrote), else `maxInFlight`. */
export function submissionLimit(i: Pick<LedgerTransactionsShape, "ordered" | "maxInFlight">): number {
  return i.ordered === true ? 1 : lookupLimit(i);
}

/** Recorded txIds a refresh looks up at once: `maxInFlight`, ordered or not (a lookup depends on no other). */
export function lookupLimit(i: Pick<LedgerTransactionsShape, "maxInFlight">): number {
  return i.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
}

/** The inputs as the provider gets them: the shape (ledger-shapes.ts), its plumbing, and what check sets. */
export interface LedgerTransactionsInputs extends Omit<LedgerTransactionsShape, "transactions" | "timeouts"> {
  /** Plumbing (decision 0007): the resource's URN, which every item's nonce is derived from. */
  __urn: string;
  /** The list, each item with the generation and txId check planned for it (ledger-shapes.ts). */
  transactions: LedgerTransactionsPlanned[];
  timeouts?: Timeouts;
}

/** The outputs: the inputs with the gateway and identity as the state keeps them, and the committed items. */
export interface LedgerTransactionsOutputs
  extends Omit<LedgerTransactionsInputs, "gateway" | "identity">, SessionOutputs {
  /** The committed items, in the order of the list. */
  committed: LedgerTransactionsCommitted[];
  /**
   * Plumbing: key → the txId check planned for the item when it was committed (the committed txId differs when an
   * invalid transaction burnt the planned one). An item whose planned txId is unchanged needs nothing.
   */
  __planned: Record<string, string>;
  /** Plumbing: key → the generation the committed transaction has. */
  __generations: Record<string, number>;
}

/** The resource's id: the same for every run of one resource. */
export function batchId(urn: string): string {
  return crypto.createHash("sha256").update(urn).digest("hex").slice(0, 32);
}

function listFailures(list: unknown): FieldFailure[] {
  if (!Array.isArray(list) && hasUnknown(list)) return []; // the whole list is known only once applied (preview)
  if (!Array.isArray(list) || list.length === 0) {
    return [
      {
        property: "transactions",
        reason: "is required: a list of { key, function, args?, chaincode?, endorsingOrganizations? }, at least one",
      },
    ];
  }
  const failures: FieldFailure[] = [];
  const seen = new Map<string, number>();
  list.forEach((item: unknown, index) => {
    const at = `transactions[${String(index)}]`;
    if (!isRecord(item)) {
      failures.push({ property: at, reason: "must be { key, function, args?, chaincode?, endorsingOrganizations? }" });
      return;
    }
    const key = item["key"];
    if (hasUnknown(key)) return;
    if (typeof key !== "string" || key.trim() === "") {
      failures.push({
        property: `${at}.key`,
        reason: "is required: a non-empty string of your choosing, unique in the list; the item's txId derives from it",
      });
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      failures.push({
        property: `${at}.key`,
        reason: `'${key}' is also the key of transactions[${String(first)}]: every key must be unique`,
      });
    } else seen.set(key, index);
    if ("transientData" in item) {
      failures.push({
        property: `${at}.transientData`,
        reason: "is not supported in a list: use a LedgerTransaction for a transaction with private data",
      });
    }
  });
  return failures;
}

/**
 * Each item's own fields, checked as a LedgerTransaction's (under `transactions[i].`), and the resource's `chaincode`
 * once for the items that name none (`shared`).
 */
function itemFailures(
  items: readonly Record<string, unknown>[],
  chaincode: unknown,
): { shared: FieldFailure[]; failures: FieldFailure[] } {
  let shared: FieldFailure | undefined;
  const failures = items.flatMap((item, index) => {
    const own = nonEmpty("chaincode", item["chaincode"] ?? chaincode, "the chaincode name, e.g. 'basic'");
    if (own.length > 0 && item["chaincode"] === undefined) {
      shared = {
        property: "chaincode",
        reason: `is required unless every item names its chaincode (transactions[${String(index)}] does not): e.g. 'basic'`,
      };
    }
    return [
      ...(item["chaincode"] === undefined ? [] : own),
      ...nonEmpty("function", item["function"], "the chaincode function to invoke, e.g. 'CreateAsset'"),
      ...argsFailures("args", item["args"]),
      ...organizationsFailures(item["endorsingOrganizations"]),
    ].map((f) => ({ ...f, property: `transactions[${String(index)}].${f.property}` }));
  });
  return { shared: shared === undefined ? [] : [shared], failures };
}

/**
 * Every problem with the inputs, as check failures naming the property and the fix: the shared settings (the
 * session's, the chaincode, the deadlines), the list, then each item's. Never throws.
 */
export function ledgerTransactionsInputFailures(news: Partial<LedgerTransactionsInputs>): FieldFailure[] {
  const n = news as Record<string, unknown>;
  const list = n["transactions"];
  const failures = listFailures(list);
  if (failures.some((f) => f.property === "transactions")) return failures;
  const ordered = n["ordered"];
  if (ordered !== undefined && typeof ordered !== "boolean" && !hasUnknown(ordered))
    failures.push({ property: "ordered", reason: "must be true or false" });
  const inFlight = n["maxInFlight"];
  if (
    inFlight !== undefined &&
    !hasUnknown(inFlight) &&
    (typeof inFlight !== "number" || !Number.isInteger(inFlight) || inFlight < 1 || inFlight > MAX_IN_FLIGHT_LIMIT)
  ) {
    failures.push({
      property: "maxInFlight",
      reason: `must be a whole number from 1 to ${String(MAX_IN_FLIGHT_LIMIT)} (the items in flight at once)`,
    });
  }
  const items = itemFailures(Array.isArray(list) ? list.filter(isRecord) : [], n["chaincode"]);
  const session = sessionFailures(n, "required");
  const deadlines = checkTimeouts(n["timeouts"]);
  return [...session, ...items.shared, ...deadlines, ...failures, ...items.failures];
}
