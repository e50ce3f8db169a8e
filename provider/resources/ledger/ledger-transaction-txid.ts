/**
 * Exactly-once identifiers: the nonce and txId of a ledger transaction's generation, derived from what every step has
 * without any key (see ledger-transaction.ts and docs/decisions/0016-ledger-nonce-without-a-key.md), whether two
 * inputs make the same transaction, and a LedgerTransactions item's key, transaction and planned txId.
 */
import * as crypto from "node:crypto";
import { computeTxId, newIdentity, serializeIdentity } from "../../ledger";
import type { LedgerTransactionsPlanned } from "./ledger-shapes";
import type { LedgerTransactionInputs } from "./ledger-transaction-inputs";
import type { LedgerTransactionsInputs } from "./ledger-transactions-inputs";
import { canonical, hasUnknown } from "./ledger-values";

/** Domain separation of the nonce hash (v1, state written by 0.1, was an HMAC keyed by the private key). */
const NONCE_DOMAIN = "pulumi-opsledger/ledger-nonce/v2";

function lengthPrefixed(bytes: Uint8Array): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(bytes.length);
  return Buffer.concat([length, bytes]);
}

/** The last identity serialized: a LedgerTransactions derives every item's txId from the same one. */
let lastCreator: { mspId: string; certificatePem: string; creator: Uint8Array } | undefined;

/** The serialized creator (msp.SerializedIdentity) of an identity (a copy: the caller may keep or change it). */
export function creatorOf(identity: { mspId: string; certificatePem: string }): Uint8Array {
  if (lastCreator?.mspId !== identity.mspId || lastCreator.certificatePem !== identity.certificatePem) {
    const creator = serializeIdentity(newIdentity(identity.mspId, identity.certificatePem));
    lastCreator = { mspId: identity.mspId, certificatePem: identity.certificatePem, creator };
  }
  return lastCreator.creator.slice();
}

/**
 * The first 24 bytes of SHA-256(domain ‖ len ‖ creator ‖ len ‖ URN ‖ uint64-BE generation): the same for every retry
 * of a generation, different for every resource, creator and generation, computable without the key.
 */
export function deriveNonce(creator: Uint8Array, urn: string, generation: number): Uint8Array {
  const gen = Buffer.alloc(8);
  gen.writeBigUInt64BE(BigInt(generation));
  const hash = crypto
    .createHash("sha256")
    .update(NONCE_DOMAIN)
    .update(lengthPrefixed(creator))
    .update(lengthPrefixed(Buffer.from(urn, "utf8")))
    .update(gen);
  return new Uint8Array(hash.digest().subarray(0, 24));
}

/** The txId a submission of `generation` uses: hex(SHA-256(nonce ‖ serialized creator)). */
export function deriveTxId(
  identity: { mspId: string; certificatePem: string },
  urn: string,
  generation: number,
): string {
  const creator = creatorOf(identity);
  return computeTxId(deriveNonce(creator, urn, generation), creator);
}

/** The URN a compensating (onDestroy) transaction is keyed by, so it never shares a txId with the submission. */
export const onDestroyUrn = (urn: string): string => `${urn}#onDestroy`;

/** What makes the transaction: a change of any of these is a new transaction (replace). The signer is not part of it. */
export function transactionFields(i: Partial<LedgerTransactionInputs>) {
  return {
    channel: i.channel,
    chaincode: i.chaincode,
    function: i.function,
    args: i.args ?? [],
    endorsingOrganizations: i.endorsingOrganizations ?? [],
    visibility: i.visibility ?? "full",
    identity: { mspId: i.identity?.mspId, certificatePem: i.identity?.certificatePem },
  };
}

/** The transaction fields and the transient data of inputs, as one canonical text. */
function transactionKey(i: Partial<LedgerTransactionInputs>): string {
  const fields = transactionFields(i);
  return canonical({ fields, transientData: i.transientData ?? {} });
}

/**
 * Whether two checked inputs make the same transaction: the same transaction fields and the same transient data.
 * Both sides are inputs, which Pulumi keeps in state (transient data as a secret) and hands to check decrypted, so
 * nothing derived from transient data is ever stored to compare it.
 */
export function sameTransaction(
  olds: Partial<LedgerTransactionInputs>,
  news: Partial<LedgerTransactionInputs>,
): boolean {
  return transactionKey(olds) === transactionKey(news);
}

/** The key an item's nonce is derived from, in place of a LedgerTransaction's URN (never a resource's URN). */
export function itemUrn(urn: string, key: string): string {
  return `${urn}#item/${key}`;
}

/** An item as a LedgerTransaction's inputs: the shared settings and the item's transaction. */
export function itemAsTransaction(
  i: LedgerTransactionsInputs,
  item: LedgerTransactionsPlanned,
): LedgerTransactionInputs {
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

/**
 * The list as check sets it: each item keeps its generation (and txId) while its transaction is unchanged and gets
 * the next one when it changes; its txId derives from its key, not its place. An item not known yet gets none.
 */
export function plannedItems(
  olds: Partial<LedgerTransactionsInputs>,
  news: LedgerTransactionsInputs,
): LedgerTransactionsPlanned[] {
  const before = new Map((Array.isArray(olds.transactions) ? olds.transactions : []).map((item) => [item.key, item]));
  const sharedKnown = !hasUnknown([news.__urn, news.channel, news.chaincode, news.identity]);
  return news.transactions.map((item): LedgerTransactionsPlanned => {
    const { generation: _g, txId: _t, ...declared } = item;
    if (!sharedKnown || hasUnknown(declared)) return declared; // its txId is shown once it is known
    const old = before.get(item.key);
    const now = itemAsTransaction(news, declared);
    const same =
      old?.generation !== undefined &&
      old.txId !== undefined &&
      olds.identity !== undefined &&
      sameTransaction(itemAsTransaction(olds as LedgerTransactionsInputs, old), now);
    const generation = same ? (old.generation ?? 1) : (old?.generation ?? 0) + 1;
    const txId =
      same && old.txId !== undefined ? old.txId : deriveTxId(news.identity, itemUrn(news.__urn, item.key), generation);
    return { ...declared, generation, txId };
  });
}
