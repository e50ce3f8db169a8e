/**
 * Readable JSON for any ledger message: nested serialized messages decoded in place, bytes as base64 (plus a
 * `…Utf8` twin for printable text such as chaincode arguments), 64-bit integers as strings, validation codes with
 * their names. Transient data is never printed: only the transient map's keys.
 *
 * `detectMessage` recognizes the file types people have at hand when a transaction fails: a ProcessedTransaction
 * (qscc, the component's output), an Envelope, a PreparedTransaction, a ProposedTransaction, a SignedTransaction
 * export, a bare Transaction, a Block (configuration blocks included), or qscc GetChainInfo's BlockchainInfo.
 */
import { codecs } from "./codec";
import { certificateOf } from "./identity";
import type { CodecName } from "./codec";
import { validationCodeMeaning, validationCodeName } from "../errors/ledger/validation-codes";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const HEADER_CONFIG = 1;
const HEADER_ENDORSER_TRANSACTION = 3;
const BLOCK_METADATA_TRANSACTIONS_FILTER = 2;

/** For each message, the fields holding another message: embedded (`message`) or serialized in bytes. */
const NESTED: Partial<Record<CodecName, Record<string, CodecName>>> = {
  Envelope: { payload: "Payload" },
  Payload: { header: "Header", data: "Transaction" },
  Header: { channelHeader: "ChannelHeader", signatureHeader: "SignatureHeader" },
  ChannelHeader: { extension: "ChaincodeHeaderExtension" },
  SignatureHeader: { creator: "SerializedIdentity" },
  Transaction: { actions: "TransactionAction" },
  TransactionAction: { header: "SignatureHeader", payload: "ChaincodeActionPayload" },
  ChaincodeActionPayload: { chaincodeProposalPayload: "ChaincodeProposalPayload", action: "ChaincodeEndorsedAction" },
  ChaincodeProposalPayload: { input: "ChaincodeInvocationSpec" },
  ChaincodeEndorsedAction: { proposalResponsePayload: "ProposalResponsePayload", endorsements: "Endorsement" },
  Endorsement: { endorser: "SerializedIdentity" },
  ProposalResponsePayload: { extension: "ChaincodeAction" },
  ChaincodeAction: { results: "TxReadWriteSet", events: "ChaincodeEvent" },
  TxReadWriteSet: { nsRwset: "NsReadWriteSet" },
  NsReadWriteSet: { rwset: "KvRwSet" },
  ProcessedTransaction: { transactionEnvelope: "Envelope" },
  SignedTransaction: { transactionBytes: "Transaction" },
  PreparedTransaction: { envelope: "Envelope" },
  ProposedTransaction: { proposal: "SignedProposal" },
  SignedProposal: { proposalBytes: "Proposal" },
  Proposal: { header: "Header", payload: "ChaincodeProposalPayload" },
  Block: {},
};

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("base64");
}

function printableUtf8(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0) return undefined;
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return /^[\P{Cc}\t\n\r]*$/u.test(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

function certificateSummary(pem: Uint8Array): Json {
  const cert = certificateOf(pem);
  return cert === undefined
    ? null
    : { subject: cert.subject, issuer: cert.issuer, validFrom: cert.validFrom, validTo: cert.validTo };
}

function renderValue(value: unknown, nestedType: CodecName | undefined): Json {
  if (value instanceof Uint8Array) {
    if (nestedType === undefined) return base64(value);
    if (value.length === 0) return null;
    try {
      return renderMessage(nestedType, codecs[nestedType].decode(value) as unknown as Record<string, unknown>);
    } catch (error) {
      return { undecodable: base64(value), error: error instanceof Error ? error.message : String(error) };
    }
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map((v) => renderValue(v, nestedType));
  if (typeof value === "object" && value !== null) {
    return nestedType === undefined
      ? renderMessage(undefined, value as Record<string, unknown>)
      : renderMessage(nestedType, value as Record<string, unknown>);
  }
  return value as Json;
}

/** Renders a decoded message of a known codec as readable JSON. */
export function renderMessage(type: CodecName | undefined, message: Record<string, unknown>): { [key: string]: Json } {
  const out: { [key: string]: Json } = {};
  const nested = type === undefined ? undefined : NESTED[type];
  for (const [key, value] of Object.entries(message)) {
    if (value instanceof Map) {
      // Transient data and decorations: keys only, never values.
      out[`${key}Keys`] = [...(value as Map<string, unknown>).keys()];
      continue;
    }
    out[key] = renderValue(value, nested?.[key]);
    if (value instanceof Uint8Array && nested?.[key] === undefined) {
      const text = printableUtf8(value);
      if (text !== undefined && (key === "payload" || key === "value" || key === "message")) out[`${key}Utf8`] = text;
    }
    if (Array.isArray(value) && key === "args") {
      out.argsUtf8 = value.map((a) => (a instanceof Uint8Array ? (printableUtf8(a) ?? null) : null));
    }
  }
  if (type === "SerializedIdentity" && message.idBytes instanceof Uint8Array)
    out.certificate = certificateSummary(message.idBytes);
  if (type === "ProcessedTransaction" && typeof message.validationCode === "number") {
    out.validationCodeName = validationCodeName(message.validationCode);
    out.validationCodeMeaning = validationCodeMeaning(message.validationCode);
  }
  if (type === "Block" && Array.isArray((message.data as { data?: unknown } | undefined)?.data)) {
    const data = (message.data as { data: Uint8Array[] }).data;
    out.data = { data: data.map((d) => renderValue(d, "Envelope")) };
    const metadata = (message.metadata as { metadata?: Uint8Array[] } | undefined)?.metadata ?? [];
    const filter = metadata[BLOCK_METADATA_TRANSACTIONS_FILTER] ?? new Uint8Array(0);
    // One validation code per transaction, by name: what the committing peer recorded.
    out.transactionsFilter = data.map((_d, i) => (i < filter.length ? validationCodeName(filter[i] ?? 0) : null));
  }
  if (type === "Payload" && message.data instanceof Uint8Array && message.header !== undefined) {
    const header = message.header as { channelHeader?: Uint8Array };
    const headerType =
      header.channelHeader === undefined ? undefined : codecs.ChannelHeader.decode(header.channelHeader).type;
    if (headerType !== undefined && headerType !== HEADER_ENDORSER_TRANSACTION) {
      // A configuration (common.ConfigEnvelope / ConfigUpdateEnvelope): not decoded here.
      out.data = base64(message.data);
      out.dataType = headerType === HEADER_CONFIG ? "common.ConfigEnvelope" : `header type ${String(headerType)}`;
    }
  }
  return out;
}

function looksLikeCreator(signatureHeader: Uint8Array): boolean {
  const creator = codecs.SerializedIdentity.decode(codecs.SignatureHeader.decode(signatureHeader).creator);
  return creator.mspid !== "" && Buffer.from(creator.idBytes).includes("-----BEGIN");
}

function looksLikeTransaction(bytes: Uint8Array): boolean {
  try {
    const tx = codecs.Transaction.decode(bytes);
    return tx.actions.length > 0 && tx.actions.every((a) => looksLikeCreator(a.header));
  } catch {
    return false;
  }
}

/**
 * An Envelope whose payload has a plausible header and, for endorser transactions, a plausible Transaction. A CONFIG
 * envelope may be unsigned with no creator: the genesis block's, which configtxgen writes.
 */
function looksLikeEnvelope(bytes: Uint8Array): boolean {
  try {
    const payload = codecs.Payload.decode(codecs.Envelope.decode(bytes).payload);
    if (payload.header === undefined) return false;
    const chdr = codecs.ChannelHeader.decode(payload.header.channelHeader);
    if (chdr.type < 0 || chdr.type > 6) return false;
    if (chdr.type === HEADER_CONFIG && chdr.channelId !== "") return true;
    if (!looksLikeCreator(payload.header.signatureHeader)) return false;
    return chdr.type !== HEADER_ENDORSER_TRANSACTION || looksLikeTransaction(payload.data);
  } catch {
    return false;
  }
}

/** A ConfigUpdate: a read set and a write set, and a channel id that is one (or empty: a common mistake to show). */
function looksLikeConfigUpdate(bytes: Uint8Array): boolean {
  const update = codecs.ConfigUpdate.decode(bytes);
  return (
    /^([a-z][a-z0-9.-]*)?$/.test(update.channelId) && update.writeSet !== undefined && update.readSet !== undefined
  );
}

export type DetectedType =
  | "ProcessedTransaction"
  | "Envelope"
  | "PreparedTransaction"
  | "ProposedTransaction"
  | "SignedTransaction"
  | "Transaction"
  | "Block"
  | "ConfigUpdateEnvelope"
  | "ConfigUpdate"
  | "BlockchainInfo";

const DETECTORS: readonly [DetectedType, (b: Uint8Array) => boolean][] = [
  ["Envelope", looksLikeEnvelope],
  [
    "ProcessedTransaction",
    (b) => looksLikeEnvelope(codecs.Envelope.encode(codecs.ProcessedTransaction.decode(b).transactionEnvelope ?? {})),
  ],
  [
    "PreparedTransaction",
    (b) => looksLikeEnvelope(codecs.Envelope.encode(codecs.PreparedTransaction.decode(b).envelope ?? {})),
  ],
  ["SignedTransaction", (b) => looksLikeTransaction(codecs.SignedTransaction.decode(b).transactionBytes)],
  ["Transaction", looksLikeTransaction],
  [
    "ProposedTransaction",
    (b) => {
      const proposalBytes = codecs.ProposedTransaction.decode(b).proposal?.proposalBytes ?? new Uint8Array(0);
      const header = codecs.Header.decode(codecs.Proposal.decode(proposalBytes).header);
      return codecs.ChannelHeader.decode(header.channelHeader).txId !== "";
    },
  ],
  [
    "Block",
    (b) => {
      const block = codecs.Block.decode(b);
      return block.header !== undefined && (block.data?.data ?? []).every(looksLikeEnvelope);
    },
  ],
  // What `peer channel signconfigtx` passes around inside its envelope, and what configtxlator compute_update writes.
  ["ConfigUpdateEnvelope", (b) => looksLikeConfigUpdate(codecs.ConfigUpdateEnvelope.decode(b).configUpdate)],
  ["ConfigUpdate", looksLikeConfigUpdate],
  [
    // qscc GetChainInfo: a height and a SHA-256 block hash (the previous one is empty at height 1).
    "BlockchainInfo",
    (b) => {
      const info = codecs.BlockchainInfo.decode(b);
      return info.height > 0n && info.currentBlockHash.length === 32 && [0, 32].includes(info.previousBlockHash.length);
    },
  ],
];

/** The first message type whose whole chain decodes plausibly, or `undefined`. Never throws. */
export function detectMessage(bytes: Uint8Array): DetectedType | undefined {
  for (const [type, test] of DETECTORS) {
    try {
      if (test(bytes)) return type;
    } catch {
      // not this type
    }
  }
  return undefined;
}
