/**
 * TypeScript shapes of the Fabric messages in protos/ (type declarations only).
 *
 * Conventions, applied by the codec to every message:
 * - property names are the protobufjs camelCase names with a lower-case first letter (`TransientMap` → `transientMap`);
 * - proto3 scalars are always present after decoding (absent = the default: 0, "", false, empty bytes, 0n);
 * - bytes are plain `Uint8Array`s, 64-bit integers are `bigint`, enums are numbers (unknown values kept);
 * - embedded messages and oneof members are optional (absent when not on the wire);
 * - repeated fields are arrays and map fields are `ReadonlyMap`s (insertion order is the encoding order).
 */

/** google.protobuf.Timestamp */
export interface Timestamp {
  readonly seconds: bigint;
  readonly nanos: number;
}

/** google.protobuf.Any */
export interface ProtoAny {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

/** google.rpc.Status, the content of the grpc-status-details-bin trailer. */
export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly ProtoAny[];
}

// ---- common ----

export interface Envelope {
  /** Serialized Payload; the creator's signature covers these exact bytes. */
  readonly payload: Uint8Array;
  readonly signature: Uint8Array;
}

export interface Payload {
  readonly header?: Header;
  /** Serialized Transaction for ENDORSER_TRANSACTION. */
  readonly data: Uint8Array;
}

export interface Header {
  readonly channelHeader: Uint8Array;
  readonly signatureHeader: Uint8Array;
}

export interface ChannelHeader {
  /** A HeaderType value (ENDORSER_TRANSACTION = 3). */
  readonly type: number;
  readonly version: number;
  readonly timestamp?: Timestamp;
  readonly channelId: string;
  readonly txId: string;
  readonly epoch: bigint;
  /** Serialized ChaincodeHeaderExtension for ENDORSER_TRANSACTION. */
  readonly extension: Uint8Array;
  readonly tlsCertHash: Uint8Array;
}

export interface SignatureHeader {
  /** Serialized SerializedIdentity. */
  readonly creator: Uint8Array;
  readonly nonce: Uint8Array;
}

export interface Block {
  readonly header?: BlockHeader;
  readonly data?: BlockData;
  readonly metadata?: BlockMetadata;
}

export interface BlockHeader {
  readonly number: bigint;
  readonly previousHash: Uint8Array;
  readonly dataHash: Uint8Array;
}

export interface BlockData {
  readonly data: readonly Uint8Array[];
}

export interface BlockMetadata {
  readonly metadata: readonly Uint8Array[];
}

export interface SignaturePolicyEnvelope {
  readonly version: number;
  readonly rule?: SignaturePolicy;
  readonly identities: readonly MspPrincipal[];
}

/** oneof Type: exactly one of signedBy / nOutOf. */
export interface SignaturePolicy {
  readonly signedBy?: number;
  readonly nOutOf?: SignaturePolicyNOutOf;
}

export interface SignaturePolicyNOutOf {
  readonly n: number;
  readonly rules: readonly SignaturePolicy[];
}

// ---- msp ----

export interface SerializedIdentity {
  readonly mspid: string;
  /** PEM-encoded X.509 certificate. */
  readonly idBytes: Uint8Array;
}

export interface MspPrincipal {
  readonly principalClassification: number;
  readonly principal: Uint8Array;
}

// ---- protos: proposal side ----

export interface SignedProposal {
  readonly proposalBytes: Uint8Array;
  readonly signature: Uint8Array;
}

export interface Proposal {
  /** Serialized common.Header. */
  readonly header: Uint8Array;
  /** Serialized ChaincodeProposalPayload. */
  readonly payload: Uint8Array;
  readonly extension: Uint8Array;
}

export interface ChaincodeHeaderExtension {
  /** Empty for "full" visibility; UTF-8 "hash" or "nothing" otherwise (Fabric 1.x field 1). */
  readonly payloadVisibility: Uint8Array;
  readonly chaincodeId?: ChaincodeId;
}

export interface ChaincodeProposalPayload {
  /** Serialized ChaincodeInvocationSpec. */
  readonly input: Uint8Array;
  /** Transient data: never reaches the ledger, never printed. */
  readonly transientMap: ReadonlyMap<string, Uint8Array>;
}

export interface ChaincodeInvocationSpec {
  readonly chaincodeSpec?: ChaincodeSpec;
}

export interface ChaincodeSpec {
  /** ChaincodeSpec.Type: UNDEFINED 0, GOLANG 1, NODE 2, CAR 3, JAVA 4. */
  readonly type: number;
  readonly chaincodeId?: ChaincodeId;
  readonly input?: ChaincodeInput;
  readonly timeout: number;
}

export interface ChaincodeId {
  readonly path: string;
  readonly name: string;
  readonly version: string;
}

export interface ChaincodeInput {
  /** args[0] is the function name. */
  readonly args: readonly Uint8Array[];
  readonly decorations: ReadonlyMap<string, Uint8Array>;
  readonly isInit: boolean;
}

export interface ChaincodeAction {
  /** Serialized rwset.TxReadWriteSet. */
  readonly results: Uint8Array;
  /** Serialized ChaincodeEvent (empty when none). */
  readonly events: Uint8Array;
  readonly response?: ChaincodeResponse;
  readonly chaincodeId?: ChaincodeId;
}

// ---- protos: response side ----

export interface ProposalResponse {
  readonly version: number;
  readonly timestamp?: Timestamp;
  readonly response?: ChaincodeResponse;
  /** Serialized ProposalResponsePayload. */
  readonly payload: Uint8Array;
  readonly endorsement?: Endorsement;
  readonly interest?: ChaincodeInterest;
}

/** protos.Response */
export interface ChaincodeResponse {
  readonly status: number;
  readonly message: string;
  readonly payload: Uint8Array;
}

export interface ProposalResponsePayload {
  readonly proposalHash: Uint8Array;
  /** Serialized ChaincodeAction. */
  readonly extension: Uint8Array;
}

export interface Endorsement {
  /** Serialized SerializedIdentity of the endorser. */
  readonly endorser: Uint8Array;
  /** Signature over proposal_response_payload ‖ endorser. */
  readonly signature: Uint8Array;
}

export interface ChaincodeInterest {
  readonly chaincodes: readonly ChaincodeCall[];
}

export interface ChaincodeCall {
  readonly name: string;
  readonly collectionNames: readonly string[];
  readonly noPrivateReads: boolean;
  readonly noPublicWrites: boolean;
  readonly keyPolicies: readonly SignaturePolicyEnvelope[];
  readonly disregardNamespacePolicy: boolean;
}

export interface ChaincodeEvent {
  readonly chaincodeId: string;
  readonly txId: string;
  readonly eventName: string;
  readonly payload: Uint8Array;
}

// ---- protos: transaction side (fabric-protos peer/transaction.proto) ----

/** Offline-signing export format only (Fabric 1.4); never sent on the wire. */
export interface SignedTransaction {
  readonly transactionBytes: Uint8Array;
  readonly signature: Uint8Array;
}

/** What qscc GetChainInfo returns. */
export interface BlockchainInfo {
  readonly height: bigint;
  readonly currentBlockHash: Uint8Array;
  readonly previousBlockHash: Uint8Array;
  readonly bootstrappingSnapshotInfo?: { readonly lastBlockInSnapshot: bigint };
}

export interface ProcessedTransaction {
  readonly transactionEnvelope?: Envelope;
  /** A TxValidationCode number. */
  readonly validationCode: number;
}

export interface Transaction {
  readonly actions: readonly TransactionAction[];
}

export interface TransactionAction {
  /** Serialized common.SignatureHeader of the proposal (not the whole common.Header). */
  readonly header: Uint8Array;
  /** Serialized ChaincodeActionPayload. */
  readonly payload: Uint8Array;
}

export interface ChaincodeActionPayload {
  /** f(ChaincodeProposalPayload) for the visibility mode. */
  readonly chaincodeProposalPayload: Uint8Array;
  readonly action?: ChaincodeEndorsedAction;
}

export interface ChaincodeEndorsedAction {
  /** The exact ProposalResponsePayload bytes the endorsers signed. */
  readonly proposalResponsePayload: Uint8Array;
  readonly endorsements: readonly Endorsement[];
}

// ---- rwset / kvrwset ----

export interface TxReadWriteSet {
  readonly dataModel: number;
  readonly nsRwset: readonly NsReadWriteSet[];
}

export interface NsReadWriteSet {
  readonly namespace: string;
  /** Serialized KVRWSet. */
  readonly rwset: Uint8Array;
  readonly collectionHashedRwset: readonly CollectionHashedReadWriteSet[];
}

export interface CollectionHashedReadWriteSet {
  readonly collectionName: string;
  readonly hashedRwset: Uint8Array;
  readonly pvtRwsetHash: Uint8Array;
}

export interface KvRwSet {
  readonly reads: readonly KvRead[];
  readonly rangeQueriesInfo: readonly RangeQueryInfo[];
  readonly writes: readonly KvWrite[];
  readonly metadataWrites: readonly KvMetadataWrite[];
}

export interface KvRead {
  readonly key: string;
  /** Absent when the key did not exist at simulation time. */
  readonly version?: KvVersion;
}

export interface KvWrite {
  readonly key: string;
  readonly isDelete: boolean;
  readonly value: Uint8Array;
}

export interface KvMetadataWrite {
  readonly key: string;
  readonly entries: readonly KvMetadataEntry[];
}

export interface KvMetadataEntry {
  readonly name: string;
  readonly value: Uint8Array;
}

/** kvrwset.Version: the height of the transaction that last wrote the key. */
export interface KvVersion {
  readonly blockNum: bigint;
  readonly txNum: bigint;
}

/** oneof reads_info: at most one of rawReads / readsMerkleHashes. */
export interface RangeQueryInfo {
  readonly startKey: string;
  readonly endKey: string;
  readonly itrExhausted: boolean;
  readonly rawReads?: QueryReads;
  readonly readsMerkleHashes?: QueryReadsMerkleSummary;
}

export interface QueryReads {
  readonly kvReads: readonly KvRead[];
}

export interface QueryReadsMerkleSummary {
  readonly maxDegree: number;
  readonly maxLevel: number;
  readonly maxLevelHashes: readonly Uint8Array[];
}
