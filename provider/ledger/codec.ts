/**
 * Typed encode/decode for every Fabric message we use, over our own .proto files: protobufjs 8 parses them, and
 * wire-encode.ts / wire-decode.ts read and write the bytes straight from and into our shapes.
 *
 *     const bytes = codecs.Envelope.encode({ payload, signature });
 *     const envelope = codecs.Envelope.decode(bytes); // Envelope, or throws LedgerDecodeError
 *
 * `decode(encode(x))` deep-equals `x` for every complete message `x`. Decoding never throws anything but
 * LedgerDecodeError.
 */
import { LedgerDecodeError } from "../errors/ledger/ledger-decode-error";
import type * as c from "./config-messages";
import type * as g from "./gateway-messages";
import type * as m from "./messages";
import { protoType } from "./proto-root";
import { TxValidationCode } from "../errors/ledger/validation-codes";
import { wireDecoder } from "./wire-decode";
import { wireEncoder } from "./wire-encode";
import { wireMessageOf } from "./wire-schema";

type Scalar = string | number | bigint | boolean | Uint8Array;

/** A partial message for encoding: any field may be left out (it is then not written). */
export type MessageInit<T> = { readonly [K in keyof T]?: InitValue<T[K]> | undefined };

type InitValue<V> = V extends Scalar
  ? V
  : V extends ReadonlyMap<infer K, infer E>
    ? ReadonlyMap<K, E>
    : V extends readonly (infer E)[]
      ? readonly InitValue<E>[]
      : V extends object
        ? MessageInit<V>
        : V;

/** Where a decode happens, for the error: the path in the message chain and the code a committer would assign. */
export interface DecodeContext {
  readonly path?: string;
  /** @default INVALID_OTHER_REASON (255) */
  readonly validationCode?: number;
  readonly transactionId?: string | undefined;
}

export interface MessageCodec<T> {
  /** The full protobuf name, for example "common.Envelope". */
  readonly typeName: string;
  encode(message: MessageInit<T>): Uint8Array;
  /** Throws LedgerDecodeError (and nothing else) when the bytes are not a valid encoding of the message. */
  decode(bytes: Uint8Array, context?: DecodeContext): T;
}

class ProtoCodec<T> implements MessageCodec<T> {
  private encoder: ((value: Record<string, unknown>) => Uint8Array) | undefined;
  private decoder: ((bytes: Uint8Array) => Record<string, unknown>) | undefined;

  constructor(readonly typeName: string) {}

  encode(message: MessageInit<T>): Uint8Array {
    this.encoder ??= wireEncoder(wireMessageOf(protoType(this.typeName)));
    return this.encoder(message);
  }

  decode(bytes: Uint8Array, context?: DecodeContext): T {
    this.decoder ??= wireDecoder(wireMessageOf(protoType(this.typeName)));
    try {
      return this.decoder(bytes) as T;
    } catch (error) {
      throw new LedgerDecodeError({
        messageType: this.typeName,
        path: context?.path ?? this.typeName,
        validationCode: context?.validationCode ?? TxValidationCode.INVALID_OTHER_REASON,
        reason: `not a valid ${this.typeName} (${error instanceof Error ? error.message : String(error)})`,
        transactionId: context?.transactionId,
        cause: error,
      });
    }
  }
}

/** The codec of a message by its full protobuf name (for modules that keep their own table, as lifecycle/ does). */
export function codec<T>(typeName: string): MessageCodec<T> {
  return new ProtoCodec<T>(typeName);
}

/** One codec per message, by our TypeScript name. */
export const codecs = {
  Timestamp: codec<m.Timestamp>("google.protobuf.Timestamp"),
  ProtoAny: codec<m.ProtoAny>("google.protobuf.Any"),
  RpcStatus: codec<m.RpcStatus>("google.rpc.Status"),
  Envelope: codec<m.Envelope>("common.Envelope"),
  Payload: codec<m.Payload>("common.Payload"),
  Header: codec<m.Header>("common.Header"),
  ChannelHeader: codec<m.ChannelHeader>("common.ChannelHeader"),
  SignatureHeader: codec<m.SignatureHeader>("common.SignatureHeader"),
  Block: codec<m.Block>("common.Block"),
  BlockchainInfo: codec<m.BlockchainInfo>("common.BlockchainInfo"),
  SignaturePolicyEnvelope: codec<m.SignaturePolicyEnvelope>("common.SignaturePolicyEnvelope"),
  SerializedIdentity: codec<m.SerializedIdentity>("msp.SerializedIdentity"),
  MspPrincipal: codec<m.MspPrincipal>("msp.MSPPrincipal"),
  SignedProposal: codec<m.SignedProposal>("protos.SignedProposal"),
  Proposal: codec<m.Proposal>("protos.Proposal"),
  ChaincodeHeaderExtension: codec<m.ChaincodeHeaderExtension>("protos.ChaincodeHeaderExtension"),
  ChaincodeProposalPayload: codec<m.ChaincodeProposalPayload>("protos.ChaincodeProposalPayload"),
  ChaincodeInvocationSpec: codec<m.ChaincodeInvocationSpec>("protos.ChaincodeInvocationSpec"),
  ChaincodeSpec: codec<m.ChaincodeSpec>("protos.ChaincodeSpec"),
  ChaincodeId: codec<m.ChaincodeId>("protos.ChaincodeID"),
  ChaincodeInput: codec<m.ChaincodeInput>("protos.ChaincodeInput"),
  ChaincodeAction: codec<m.ChaincodeAction>("protos.ChaincodeAction"),
  ProposalResponse: codec<m.ProposalResponse>("protos.ProposalResponse"),
  ChaincodeResponse: codec<m.ChaincodeResponse>("protos.Response"),
  ProposalResponsePayload: codec<m.ProposalResponsePayload>("protos.ProposalResponsePayload"),
  Endorsement: codec<m.Endorsement>("protos.Endorsement"),
  ChaincodeEvent: codec<m.ChaincodeEvent>("protos.ChaincodeEvent"),
  SignedTransaction: codec<m.SignedTransaction>("protos.SignedTransaction"),
  ProcessedTransaction: codec<m.ProcessedTransaction>("protos.ProcessedTransaction"),
  Transaction: codec<m.Transaction>("protos.Transaction"),
  TransactionAction: codec<m.TransactionAction>("protos.TransactionAction"),
  ChaincodeActionPayload: codec<m.ChaincodeActionPayload>("protos.ChaincodeActionPayload"),
  ChaincodeEndorsedAction: codec<m.ChaincodeEndorsedAction>("protos.ChaincodeEndorsedAction"),
  TxReadWriteSet: codec<m.TxReadWriteSet>("rwset.TxReadWriteSet"),
  NsReadWriteSet: codec<m.NsReadWriteSet>("rwset.NsReadWriteSet"),
  KvRwSet: codec<m.KvRwSet>("kvrwset.KVRWSet"),
  KvRead: codec<m.KvRead>("kvrwset.KVRead"),
  KvWrite: codec<m.KvWrite>("kvrwset.KVWrite"),
  RangeQueryInfo: codec<m.RangeQueryInfo>("kvrwset.RangeQueryInfo"),
  SeekPosition: codec<g.SeekPosition>("orderer.SeekPosition"),
  EndorseRequest: codec<g.EndorseRequest>("gateway.EndorseRequest"),
  EndorseResponse: codec<g.EndorseResponse>("gateway.EndorseResponse"),
  SubmitRequest: codec<g.SubmitRequest>("gateway.SubmitRequest"),
  SubmitResponse: codec<g.EmptyMessage>("gateway.SubmitResponse"),
  SignedCommitStatusRequest: codec<g.SignedCommitStatusRequest>("gateway.SignedCommitStatusRequest"),
  CommitStatusRequest: codec<g.CommitStatusRequest>("gateway.CommitStatusRequest"),
  CommitStatusResponse: codec<g.CommitStatusResponse>("gateway.CommitStatusResponse"),
  EvaluateRequest: codec<g.EvaluateRequest>("gateway.EvaluateRequest"),
  EvaluateResponse: codec<g.EvaluateResponse>("gateway.EvaluateResponse"),
  SignedChaincodeEventsRequest: codec<g.SignedChaincodeEventsRequest>("gateway.SignedChaincodeEventsRequest"),
  ChaincodeEventsRequest: codec<g.ChaincodeEventsRequest>("gateway.ChaincodeEventsRequest"),
  ChaincodeEventsResponse: codec<g.ChaincodeEventsResponse>("gateway.ChaincodeEventsResponse"),
  ErrorDetail: codec<g.ErrorDetail>("gateway.ErrorDetail"),
  ProposedTransaction: codec<g.ProposedTransaction>("gateway.ProposedTransaction"),
  PreparedTransaction: codec<g.PreparedTransaction>("gateway.PreparedTransaction"),
  Metadata: codec<c.Metadata>("common.Metadata"),
  OrdererBlockMetadata: codec<c.OrdererBlockMetadata>("common.OrdererBlockMetadata"),
  LastConfig: codec<c.LastConfig>("common.LastConfig"),
  ConfigEnvelope: codec<c.ConfigEnvelope>("common.ConfigEnvelope"),
  Config: codec<c.Config>("common.Config"),
  ConfigGroup: codec<c.ConfigGroup>("common.ConfigGroup"),
  Capabilities: codec<c.Capabilities>("common.Capabilities"),
  ConfigUpdateEnvelope: codec<c.ConfigUpdateEnvelope>("common.ConfigUpdateEnvelope"),
  ConfigUpdate: codec<c.ConfigUpdate>("common.ConfigUpdate"),
  ConfigSignature: codec<c.ConfigSignature>("common.ConfigSignature"),
  ImplicitMetaPolicy: codec<c.ImplicitMetaPolicy>("common.ImplicitMetaPolicy"),
  MspRole: codec<c.MspRole>("msp.MSPRole"),
  OrganizationUnit: codec<c.OrganizationUnit>("msp.OrganizationUnit"),
  HashingAlgorithm: codec<c.HashingAlgorithm>("common.HashingAlgorithm"),
  BlockDataHashingStructure: codec<c.BlockDataHashingStructure>("common.BlockDataHashingStructure"),
  OrdererAddresses: codec<c.OrdererAddresses>("common.OrdererAddresses"),
  Orderers: codec<c.Orderers>("common.Orderers"),
  ConsensusType: codec<c.ConsensusType>("orderer.ConsensusType"),
  BatchSize: codec<c.BatchSize>("orderer.BatchSize"),
  BatchTimeout: codec<c.BatchTimeout>("orderer.BatchTimeout"),
  ChannelRestrictions: codec<c.ChannelRestrictions>("orderer.ChannelRestrictions"),
  EtcdRaftMetadata: codec<c.EtcdRaftMetadata>("etcdraft.ConfigMetadata"),
  SmartBftOptions: codec<c.SmartBftOptions>("orderer.smartbft.Options"),
  MspConfig: codec<c.MspConfig>("msp.MSPConfig"),
  FabricMspConfig: codec<c.FabricMspConfig>("msp.FabricMSPConfig"),
  AnchorPeers: codec<c.AnchorPeers>("protos.AnchorPeers"),
  Acls: codec<c.Acls>("protos.ACLs"),
  BroadcastResponse: codec<c.BroadcastResponse>("orderer.BroadcastResponse"),
  DeliverResponse: codec<c.DeliverResponse>("orderer.DeliverResponse"),
  SeekInfo: codec<c.SeekInfo>("orderer.SeekInfo"),
  ChannelQueryResponse: codec<c.ChannelQueryResponse>("protos.ChannelQueryResponse"),
} as const;

export type CodecName = keyof typeof codecs;
