/**
 * The shapes of a channel's configuration messages: the CONFIG envelope of a configuration block, the CONFIG_UPDATE
 * that changes it, and the values its groups hold (protos/common/configtx.proto, configuration.proto,
 * msp/msp_config.proto, orderer/*, peer/configuration.proto; conventions as messages.ts). Fabric's maps of messages
 * are repeated entries here, in wire order.
 */
import type { SeekPosition } from "./gateway-messages";
import type { Block, Envelope } from "./messages";

/** The data of a CONFIG envelope's payload. */
export interface ConfigEnvelope {
  readonly config?: Config;
  readonly lastUpdate?: Envelope;
}

export interface Config {
  readonly sequence: bigint;
  readonly channelGroup?: ConfigGroup;
}

export interface ConfigGroup {
  readonly version: bigint;
  readonly groups: readonly ConfigEntry<ConfigGroup>[];
  readonly values: readonly ConfigEntry<ConfigValue>[];
  readonly policies: readonly ConfigEntry<ConfigPolicy>[];
  readonly modPolicy: string;
}

/** One entry of a Fabric map of messages. */
export interface ConfigEntry<V> {
  readonly key: string;
  readonly value?: V;
}

export interface ConfigValue {
  readonly version: bigint;
  readonly value: Uint8Array;
  readonly modPolicy: string;
}

/** common.Policy: a policy's type (SIGNATURE 1, MSP 2, IMPLICIT_META 3) and its serialized value. */
export interface Policy {
  readonly type: number;
  readonly value: Uint8Array;
}

export interface ConfigPolicy {
  readonly version: bigint;
  readonly policy?: Policy;
  readonly modPolicy: string;
}

/** The data of a CONFIG_UPDATE envelope's payload. */
export interface ConfigUpdateEnvelope {
  /** A serialized ConfigUpdate: the bytes every signature covers. */
  readonly configUpdate: Uint8Array;
  readonly signatures: readonly ConfigSignature[];
}

export interface ConfigUpdate {
  readonly channelId: string;
  readonly readSet?: ConfigGroup;
  readonly writeSet?: ConfigGroup;
  readonly isolatedData: ReadonlyMap<string, Uint8Array>;
}

/** A signature over signatureHeader ‖ configUpdate. */
export interface ConfigSignature {
  /** A serialized SignatureHeader (the signer's creator and a nonce). */
  readonly signatureHeader: Uint8Array;
  readonly signature: Uint8Array;
}

/** common.ImplicitMetaPolicy: rule ANY 0, ALL 1, MAJORITY 2 over the sub-groups' policies named subPolicy. */
export interface ImplicitMetaPolicy {
  readonly subPolicy: string;
  readonly rule: number;
}

/** The value of a group's "Capabilities" ConfigValue: the capability names are the keys. */
export interface Capabilities {
  readonly capabilities: readonly ConfigEntry<Readonly<Record<string, never>>>[];
}

/** common.Metadata: a block metadata entry. */
export interface Metadata {
  readonly value: Uint8Array;
  readonly signatures: readonly {
    readonly signatureHeader: Uint8Array;
    readonly signature: Uint8Array;
    readonly identifierHeader: Uint8Array;
  }[];
}

/** common.OrdererBlockMetadata: the value of a block's SIGNATURES metadata since Fabric 1.4.1. */
export interface OrdererBlockMetadata {
  readonly lastConfig?: LastConfig;
  readonly consenterMetadata: Uint8Array;
}

export interface LastConfig {
  readonly index: bigint;
}

/** msp.MSPRole, the principal of a ROLE MSPPrincipal: role MEMBER 0, ADMIN 1, CLIENT 2, PEER 3, ORDERER 4. */
export interface MspRole {
  readonly mspIdentifier: string;
  readonly role: number;
}

/** msp.OrganizationUnit, the principal of an ORGANIZATION_UNIT MSPPrincipal. */
export interface OrganizationUnit {
  readonly mspIdentifier: string;
  readonly organizationalUnitIdentifier: string;
  readonly certifiersIdentifier: Uint8Array;
}

/** orderer.SeekInfo, the data of a DELIVER_SEEK_INFO envelope (behavior 0 BLOCK_UNTIL_READY, 1 FAIL_IF_NOT_READY). */
export interface SeekInfo {
  readonly start?: SeekPosition;
  readonly stop?: SeekPosition;
  readonly behavior: number;
  readonly errorResponse: number;
  readonly contentType: number;
}

/** protos.ChannelQueryResponse: cscc GetChannels' answer. */
export interface ChannelQueryResponse {
  readonly channels: readonly { readonly channelId: string }[];
}

/** orderer.DeliverResponse (and a peer's protos.DeliverResponse, whose fields 1 and 2 are the same). */
export interface DeliverResponse {
  /** A common.Status, at the end of a stream. */
  readonly status?: number;
  readonly block?: Block;
}

/** orderer.BroadcastResponse. */
export interface BroadcastResponse {
  /** A common.Status: 200 SUCCESS, 400 BAD_REQUEST, 403 FORBIDDEN, 503 SERVICE_UNAVAILABLE... */
  readonly status: number;
  readonly info: string;
}

// ---- the values of configuration groups, by ConfigValue key ----

/** "HashingAlgorithm". */
export interface HashingAlgorithm {
  readonly name: string;
}

/** "BlockDataHashingStructure". */
export interface BlockDataHashingStructure {
  readonly width: number;
}

/** "OrdererAddresses" (Channel group) and "Endpoints" (an orderer organization). */
export interface OrdererAddresses {
  readonly addresses: readonly string[];
}

/** One SmartBFT consenter of the Orderer group's "Orderers" value. */
export interface BftConsenter {
  readonly id: number;
  readonly host: string;
  readonly port: number;
  readonly mspId: string;
  /** The orderer's enrolment certificate (PEM). */
  readonly identity: Uint8Array;
  readonly clientTlsCert: Uint8Array;
  readonly serverTlsCert: Uint8Array;
}

/** "Orderers". */
export interface Orderers {
  readonly consenterMapping: readonly BftConsenter[];
}

/** "ConsensusType"; state STATE_NORMAL 0, STATE_MAINTENANCE 1. */
export interface ConsensusType {
  readonly type: string;
  readonly metadata: Uint8Array;
  readonly state: number;
}

/** "BatchSize". */
export interface BatchSize {
  readonly maxMessageCount: number;
  readonly absoluteMaxBytes: number;
  readonly preferredMaxBytes: number;
}

/** "BatchTimeout": a Go duration. */
export interface BatchTimeout {
  readonly timeout: string;
}

/** "ChannelRestrictions". */
export interface ChannelRestrictions {
  readonly maxCount: bigint;
}

/** etcdraft.ConfigMetadata: ConsensusType.metadata of "etcdraft". */
export interface EtcdRaftMetadata {
  readonly consenters: readonly RaftConsenter[];
  readonly options?: EtcdRaftOptions;
}

export interface RaftConsenter {
  readonly host: string;
  readonly port: number;
  readonly clientTlsCert: Uint8Array;
  readonly serverTlsCert: Uint8Array;
}

export interface EtcdRaftOptions {
  readonly tickInterval: string;
  readonly electionTick: number;
  readonly heartbeatTick: number;
  readonly maxInflightBlocks: number;
  readonly snapshotIntervalSize: number;
}

/** orderer.smartbft.Options: ConsensusType.metadata of "BFT" (durations as Go durations; leaderRotation 0-2). */
export interface SmartBftOptions {
  readonly requestBatchMaxCount: bigint;
  readonly requestBatchMaxBytes: bigint;
  readonly requestBatchMaxInterval: string;
  readonly incomingMessageBufferSize: bigint;
  readonly requestPoolSize: bigint;
  readonly requestForwardTimeout: string;
  readonly requestComplainTimeout: string;
  readonly requestAutoRemoveTimeout: string;
  readonly requestMaxBytes: bigint;
  readonly viewChangeResendInterval: string;
  readonly viewChangeTimeout: string;
  readonly leaderHeartbeatTimeout: string;
  readonly leaderHeartbeatCount: bigint;
  readonly collectTimeout: string;
  readonly syncOnStart: boolean;
  readonly speedUpViewChange: boolean;
  readonly leaderRotation: number;
  readonly decisionsPerLeader: bigint;
}

/** "MSP": type 0 (FABRIC) with a FabricMSPConfig, 1 (IDEMIX). */
export interface MspConfig {
  readonly type: number;
  readonly config: Uint8Array;
}

export interface FabricMspConfig {
  readonly name: string;
  readonly rootCerts: readonly Uint8Array[];
  readonly intermediateCerts: readonly Uint8Array[];
  readonly admins: readonly Uint8Array[];
  readonly revocationList: readonly Uint8Array[];
  readonly signingIdentity?: { readonly publicSigner: Uint8Array };
  readonly organizationalUnitIdentifiers: readonly FabricOuIdentifier[];
  readonly cryptoConfig?: FabricCryptoConfig;
  readonly tlsRootCerts: readonly Uint8Array[];
  readonly tlsIntermediateCerts: readonly Uint8Array[];
  readonly fabricNodeOus?: FabricNodeOus;
}

export interface FabricCryptoConfig {
  readonly signatureHashFamily: string;
  readonly identityIdentifierHashFunction: string;
}

export interface FabricOuIdentifier {
  /** The CA certificate (PEM) the OU must be certified by; empty for any of the MSP's. */
  readonly certificate: Uint8Array;
  readonly organizationalUnitIdentifier: string;
}

export interface FabricNodeOus {
  readonly enable: boolean;
  readonly clientOuIdentifier?: FabricOuIdentifier;
  readonly peerOuIdentifier?: FabricOuIdentifier;
  readonly adminOuIdentifier?: FabricOuIdentifier;
  readonly ordererOuIdentifier?: FabricOuIdentifier;
}

/** "AnchorPeers" of an application organization. */
export interface AnchorPeers {
  readonly anchorPeers: readonly AnchorPeer[];
}

export interface AnchorPeer {
  readonly host: string;
  readonly port: number;
}

/** "ACLs" of the Application group: resource name → policy reference. */
export interface Acls {
  readonly acls: readonly ConfigEntry<{ readonly policyRef: string }>[];
}
