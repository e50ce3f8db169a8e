/**
 * Exactly-once identifiers of a ledger.LedgerTransactionSubmission: the nonce and txId of a generation, and the keyed
 * digest of the transaction inputs (see ledger-transaction.ts).
 */
import * as crypto from "node:crypto";
import { computeTxId, newIdentity, serializeIdentity } from "../ledger";
import { isRecord } from "./ledger-transaction-inputs";
import type { LedgerIdentityInputs, LedgerTransactionInputs } from "./ledger-transaction-inputs";

function hmacKey(privateKeyPem: string): Buffer {
  const der = crypto.createPrivateKey(privateKeyPem).export({ type: "pkcs8", format: "der" });
  return crypto.createHash("sha256").update(der).digest();
}

/** The first 24 bytes of HMAC-SHA256(SHA-256(private key DER), URN ‖ uint64-BE generation). */
export function deriveNonce(privateKeyPem: string, urn: string, generation: number): Uint8Array {
  const gen = Buffer.alloc(8);
  gen.writeBigUInt64BE(BigInt(generation));
  const mac = crypto.createHmac("sha256", hmacKey(privateKeyPem)).update(Buffer.from(urn, "utf8")).update(gen);
  return new Uint8Array(mac.digest().subarray(0, 24));
}

/** The txId a submission of `generation` uses: hex(SHA-256(nonce ‖ serialized creator)). */
export function deriveTxId(identity: LedgerIdentityInputs, urn: string, generation: number): string {
  const creator = serializeIdentity(newIdentity(identity.mspId, identity.certificatePem));
  return computeTxId(deriveNonce(identity.privateKeyPem, urn, generation), creator);
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

/** What makes the transaction: a change of any of these is a new transaction (replace). */
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

/** HMAC of every transaction input, transient data included, keyed by the identity's key: it reveals nothing. */
export function transactionDigest(i: LedgerTransactionInputs): string {
  const data = canonical({ ...transactionFields(i), transientData: i.transientData ?? {} });
  return crypto.createHmac("sha256", hmacKey(i.identity.privateKeyPem)).update(`digest\0${data}`).digest("hex");
}
