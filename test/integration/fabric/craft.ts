/**
 * Crafted Fabric transactions for the committer tests, built with @hyperledger/fabric-protos (google-protobuf, an
 * encoder independent of the sandbox's) and signed like the official client (DER, low-S). Every field that a
 * validation check looks at can be overridden, so each test changes exactly one thing of an otherwise valid
 * transaction.
 */
import { randomBytes } from "node:crypto";
import { common, gateway, ledger, msp, peer } from "@hyperledger/fabric-protos";
import type { SandboxIdentity } from "../../../sandbox/fabric";
import { sha256, signWith } from "./helpers";

export interface VersionSpec {
  readonly blockNum: number;
  readonly txNum: number;
}

export interface NamespaceSpec {
  readonly namespace: string;
  readonly reads?: readonly { readonly key: string; readonly version?: VersionSpec }[];
  readonly writes?: readonly { readonly key: string; readonly value?: string; readonly isDelete?: boolean }[];
  readonly ranges?: readonly {
    readonly startKey: string;
    readonly endKey: string;
    readonly reads: readonly { readonly key: string; readonly version: VersionSpec }[];
  }[];
}

export interface CraftSpec {
  readonly creator: SandboxIdentity;
  /** Signs the envelope; defaults to the creator. */
  readonly envelopeSigner?: SandboxIdentity;
  readonly channel: string;
  readonly chaincode: string;
  readonly endorsers: readonly SandboxIdentity[];
  /** Chaincode function and arguments. @default ["PutAsset", "k", "v"] */
  readonly args?: readonly string[];
  /** The read-write set. @default one write k=v in the chaincode's namespace */
  readonly namespaces?: readonly NamespaceSpec[];
  /** Raw ChaincodeAction.results instead of `namespaces`. */
  readonly results?: Uint8Array;
  readonly headerType?: number;
  readonly epoch?: number;
  readonly nonce?: Uint8Array;
  readonly txId?: string;
  /** Raw ChannelHeader.extension instead of ChaincodeHeaderExtension{chaincode_id{name}}. */
  readonly extension?: Uint8Array;
  /** ChaincodeAction.chaincode_id; null leaves it out. @default {name: chaincode, version: "1.0"} */
  readonly actionChaincodeId?: { readonly name: string; readonly version: string } | null;
  readonly events?: Uint8Array;
  /** How many (identical) TransactionActions. @default 1 */
  readonly actionCount?: number;
  /** Raw Payload.data instead of the serialized Transaction. */
  readonly transactionData?: Uint8Array;
  /** ProposalResponsePayload.proposal_hash instead of the correct one. */
  readonly proposalHash?: Uint8Array;
  /** Raw ProposalResponsePayload.extension instead of the ChaincodeAction. */
  readonly prpExtension?: Uint8Array;
  /** Applied to each endorsement signature (for example toHighS). */
  readonly endorsementSignature?: (signature: Uint8Array) => Uint8Array;
}

export interface Crafted {
  readonly envelope: Uint8Array;
  readonly txId: string;
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
}

export function serialize(identity: SandboxIdentity): Uint8Array {
  const sid = new msp.SerializedIdentity();
  sid.setMspid(identity.mspId);
  sid.setIdBytes(Buffer.from(identity.certificatePem));
  return sid.serializeBinary();
}

export function txIdFor(nonce: Uint8Array, creator: Uint8Array): string {
  return sha256(nonce, creator).toString("hex");
}

function version(v: VersionSpec): ledger.rwset.kvrwset.Version {
  const out = new ledger.rwset.kvrwset.Version();
  out.setBlockNum(v.blockNum);
  out.setTxNum(v.txNum);
  return out;
}

function kvRead(r: { readonly key: string; readonly version?: VersionSpec }): ledger.rwset.kvrwset.KVRead {
  const read = new ledger.rwset.kvrwset.KVRead();
  read.setKey(r.key);
  if (r.version !== undefined) read.setVersion(version(r.version));
  return read;
}

export function rwset(namespaces: readonly NamespaceSpec[]): Uint8Array {
  const set = new ledger.rwset.TxReadWriteSet();
  set.setDataModel(ledger.rwset.TxReadWriteSet.DataModel.KV);
  set.setNsRwsetList(
    namespaces.map((ns) => {
      const kv = new ledger.rwset.kvrwset.KVRWSet();
      kv.setReadsList((ns.reads ?? []).map(kvRead));
      kv.setWritesList(
        (ns.writes ?? []).map((w) => {
          const write = new ledger.rwset.kvrwset.KVWrite();
          write.setKey(w.key);
          write.setIsDelete(w.isDelete ?? false);
          write.setValue(Buffer.from(w.value ?? ""));
          return write;
        }),
      );
      kv.setRangeQueriesInfoList(
        (ns.ranges ?? []).map((r) => {
          const info = new ledger.rwset.kvrwset.RangeQueryInfo();
          info.setStartKey(r.startKey);
          info.setEndKey(r.endKey);
          info.setItrExhausted(true);
          const reads = new ledger.rwset.kvrwset.QueryReads();
          reads.setKvReadsList(r.reads.map(kvRead));
          info.setRawReads(reads);
          return info;
        }),
      );
      const nsSet = new ledger.rwset.NsReadWriteSet();
      nsSet.setNamespace(ns.namespace);
      nsSet.setRwset(kv.serializeBinary());
      return nsSet;
    }),
  );
  return set.serializeBinary();
}

export function chaincodeHeaderExtension(chaincode: string): Uint8Array {
  const id = new peer.ChaincodeID();
  id.setName(chaincode);
  const extension = new peer.ChaincodeHeaderExtension();
  extension.setChaincodeId(id);
  return extension.serializeBinary();
}

/** marshal(ChaincodeProposalPayload{input}) for a NODE chaincode invocation. */
export function proposalPayload(chaincode: string, args: readonly string[]): Uint8Array {
  const id = new peer.ChaincodeID();
  id.setName(chaincode);
  const input = new peer.ChaincodeInput();
  input.setArgsList(args.map((a) => Buffer.from(a)));
  const spec = new peer.ChaincodeSpec();
  spec.setType(peer.ChaincodeSpec.Type.NODE);
  spec.setChaincodeId(id);
  spec.setInput(input);
  const invocation = new peer.ChaincodeInvocationSpec();
  invocation.setChaincodeSpec(spec);
  const payload = new peer.ChaincodeProposalPayload();
  payload.setInput(invocation.serializeBinary());
  return payload.serializeBinary();
}

export async function endorsement(endorser: SandboxIdentity, prp: Uint8Array): Promise<peer.Endorsement> {
  const endorserBytes = serialize(endorser);
  const e = new peer.Endorsement();
  e.setEndorser(endorserBytes);
  e.setSignature(await signWith(endorser, Buffer.concat([prp, endorserBytes])));
  return e;
}

export function envelopeOf(payload: Uint8Array, signature: Uint8Array): Uint8Array {
  const envelope = new common.Envelope();
  envelope.setPayload(payload);
  envelope.setSignature(signature);
  return envelope.serializeBinary();
}

/** Builds, endorses and signs a transaction as `spec` describes. */
export async function craft(spec: CraftSpec): Promise<Crafted> {
  const creator = serialize(spec.creator);
  const nonce = spec.nonce ?? randomBytes(24);
  const txId = spec.txId ?? txIdFor(nonce, creator);
  const channelHeader = new common.ChannelHeader();
  channelHeader.setType(spec.headerType ?? common.HeaderType.ENDORSER_TRANSACTION);
  channelHeader.setChannelId(spec.channel);
  channelHeader.setTxId(txId);
  channelHeader.setEpoch(spec.epoch ?? 0);
  channelHeader.setExtension$(spec.extension ?? chaincodeHeaderExtension(spec.chaincode));
  const channelHeaderBytes = channelHeader.serializeBinary();
  const signatureHeader = new common.SignatureHeader();
  signatureHeader.setCreator(creator);
  signatureHeader.setNonce(nonce);
  const signatureHeaderBytes = signatureHeader.serializeBinary();
  const cpp = proposalPayload(spec.chaincode, spec.args ?? ["PutAsset", "k", "v"]);

  const action = new peer.ChaincodeAction();
  action.setResults(
    spec.results ?? rwset(spec.namespaces ?? [{ namespace: spec.chaincode, writes: [{ key: "k", value: "v" }] }]),
  );
  if (spec.events !== undefined) action.setEvents(spec.events);
  const response = new peer.Response();
  response.setStatus(200);
  action.setResponse(response);
  const actionId =
    spec.actionChaincodeId === undefined ? { name: spec.chaincode, version: "1.0" } : spec.actionChaincodeId;
  if (actionId !== null) {
    const id = new peer.ChaincodeID();
    id.setName(actionId.name);
    id.setVersion(actionId.version);
    action.setChaincodeId(id);
  }
  const prp = new peer.ProposalResponsePayload();
  prp.setProposalHash(spec.proposalHash ?? sha256(channelHeaderBytes, signatureHeaderBytes, cpp));
  prp.setExtension$(spec.prpExtension ?? action.serializeBinary());
  const prpBytes = prp.serializeBinary();

  const endorsed = new peer.ChaincodeEndorsedAction();
  endorsed.setProposalResponsePayload(prpBytes);
  const endorsements = await Promise.all(spec.endorsers.map((e) => endorsement(e, prpBytes)));
  if (spec.endorsementSignature !== undefined) {
    for (const e of endorsements) e.setSignature(spec.endorsementSignature(e.getSignature_asU8()));
  }
  endorsed.setEndorsementsList(endorsements);
  const actionPayload = new peer.ChaincodeActionPayload();
  actionPayload.setChaincodeProposalPayload(cpp);
  actionPayload.setAction(endorsed);
  const txAction = new peer.TransactionAction();
  txAction.setHeader(signatureHeaderBytes);
  txAction.setPayload(actionPayload.serializeBinary());
  const transaction = new peer.Transaction();
  transaction.setActionsList(Array.from({ length: spec.actionCount ?? 1 }, () => txAction));

  const header = new common.Header();
  header.setChannelHeader(channelHeaderBytes);
  header.setSignatureHeader(signatureHeaderBytes);
  const payload = new common.Payload();
  payload.setHeader(header);
  payload.setData(spec.transactionData ?? transaction.serializeBinary());
  const payloadBytes = payload.serializeBinary();
  const signature = await signWith(spec.envelopeSigner ?? spec.creator, payloadBytes);
  return { envelope: envelopeOf(payloadBytes, signature), txId, payload: payloadBytes, signature };
}

/** Signs the envelope of a PreparedTransaction (what the official client's Transaction.getBytes() returns). */
export async function signPrepared(preparedTransaction: Uint8Array, signer: SandboxIdentity): Promise<Uint8Array> {
  const prepared = gateway.PreparedTransaction.deserializeBinary(preparedTransaction);
  const payload = prepared.getEnvelope()?.getPayload_asU8() ?? new Uint8Array();
  return envelopeOf(payload, await signWith(signer, payload));
}

const P256_ORDER = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

function derInteger(value: bigint): Buffer {
  let hex = value.toString(16);
  if (hex.length % 2 === 1) hex = `0${hex}`;
  let bytes = Buffer.from(hex, "hex");
  if (((bytes[0] ?? 0) & 0x80) !== 0) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

/** The same ECDSA signature with s replaced by n − s: still mathematically valid, but high-S. */
export function toHighS(signature: Uint8Array): Uint8Array {
  const der = Buffer.from(signature);
  const rLength = der[3] ?? 0;
  const r = BigInt(`0x${der.subarray(4, 4 + rLength).toString("hex")}`);
  const sLength = der[5 + rLength] ?? 0;
  const s = BigInt(`0x${der.subarray(6 + rLength, 6 + rLength + sLength).toString("hex")}`);
  const body = Buffer.concat([derInteger(r), derInteger(P256_ORDER - s)]);
  return Buffer.concat([Buffer.from([0x30, body.length]), body]);
}

export interface ProposalSpec {
  readonly creator: SandboxIdentity;
  readonly channel: string;
  readonly chaincode: string;
  readonly args: readonly string[];
  /** ChaincodeHeaderExtension field 1 (Fabric 1.x payload_visibility), e.g. "hash"; absent when undefined. */
  readonly visibility?: string;
  readonly transient?: Readonly<Record<string, string>>;
}

export interface CraftedProposal {
  readonly txId: string;
  /** Serialized gateway.EndorseRequest / EvaluateRequest carrying the signed proposal. */
  readonly endorseRequest: Uint8Array;
  readonly evaluateRequest: Uint8Array;
  readonly channelHeader: Uint8Array;
  readonly signatureHeader: Uint8Array;
  /** marshal(ChaincodeProposalPayload{input}) without the transient map. */
  readonly payloadWithoutTransient: Uint8Array;
}

/** A signed proposal as the official client builds it, optionally with a visibility mode and transient data. */
export async function craftProposal(spec: ProposalSpec): Promise<CraftedProposal> {
  const creator = serialize(spec.creator);
  const nonce = randomBytes(24);
  const txId = txIdFor(nonce, creator);
  const visibility =
    spec.visibility === undefined
      ? new Uint8Array()
      : Buffer.concat([Buffer.from([0x0a, spec.visibility.length]), Buffer.from(spec.visibility)]);
  const channelHeader = new common.ChannelHeader();
  channelHeader.setType(common.HeaderType.ENDORSER_TRANSACTION);
  channelHeader.setChannelId(spec.channel);
  channelHeader.setTxId(txId);
  channelHeader.setExtension$(Buffer.concat([visibility, chaincodeHeaderExtension(spec.chaincode)]));
  const channelHeaderBytes = channelHeader.serializeBinary();
  const signatureHeader = new common.SignatureHeader();
  signatureHeader.setCreator(creator);
  signatureHeader.setNonce(nonce);
  const signatureHeaderBytes = signatureHeader.serializeBinary();
  const header = new common.Header();
  header.setChannelHeader(channelHeaderBytes);
  header.setSignatureHeader(signatureHeaderBytes);
  const payloadWithoutTransient = proposalPayload(spec.chaincode, spec.args);
  const payload = peer.ChaincodeProposalPayload.deserializeBinary(payloadWithoutTransient);
  for (const [key, value] of Object.entries(spec.transient ?? {}))
    payload.getTransientmapMap().set(key, Buffer.from(value));
  const proposal = new peer.Proposal();
  proposal.setHeader(header.serializeBinary());
  proposal.setPayload(payload.serializeBinary());
  const proposalBytes = proposal.serializeBinary();
  const signed = new peer.SignedProposal();
  signed.setProposalBytes(proposalBytes);
  signed.setSignature(await signWith(spec.creator, proposalBytes));
  const endorse = new gateway.EndorseRequest();
  endorse.setTransactionId(txId);
  endorse.setChannelId(spec.channel);
  endorse.setProposedTransaction(signed);
  const evaluate = new gateway.EvaluateRequest();
  evaluate.setTransactionId(txId);
  evaluate.setChannelId(spec.channel);
  evaluate.setProposedTransaction(signed);
  return {
    txId,
    endorseRequest: endorse.serializeBinary(),
    evaluateRequest: evaluate.serializeBinary(),
    channelHeader: channelHeaderBytes,
    signatureHeader: signatureHeaderBytes,
    payloadWithoutTransient,
  };
}

/** The parts of a prepared (or committed) envelope that the visibility and tamper tests look at. */
export function inspectEnvelope(envelope: Uint8Array): {
  readonly payload: Uint8Array;
  readonly chaincodeProposalPayload: Uint8Array;
  readonly proposalHash: Uint8Array;
  readonly endorsementCount: number;
} {
  const payload = common.Envelope.deserializeBinary(envelope).getPayload_asU8();
  const tx = peer.Transaction.deserializeBinary(common.Payload.deserializeBinary(payload).getData_asU8());
  const action = peer.ChaincodeActionPayload.deserializeBinary(tx.getActionsList()[0]!.getPayload_asU8());
  const endorsed = action.getAction()!;
  const prp = peer.ProposalResponsePayload.deserializeBinary(endorsed.getProposalResponsePayload_asU8());
  return {
    payload,
    chaincodeProposalPayload: action.getChaincodeProposalPayload_asU8(),
    proposalHash: prp.getProposalHash_asU8(),
    endorsementCount: endorsed.getEndorsementsList().length,
  };
}
