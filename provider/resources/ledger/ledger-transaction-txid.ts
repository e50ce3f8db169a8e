/**
 * Exactly-once identifiers of a ledger.LedgerTransactionSubmission: the nonce and txId of a generation, derived from
 * what every step has without any key (see ledger-transaction.ts and docs/decisions/0016-ledger-nonce-without-a-key.md).
 */
import * as crypto from "node:crypto";
import { computeTxId, newIdentity, serializeIdentity } from "../../ledger";
import { isRecord } from "./ledger-transaction-inputs";
import type { LedgerTransactionInputs } from "./ledger-transaction-inputs";

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

export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

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

/**
 * Whether two checked inputs make the same transaction: the same transaction fields and the same transient data.
 * Both sides are inputs, which Pulumi keeps in state (transient data as a secret) and hands to check decrypted, so
 * nothing derived from transient data is ever stored to compare it.
 */
export function sameTransaction(
  olds: Partial<LedgerTransactionInputs>,
  news: Partial<LedgerTransactionInputs>,
): boolean {
  return (
    canonical(transactionFields(olds)) === canonical(transactionFields(news)) &&
    canonical(olds.transientData ?? {}) === canonical(news.transientData ?? {})
  );
}
