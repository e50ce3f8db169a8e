/**
 * A committed transaction as a program reads it: qscc's ProcessedTransaction decoded (creator, chaincode, function,
 * arguments, read/write set, endorsers) and verified as `opsledger-ledger verify` verifies it (verify.ts), in a
 * JSON-safe shape (bytes as `{ text?, base64 }`, 64-bit numbers as decimal strings). Pure: no gateway, no clock but
 * the one given.
 */
import { codecs } from "./codec";
import { deserializeIdentity } from "./identity";
import { LedgerDecodeError } from "../errors/ledger/ledger-decode-error";
import type { ProcessedTransaction } from "./messages";
import { parseVisibility } from "./proposal";
import type { Visibility } from "./proposal";
import { certificateSubject } from "./signer-keys";
import { unwrapChaincodeAction, unwrapEnvelope } from "./unwrap";
import type { UnwrappedChaincodeAction, UnwrappedEnvelope } from "./unwrap";
import { validationCodeName } from "../errors/ledger/validation-codes";
import { VerificationError } from "../errors/ledger/verification-error";
import { verifyTransactionEnvelope } from "./verify";
import type { EnvelopeVerifyOptions } from "./verify";

/** Bytes as text (UTF-8; absent when they are not valid UTF-8) and as base64. */
export interface LedgerBytesView {
  readonly text?: string;
  readonly base64: string;
}

/** An identity named without its certificate: the MSP id and the certificate's subject. */
export interface LedgerIdentityView {
  readonly mspId: string;
  readonly subject: string;
}

/** One chaincode namespace's reads and writes. */
export interface LedgerNamespaceView {
  readonly namespace: string;
  /** Each key read, with the version (block and transaction number, decimal) it had; no version: it did not exist. */
  readonly reads: readonly { readonly key: string; readonly version?: { blockNum: string; txNum: string } }[];
  readonly writes: readonly { readonly key: string; readonly isDelete: boolean; readonly value: LedgerBytesView }[];
}

/** How the envelope verified, as `opsledger-ledger verify` reports it. */
export interface LedgerVerificationView {
  /** Every check passed: the creator's signature, txId, proposal hash, endorsements (and chains, when trusted roots were given). */
  readonly ok: boolean;
  /** Whether certificate chains were checked against trusted roots. */
  readonly chainsVerified: boolean;
  /** The checks that passed, in order. */
  readonly checks: readonly string[];
  /** The first failing check: what differs, the code a committer would give it, and why. */
  readonly failure?: { readonly mismatch: string; readonly validationCode: string; readonly message: string };
}

/** ProcessedTransaction, decoded and verified. */
export interface TransactionRecord {
  readonly txId: string;
  readonly channel: string;
  /** The committer's TxValidationCode by name ("VALID", "MVCC_READ_CONFLICT", ...) and number. */
  readonly validationCode: string;
  readonly validationCodeNumber: number;
  /** The block holding the transaction (decimal). */
  readonly blockNumber: string;
  /** The channel header's timestamp (ISO 8601), set by the client. */
  readonly timestamp?: string;
  readonly creator?: LedgerIdentityView;
  readonly chaincode?: { readonly name: string; readonly version: string };
  /** The visibility mode of the proposal payload; function and args are absent unless "full". */
  readonly visibility?: Visibility | "unrecognized";
  /** The invoked function (args[0] of the chaincode input). */
  readonly function?: string;
  readonly args?: readonly LedgerBytesView[];
  /** The chaincode's response as endorsed. */
  readonly response?: { readonly status: number; readonly message: string; readonly payload: LedgerBytesView };
  readonly readWriteSet?: readonly LedgerNamespaceView[];
  readonly event?: { readonly name: string; readonly payload: LedgerBytesView };
  readonly endorsers: readonly LedgerIdentityView[];
  /** Why the envelope could not be decoded (the committer's code says the rest), when it could not. */
  readonly decodeError?: string;
  readonly verification: LedgerVerificationView;
  /** The ProcessedTransaction qscc returned, base64 (`opsledger-ledger verify` reads it). */
  readonly processedTransaction: string;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** Bytes as `{ text, base64 }`, text left out when the bytes are not valid UTF-8. */
export function bytesView(bytes: Uint8Array): LedgerBytesView {
  const base64 = Buffer.from(bytes).toString("base64");
  try {
    return { text: UTF8.decode(bytes), base64 };
  } catch {
    return { base64 };
  }
}

function identityView(serialized: Uint8Array): LedgerIdentityView {
  const identity = deserializeIdentity(serialized);
  return { mspId: identity.mspId, subject: certificateSubject(Buffer.from(identity.credentials).toString("utf8")) };
}

function timestampOf(a: UnwrappedEnvelope): string | undefined {
  const t = a.channelHeader.timestamp;
  if (t === undefined) return undefined;
  const ms = Number(t.seconds) * 1000 + Math.floor(t.nanos / 1e6);
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The function and arguments of a "full" proposal payload; nothing for "hash"/"nothing" or an unparsable one. */
function invocationOf(a: UnwrappedEnvelope, visibility: string): { function?: string; args?: LedgerBytesView[] } {
  if (visibility !== "full") return {};
  try {
    const cpp = codecs.ChaincodeProposalPayload.decode(a.actionPayload.chaincodeProposalPayload);
    const input = codecs.ChaincodeInvocationSpec.decode(cpp.input).chaincodeSpec?.input?.args ?? [];
    const [fn, ...args] = input;
    return fn === undefined ? {} : { function: Buffer.from(fn).toString("utf8"), args: args.map(bytesView) };
  } catch {
    return {};
  }
}

function actionView(c: UnwrappedChaincodeAction): Partial<TransactionRecord> {
  const response = c.chaincodeAction.response;
  return {
    chaincode: {
      name: c.chaincodeAction.chaincodeId?.name ?? c.headerExtension.chaincodeId?.name ?? "",
      version: c.chaincodeAction.chaincodeId?.version ?? "",
    },
    ...(response === undefined
      ? {}
      : { response: { status: response.status, message: response.message, payload: bytesView(response.payload) } }),
    readWriteSet: c.namespaces.map((n) => ({
      namespace: n.namespace,
      reads: n.kvRwSet.reads.map((r) => ({
        key: r.key,
        ...(r.version === undefined
          ? {}
          : { version: { blockNum: r.version.blockNum.toString(), txNum: r.version.txNum.toString() } }),
      })),
      writes: n.kvRwSet.writes.map((w) => ({ key: w.key, isDelete: w.isDelete, value: bytesView(w.value) })),
    })),
    ...(c.event === undefined ? {} : { event: { name: c.event.eventName, payload: bytesView(c.event.payload) } }),
  };
}

/** The decoded parts of the envelope, as far as it decodes. */
function decoded(envelopeBytes: Uint8Array): Partial<TransactionRecord> & { endorsers: LedgerIdentityView[] } {
  let a: UnwrappedEnvelope;
  try {
    a = unwrapEnvelope(envelopeBytes);
  } catch (error) {
    const why = error instanceof LedgerDecodeError ? `${error.path}: ${error.reason}` : "the envelope does not decode";
    return { endorsers: [], decodeError: why };
  }
  const endorsers: LedgerIdentityView[] = [];
  for (const e of a.endorsedAction.endorsements) {
    try {
      endorsers.push(identityView(e.endorser));
    } catch {
      endorsers.push({ mspId: "(undecodable endorser)", subject: "" });
    }
  }
  const creatorPem = Buffer.from(a.creator.idBytes).toString("utf8");
  const timestamp = timestampOf(a);
  const base: Partial<TransactionRecord> = {
    ...(timestamp === undefined ? {} : { timestamp }),
    creator: { mspId: a.creator.mspid, subject: certificateSubject(creatorPem) },
  };
  let c: UnwrappedChaincodeAction;
  try {
    c = unwrapChaincodeAction(a);
  } catch (error) {
    const why = error instanceof LedgerDecodeError ? `${error.path}: ${error.reason}` : "the action does not decode";
    return { ...base, endorsers, decodeError: why };
  }
  const visibility = parseVisibility(c.headerExtension.payloadVisibility) ?? "unrecognized";
  return { ...base, ...actionView(c), visibility, ...invocationOf(a, visibility), endorsers };
}

/**
 * The record of a ProcessedTransaction read by txId: decoded, and verified committer-style (verifyTransactionEnvelope,
 * the code `opsledger-ledger verify` runs) against `options.trustedMsps` when given. A transaction that does not
 * verify is still described (`verification.ok` false); nothing here throws for a malformed or invalid transaction.
 */
export async function describeProcessedTransaction(
  processed: ProcessedTransaction,
  context: { readonly txId: string; readonly channel: string; readonly blockNumber: bigint },
  options: EnvelopeVerifyOptions = {},
): Promise<TransactionRecord> {
  const envelope = processed.transactionEnvelope ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) };
  const envelopeBytes = codecs.Envelope.encode(envelope);
  let verification: LedgerVerificationView;
  try {
    const report = await verifyTransactionEnvelope(envelopeBytes, options);
    verification = { ok: true, chainsVerified: report.chainsVerified, checks: report.checks };
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    verification = {
      ok: false,
      chainsVerified: options.trustedMsps !== undefined,
      checks: error.passedChecks,
      failure: { mismatch: error.mismatch, validationCode: error.validationCodeName, message: error.message },
    };
  }
  return {
    txId: context.txId,
    channel: context.channel,
    validationCode: validationCodeName(processed.validationCode),
    validationCodeNumber: processed.validationCode,
    blockNumber: context.blockNumber.toString(),
    ...decoded(envelopeBytes),
    verification,
    processedTransaction: Buffer.from(codecs.ProcessedTransaction.encode(processed)).toString("base64"),
  };
}
