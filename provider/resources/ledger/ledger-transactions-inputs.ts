/**
 * ledger.LedgerTransactions inputs and outputs, and their checks (see ledger-transactions.ts). Every item is checked
 * with the single transaction's own checks (ledgerTransactionInputFailures, which includes the key-type and channel
 * capability check), on the shared settings plus the item's fields: one rule for both resources.
 */
import * as crypto from "node:crypto";
import type { FieldFailure } from "../../errors";
import { hasUnknown, isRecord, ledgerTransactionInputFailures } from "./ledger-transaction-inputs";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
  LedgerIdentityInputs,
} from "./ledger-transaction-inputs";
import type { Timeouts } from "../common";
import type { LedgerTransactionsItem as LedgerTransactionsItemShape, LedgerTransactionsShape } from "./ledger-shapes";

/** How many items are in flight (endorsed, submitted, waiting for their commit status) at once by default. */
export const DEFAULT_MAX_IN_FLIGHT = 16;
/** The most items in flight a resource may ask for. */
export const MAX_IN_FLIGHT_LIMIT = 256;

/** One transaction of the list (declared in ledger-shapes.ts), with what check sets. */
export interface LedgerTransactionsItem extends LedgerTransactionsItemShape {
  /** Set by check: the generation of the item's transaction (bumped when its transaction changes). */
  generation?: number;
  /** Set by check: the txId the item's next submission uses (what the preview shows). */
  txId?: string;
}

/** The inputs as the provider gets them: the shape (ledger-shapes.ts), its plumbing, and what check sets. */
export interface LedgerTransactionsInputs extends Omit<LedgerTransactionsShape, "transactions" | "timeouts"> {
  /** Plumbing (decision 0007): the resource's URN, which every item's nonce is derived from. */
  __urn: string;
  transactions: LedgerTransactionsItem[];
  timeouts?: Timeouts;
}

/** What one committed item reports. */
export interface LedgerTransactionsOutcome {
  key: string;
  txId: string;
  validationCode: string;
  validationCodeNumber: number;
  blockNumber: string;
}

export interface LedgerTransactionsOutputs
  extends
    Omit<LedgerTransactionsInputs, "gateway" | "identity">,
    Pick<LedgerTransactionOutputs, "gateway" | "identity" | "credentials"> {
  /** The committed items, in the order of the list. */
  committed: LedgerTransactionsOutcome[];
  /**
   * Plumbing: key → the txId check planned for the item when it was committed (the committed txId differs when an
   * invalid transaction burnt the planned one). An item whose planned txId is unchanged needs nothing.
   */
  __planned: Record<string, string>;
  /** Plumbing: key → the generation the committed transaction has. */
  __generations: Record<string, number>;
}

/** The key an item's nonce is derived from, in place of a LedgerTransaction's URN (never a resource's URN). */
export function itemUrn(urn: string, key: string): string {
  return `${urn}#item/${key}`;
}

/** The resource's id: the same for every run of one resource. */
export function batchId(urn: string): string {
  return crypto.createHash("sha256").update(urn).digest("hex").slice(0, 32);
}

/** An item as a LedgerTransaction's inputs: the shared settings and the item's transaction. */
export function itemAsTransaction(i: LedgerTransactionsInputs, item: LedgerTransactionsItem): LedgerTransactionInputs {
  return {
    __urn: itemUrn(i.__urn, item.key),
    gateway: i.gateway,
    channel: i.channel,
    ...(i.channelCapability === undefined ? {} : { channelCapability: i.channelCapability }),
    chaincode: item.chaincode ?? i.chaincode ?? "",
    function: item.function,
    args: item.args ?? [],
    identity: i.identity,
    endorsingOrganizations: item.endorsingOrganizations ?? [],
    trustedRootCertificates: i.trustedRootCertificates,
    ...(i.timeouts === undefined ? {} : { timeouts: i.timeouts }),
  };
}

/** The properties that belong to an item; every other failure is about the shared settings. */
const ITEM_PROPERTIES = /^(chaincode|function|args|endorsingOrganizations)(\.|\[|$)/;

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

/** Every problem with the inputs, as check failures naming the property and the fix. Never throws. */
export function ledgerTransactionsInputFailures(news: Partial<LedgerTransactionsInputs>): FieldFailure[] {
  const n = news as Record<string, unknown>;
  const failures = listFailures(n["transactions"]);
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
  const list = n["transactions"];
  if (failures.some((f) => f.property === "transactions")) return failures;
  const items = Array.isArray(list) ? list.filter(isRecord) : [];
  // The single transaction's checks, per item: the shared settings' failures once, each item's under its index. The
  // shared settings (the certificates, keys and trust roots: milliseconds each to parse) are checked with the first
  // item only: their failures are the same for every item, and no item property's check reads them.
  const shared = new Map<string, FieldFailure>();
  items.forEach((item, index) => {
    const asOne = {
      ...(index === 0 ? n : {}),
      chaincode: item["chaincode"] ?? n["chaincode"],
      function: item["function"],
      args: item["args"],
      endorsingOrganizations: item["endorsingOrganizations"],
    } as unknown as Partial<LedgerTransactionInputs>;
    for (const f of ledgerTransactionInputFailures(asOne)) {
      if (!ITEM_PROPERTIES.test(f.property)) {
        if (index === 0) shared.set(`${f.property}\n${f.reason}`, f);
      } else if (f.property.startsWith("chaincode") && item["chaincode"] === undefined) {
        shared.set("chaincode", {
          property: "chaincode",
          reason: `is required unless every item names its chaincode (transactions[${String(index)}] does not): e.g. 'basic'`,
        });
      } else failures.push({ ...f, property: `transactions[${String(index)}].${f.property}` });
    }
  });
  return [...shared.values(), ...failures];
}

export type { LedgerIdentityInputs };
