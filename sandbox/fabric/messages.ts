/**
 * The decoded shapes of the Fabric messages the sandbox reads and writes, as wire.ts returns them: every scalar
 * present (proto3 defaults filled in), bytes as Buffer, uint64 as bigint, absent sub-messages as null, repeated
 * fields as arrays, maps as records. Field names are protobufjs's camelCase of the .proto names. The _lifecycle
 * messages are in lifecycle-messages.ts.
 */
import type { LifecycleMessages } from "./lifecycle-messages";

export interface Timestamp {
  readonly seconds: bigint;
  readonly nanos: number;
}

export interface Envelope {
  readonly payload: Buffer;
  readonly signature: Buffer;
}
export interface Payload {
  readonly header: Header | null;
  readonly data: Buffer;
}
export interface Header {
  readonly channelHeader: Buffer;
  readonly signatureHeader: Buffer;
}
export interface ChannelHeader {
  readonly type: number;
  readonly version: number;
  readonly timestamp: Timestamp | null;
  readonly channelId: string;
  readonly txId: string;
  readonly epoch: bigint;
  readonly extension: Buffer;
  readonly tlsCertHash: Buffer;
}
export interface SignatureHeader {
  readonly creator: Buffer;
  readonly nonce: Buffer;
}
export interface SerializedIdentity {
  readonly mspid: string;
  readonly idBytes: Buffer;
}

export interface SignedProposal {
  readonly proposalBytes: Buffer;
  readonly signature: Buffer;
}
export interface Proposal {
  readonly header: Buffer;
  readonly payload: Buffer;
  readonly extension: Buffer;
}
export interface ChaincodeID {
  readonly path: string;
  readonly name: string;
  readonly version: string;
}
export interface ChaincodeHeaderExtension {
  readonly payloadVisibility: Buffer;
  readonly chaincodeId: ChaincodeID | null;
}
export interface ChaincodeProposalPayload {
  readonly input: Buffer;
  readonly TransientMap: Readonly<Record<string, Buffer>>;
}
export interface ChaincodeInput {
  readonly args: readonly Buffer[];
  readonly decorations: Readonly<Record<string, Buffer>>;
  readonly isInit: boolean;
}
export interface ChaincodeSpec {
  readonly type: number;
  readonly chaincodeId: ChaincodeID | null;
  readonly input: ChaincodeInput | null;
  readonly timeout: number;
}
export interface ChaincodeInvocationSpec {
  readonly chaincodeSpec: ChaincodeSpec | null;
}

export interface Response {
  readonly status: number;
  readonly message: string;
  readonly payload: Buffer;
}
export interface Endorsement {
  readonly endorser: Buffer;
  readonly signature: Buffer;
}
export interface ProposalResponse {
  readonly version: number;
  readonly timestamp: Timestamp | null;
  readonly response: Response | null;
  readonly payload: Buffer;
  readonly endorsement: Endorsement | null;
}
export interface ProposalResponsePayload {
  readonly proposalHash: Buffer;
  readonly extension: Buffer;
}
export interface ChaincodeAction {
  readonly results: Buffer;
  readonly events: Buffer;
  readonly response: Response | null;
  readonly chaincodeId: ChaincodeID | null;
}
export interface ChaincodeEvent {
  readonly chaincodeId: string;
  readonly txId: string;
  readonly eventName: string;
  readonly payload: Buffer;
}

export interface Transaction {
  readonly actions: readonly TransactionAction[];
}
export interface TransactionAction {
  readonly header: Buffer;
  readonly payload: Buffer;
}
export interface ChaincodeActionPayload {
  readonly chaincodeProposalPayload: Buffer;
  readonly action: ChaincodeEndorsedAction | null;
}
export interface ChaincodeEndorsedAction {
  readonly proposalResponsePayload: Buffer;
  readonly endorsements: readonly Endorsement[];
}
export interface ProcessedTransaction {
  readonly transactionEnvelope: Envelope | null;
  readonly validationCode: number;
}

export interface TxReadWriteSet {
  readonly dataModel: number;
  readonly nsRwset: readonly NsReadWriteSet[];
}
export interface CollectionHashedReadWriteSet {
  readonly collectionName: string;
  readonly hashedRwset: Buffer;
  readonly pvtRwsetHash: Buffer;
}
export interface NsReadWriteSet {
  readonly namespace: string;
  readonly rwset: Buffer;
  readonly collectionHashedRwset: readonly CollectionHashedReadWriteSet[];
}
export interface Version {
  readonly blockNum: bigint;
  readonly txNum: bigint;
}
export interface KVRead {
  readonly key: string;
  readonly version: Version | null;
}
export interface KVWrite {
  readonly key: string;
  readonly isDelete: boolean;
  readonly value: Buffer;
}
export interface KVMetadataWrite {
  readonly key: string;
  readonly entries: readonly { readonly name: string; readonly value: Buffer }[];
}
export interface QueryReads {
  readonly kvReads: readonly KVRead[];
}
export interface RangeQueryInfo {
  readonly startKey: string;
  readonly endKey: string;
  readonly itrExhausted: boolean;
  readonly rawReads?: QueryReads | null;
  readonly readsMerkleHashes?: { readonly maxDegree: number; readonly maxLevel: number } | null;
}
export interface KVRWSet {
  readonly reads: readonly KVRead[];
  readonly rangeQueriesInfo: readonly RangeQueryInfo[];
  readonly writes: readonly KVWrite[];
  readonly metadataWrites: readonly KVMetadataWrite[];
}
export interface HashedRWSet {
  readonly hashedReads: readonly unknown[];
  readonly hashedWrites: readonly unknown[];
}

export interface BlockHeader {
  readonly number: bigint;
  readonly previousHash: Buffer;
  readonly dataHash: Buffer;
}
export interface Block {
  readonly header: BlockHeader | null;
  readonly data: { readonly data: readonly Buffer[] } | null;
  readonly metadata: { readonly metadata: readonly Buffer[] } | null;
}

export interface SeekPosition {
  readonly newest?: object | null;
  readonly oldest?: object | null;
  readonly specified?: { readonly number: bigint } | null;
  readonly nextCommit?: object | null;
}

export interface EndorseRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly proposedTransaction: SignedProposal | null;
  readonly endorsingOrganizations: readonly string[];
}
export interface EndorseResponse {
  readonly preparedTransaction: Envelope | null;
}
export interface SubmitRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly preparedTransaction: Envelope | null;
}
export interface SignedRequest {
  readonly request: Buffer;
  readonly signature: Buffer;
}
export interface CommitStatusRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly identity: Buffer;
}
export interface CommitStatusResponse {
  readonly result: number;
  readonly blockNumber: bigint;
}
export interface EvaluateRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly proposedTransaction: SignedProposal | null;
  readonly targetOrganizations: readonly string[];
}
export interface EvaluateResponse {
  readonly result: Response | null;
}
export interface ChaincodeEventsRequest {
  readonly channelId: string;
  readonly chaincodeId: string;
  readonly identity: Buffer;
  readonly startPosition: SeekPosition | null;
  readonly afterTransactionId: string;
}
export interface ChaincodeEventsResponse {
  readonly events: readonly ChaincodeEvent[];
  readonly blockNumber: bigint;
}
export interface ErrorDetail {
  readonly address: string;
  readonly mspId: string;
  readonly message: string;
}
export interface Any {
  readonly type_url: string;
  readonly value: Buffer;
}
export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly Any[];
}

/** Full proto name → decoded shape: the messages wire.ts can encode and decode. */
export interface Messages extends LifecycleMessages {
  "common.Envelope": Envelope;
  "common.Payload": Payload;
  "common.Header": Header;
  "common.ChannelHeader": ChannelHeader;
  "common.SignatureHeader": SignatureHeader;
  "common.Block": Block;
  "msp.SerializedIdentity": SerializedIdentity;
  "protos.SignedProposal": SignedProposal;
  "protos.Proposal": Proposal;
  "protos.ChaincodeHeaderExtension": ChaincodeHeaderExtension;
  "protos.ChaincodeProposalPayload": ChaincodeProposalPayload;
  "protos.ChaincodeInvocationSpec": ChaincodeInvocationSpec;
  "protos.ProposalResponse": ProposalResponse;
  "protos.ProposalResponsePayload": ProposalResponsePayload;
  "protos.ChaincodeAction": ChaincodeAction;
  "protos.ChaincodeEvent": ChaincodeEvent;
  "protos.Response": Response;
  "protos.Transaction": Transaction;
  "protos.ChaincodeActionPayload": ChaincodeActionPayload;
  "protos.ProcessedTransaction": ProcessedTransaction;
  "rwset.TxReadWriteSet": TxReadWriteSet;
  "kvrwset.KVRWSet": KVRWSet;
  "kvrwset.HashedRWSet": HashedRWSet;
  "gateway.EndorseRequest": EndorseRequest;
  "gateway.EndorseResponse": EndorseResponse;
  "gateway.SubmitRequest": SubmitRequest;
  "gateway.SubmitResponse": Record<string, never>;
  "gateway.SignedCommitStatusRequest": SignedRequest;
  "gateway.CommitStatusRequest": CommitStatusRequest;
  "gateway.CommitStatusResponse": CommitStatusResponse;
  "gateway.EvaluateRequest": EvaluateRequest;
  "gateway.EvaluateResponse": EvaluateResponse;
  "gateway.SignedChaincodeEventsRequest": SignedRequest;
  "gateway.ChaincodeEventsRequest": ChaincodeEventsRequest;
  "gateway.ChaincodeEventsResponse": ChaincodeEventsResponse;
  "gateway.ErrorDetail": ErrorDetail;
  "google.rpc.Status": RpcStatus;
}

export type MessageName = keyof Messages;

/** What encode() accepts for a decoded shape: everything optional, bytes as any Uint8Array, uint64 as number too. */
export type MessageInput<T> = T extends Buffer
  ? Uint8Array
  : T extends bigint
    ? bigint | number
    : T extends readonly (infer U)[]
      ? readonly MessageInput<U>[]
      : T extends object
        ? { readonly [K in keyof T]?: MessageInput<T[K]> | null | undefined }
        : T;
