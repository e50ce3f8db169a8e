/**
 * Proposal building: nonce, txId = hex(SHA-256(nonce ‖ serialized creator)), the channel and signature headers,
 * the ChaincodeProposalPayload, the visibility function f and the proposal hash (as Fabric's protoutil computes them).
 *
 * The header bytes are produced once and reused verbatim everywhere (proposal, proposal hash, verification);
 * they are never re-encoded.
 */
import * as crypto from "node:crypto";
import { ValidationError } from "../errors/validation-error";
import type { FieldFailure } from "../errors/validation-error";
import { codecs } from "./codec";
import { concatBytes, sha256, toHex } from "./hash";
import { serializeIdentity } from "./identity";
import type { Identity } from "./identity";
import type { Timestamp } from "./messages";
import { HeaderType } from "./unwrap";

/** Fabric's nonce size. */
export const DEFAULT_NONCE_LENGTH_BYTES = 24;

/** ChaincodeSpec.Type NODE: what the official Node client always sends. */
export const DEFAULT_CHAINCODE_TYPE = 2;

/**
 * How much of the ChaincodeProposalPayload reaches the ledger (Fabric's visibility function): the whole payload without
 * the transient map (`full`, the only mode real Fabric peers implement), only its SHA-256 (`hash`), or `nothing`.
 */
export type Visibility = "full" | "hash" | "nothing";

export const DEFAULT_VISIBILITY: Visibility = "full";

export const VISIBILITY_MODES: readonly Visibility[] = ["full", "hash", "nothing"];

/** 24 random bytes. */
export function newNonce(): Uint8Array {
  return new Uint8Array(crypto.randomBytes(DEFAULT_NONCE_LENGTH_BYTES));
}

/** Lower-case hex of SHA-256(nonce ‖ creator), where creator is the serialized msp.SerializedIdentity. */
export function computeTxId(nonce: Uint8Array, creator: Uint8Array): string {
  return toHex(sha256(concatBytes(nonce, creator)));
}

/** The ChaincodeHeaderExtension.payload_visibility bytes for a mode (empty for full, as real Fabric). */
export function visibilityBytes(mode: Visibility): Uint8Array {
  return mode === "full" ? new Uint8Array(0) : new TextEncoder().encode(mode);
}

/** The mode named by ChaincodeHeaderExtension.payload_visibility, or `undefined` for an unrecognized value. */
export function parseVisibility(bytes: Uint8Array): Visibility | undefined {
  if (bytes.length === 0) return "full";
  const text = Buffer.from(bytes).toString("utf8");
  return text === "hash" || text === "nothing" ? text : undefined;
}

/**
 * f(payload): the ChaincodeActionPayload.chaincode_proposal_payload for a serialized ChaincodeProposalPayload.
 * The transient map is always removed: cpp = marshal({input}); full → cpp, hash → SHA-256(cpp), nothing → empty.
 * Throws LedgerDecodeError if `proposalPayload` does not decode.
 */
export function applyVisibility(proposalPayload: Uint8Array, mode: Visibility): Uint8Array {
  const { input } = codecs.ChaincodeProposalPayload.decode(proposalPayload);
  const cpp = codecs.ChaincodeProposalPayload.encode({ input });
  if (mode === "full") return cpp;
  if (mode === "hash") return sha256(cpp);
  return new Uint8Array(0);
}

/** SHA-256(channel_header ‖ signature_header ‖ f(payload)), over the original header bytes. */
export function computeProposalHash(
  channelHeader: Uint8Array,
  signatureHeader: Uint8Array,
  visiblePayload: Uint8Array,
): Uint8Array {
  return sha256(concatBytes(channelHeader, signatureHeader, visiblePayload));
}

export interface ProposalOptions {
  readonly identity: Identity;
  readonly channelId: string;
  readonly chaincodeName: string;
  /** Prefixes the function name as "contract:function" (as the official client's contract name). */
  readonly contractName?: string;
  readonly functionName: string;
  /** Strings are UTF-8 encoded. */
  readonly args?: readonly (string | Uint8Array)[];
  /** Private data for the chaincode; never reaches the ledger. Values as strings are UTF-8 encoded. */
  readonly transientData?: ReadonlyMap<string, string | Uint8Array> | Readonly<Record<string, string | Uint8Array>>;
  /**
   * The nonce; deterministic nonces (for exactly-once re-runs) are the caller's job.
   * @default 24 random bytes
   */
  readonly nonce?: Uint8Array;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** @default "full" */
  readonly visibility?: Visibility;
  /** @default 2 (NODE) */
  readonly chaincodeType?: number;
  /**
   * A proposal to the peer itself rather than to a channel (_lifecycle's InstallChaincode, cscc's JoinChain, sent to
   * one peer's Endorser service): `channelId` must then be empty, as the peer CLI sends it.
   * @default false
   */
  readonly channelless?: boolean;
}

/** A built, unsigned proposal. `payload` carries the transient data: never log or print it. */
export interface BuiltProposal {
  readonly txId: string;
  readonly channelId: string;
  readonly chaincodeName: string;
  readonly visibility: Visibility;
  readonly nonce: Uint8Array;
  /** Serialized msp.SerializedIdentity. */
  readonly creator: Uint8Array;
  readonly channelHeader: Uint8Array;
  readonly signatureHeader: Uint8Array;
  /** Serialized ChaincodeProposalPayload, including the transient map. */
  readonly payload: Uint8Array;
  /** Serialized Proposal: what the client signs (its digest). */
  readonly proposalBytes: Uint8Array;
  /** f(payload): what the prepared transaction must carry in chaincode_proposal_payload. */
  readonly transactionPayload: Uint8Array;
  /** The proposal hash the endorsements must carry. */
  readonly proposalHash: Uint8Array;
}

function toBytes(value: string | Uint8Array): Uint8Array {
  return typeof value === "string" ? new TextEncoder().encode(value) : value;
}

function toTimestamp(date: Date): Timestamp {
  const ms = date.getTime();
  return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (((ms % 1000) + 1000) % 1000) * 1_000_000 };
}

function transientEntries(data: ProposalOptions["transientData"]): Map<string, Uint8Array> {
  const out = new Map<string, Uint8Array>();
  if (data === undefined) return out;
  const entries =
    data instanceof Map ? data.entries() : Object.entries(data as Readonly<Record<string, string | Uint8Array>>);
  for (const [k, v] of entries as Iterable<[string, string | Uint8Array]>) out.set(k, toBytes(v));
  return out;
}

function validate(options: ProposalOptions): void {
  const failures: FieldFailure[] = [];
  const channelless = options.channelless ?? false;
  const required = {
    ...(channelless ? {} : { channelId: options.channelId }),
    chaincodeName: options.chaincodeName,
    functionName: options.functionName,
  };
  for (const [property, value] of Object.entries(required)) {
    if (value.trim() === "") failures.push({ property, reason: "must not be empty" });
  }
  if (channelless && options.channelId !== "") {
    failures.push({ property: "channelId", reason: "must be empty for a proposal to the peer itself (channelless)" });
  }
  if (options.identity.mspId === "") failures.push({ property: "identity.mspId", reason: "must not be empty" });
  if (options.identity.credentials.length === 0)
    failures.push({ property: "identity.credentials", reason: "must be a PEM certificate" });
  if (options.nonce?.length === 0)
    failures.push({ property: "nonce", reason: "must not be empty (Fabric rejects an empty nonce)" });
  if (options.visibility !== undefined && !VISIBILITY_MODES.includes(options.visibility)) {
    failures.push({ property: "visibility", reason: `must be one of ${VISIBILITY_MODES.join(", ")}` });
  }
  if (failures.length > 0) throw new ValidationError({ subject: "Proposal", failures });
}

/** Builds an unsigned ENDORSER_TRANSACTION proposal. Throws ValidationError for bad input (nothing is sent). */
export function buildProposal(options: ProposalOptions): BuiltProposal {
  validate(options);
  const visibility = options.visibility ?? DEFAULT_VISIBILITY;
  const nonce = options.nonce ?? newNonce();
  const creator = serializeIdentity(options.identity);
  const txId = computeTxId(nonce, creator);
  const chaincodeId = { name: options.chaincodeName };
  const extension = codecs.ChaincodeHeaderExtension.encode({
    payloadVisibility: visibilityBytes(visibility),
    chaincodeId,
  });
  const channelHeader = codecs.ChannelHeader.encode({
    type: HeaderType.ENDORSER_TRANSACTION,
    timestamp: toTimestamp((options.now ?? (() => new Date()))()),
    channelId: options.channelId,
    txId,
    epoch: 0n,
    extension,
  });
  const signatureHeader = codecs.SignatureHeader.encode({ creator, nonce });
  const fn =
    options.contractName === undefined ? options.functionName : `${options.contractName}:${options.functionName}`;
  const input = codecs.ChaincodeInvocationSpec.encode({
    chaincodeSpec: {
      type: options.chaincodeType ?? DEFAULT_CHAINCODE_TYPE,
      chaincodeId,
      input: { args: [toBytes(fn), ...(options.args ?? []).map(toBytes)] },
    },
  });
  const payload = codecs.ChaincodeProposalPayload.encode({
    input,
    transientMap: transientEntries(options.transientData),
  });
  const proposalBytes = codecs.Proposal.encode({
    header: codecs.Header.encode({ channelHeader, signatureHeader }),
    payload,
  });
  const transactionPayload = applyVisibility(payload, visibility);
  return {
    txId,
    channelId: options.channelId,
    chaincodeName: options.chaincodeName,
    visibility,
    nonce: new Uint8Array(nonce),
    creator,
    channelHeader,
    signatureHeader,
    payload,
    proposalBytes,
    transactionPayload,
    proposalHash: computeProposalHash(channelHeader, signatureHeader, transactionPayload),
  };
}

/**
 * The BuiltProposal inside serialized Proposal bytes (for offline signing: a proposal signed elsewhere and handed
 * back as bytes). Throws LedgerDecodeError for unparsable bytes and ValidationError for an unknown visibility.
 */
export function parseProposal(proposalBytes: Uint8Array): BuiltProposal {
  const proposal = codecs.Proposal.decode(proposalBytes);
  const header = codecs.Header.decode(proposal.header);
  const chdr = codecs.ChannelHeader.decode(header.channelHeader);
  const shdr = codecs.SignatureHeader.decode(header.signatureHeader);
  const extension = codecs.ChaincodeHeaderExtension.decode(chdr.extension);
  const visibility = parseVisibility(extension.payloadVisibility);
  if (visibility === undefined) {
    throw new ValidationError({
      subject: "Proposal",
      failures: [{ property: "visibility", reason: "is not full, hash or nothing" }],
    });
  }
  const transactionPayload = applyVisibility(proposal.payload, visibility);
  return {
    txId: chdr.txId,
    channelId: chdr.channelId,
    chaincodeName: extension.chaincodeId?.name ?? "",
    visibility,
    nonce: shdr.nonce,
    creator: shdr.creator,
    channelHeader: header.channelHeader,
    signatureHeader: header.signatureHeader,
    payload: proposal.payload,
    proposalBytes,
    transactionPayload,
    proposalHash: computeProposalHash(header.channelHeader, header.signatureHeader, transactionPayload),
  };
}
