/**
 * The channel resources' and read's shapes, declared once as plain types (no Pulumi), as ledger-shapes.ts declares the
 * transactions': what a program writes (the SDK maps these to `pulumi.Input` forms, sdk/inputs.ts), what the resources
 * report, and the channel's configuration as getChannelConfig answers it. scripts/gen-schema.ts reads their doc
 * comments into the plugin's schema; `@secret` marks a field only ever stored as a Pulumi secret. Which part of a
 * channel each resource owns: docs/channels.md.
 */
import type { LedgerCredentials, LedgerIdentity } from "../ledger-shapes";
import type { LedgerIdentityOutputs } from "../session/ledger-session";

/**
 * An orderer or a peer and how to reach it: its gRPC endpoint over TLS, with a client certificate when it requires
 * one (mutual TLS), the key given in exactly one way as a gateway's is.
 */
export interface ChannelNode {
  /**
   * "host:port": an orderer's listen address (Broadcast, Deliver), a peer's (cscc, Deliver), or an orderer's admin
   * endpoint (the channel participation API, Admin.ListenAddress). Without tlsRootCertPem only a loopback address
   * (insecure).
   */
  address: string;
  /** PEM of the CA that signed the node's TLS certificate; enables TLS. */
  tlsRootCertPem?: string;
  /**
   * PEM client TLS certificate for a node that requires one (an orderer's admin endpoint always does), with exactly one
   * of clientKeyFile, clientKeyEnv or clientKeyPem.
   */
  clientCertPem?: string;
  /** The path of the client TLS key's PEM file, read where `pulumi` runs (relative to the program's directory). */
  clientKeyFile?: string;
  /** The name of an environment variable holding the client TLS key's PEM where `pulumi` runs. */
  clientKeyEnv?: string;
  /**
   * The client TLS key itself (PEM), only ever a Pulumi secret. Prefer clientKeyFile or clientKeyEnv.
   * @secret
   */
  clientKeyPem?: string;
  /** The TLS server name to expect instead of the address's host. */
  serverNameOverride?: string;
}

/** Our own deadlines of a configuration update (its Broadcast and the wait for its block), as durations ("2m"). */
export interface ChannelTimeouts {
  /** @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  create?: string;
  /** @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  update?: string;
}

/** What every resource owning a part of a running channel's configuration takes. */
export interface ChannelUpdateSettings {
  /** The channel id. A change is a new resource (replace): the same part of another channel. */
  channel: string;
  /** The orderer that takes the configuration update (Broadcast) and streams the channel's blocks (Deliver). */
  orderer: ChannelNode;
  /**
   * Who reads the channel's configuration (a member of its Readers), submits the update (a member of its Writers, as
   * an organization's admin is) and signs it as one of its approvers.
   */
  identity: LedgerIdentity;
  /**
   * The other admins whose signatures the update needs, each by reference (a key file, an environment variable, a
   * PKCS#11 token, a Cloud KMS key version). Before anything is sent, the signatures are checked against the mod_policy
   * of every element the update modifies, and a set that does not satisfy them is refused naming the organizations
   * missing. @default none: the identity alone signs
   */
  signers?: LedgerIdentity[];
  /** Our own deadlines. */
  timeouts?: ChannelTimeouts;
}

/** A channel policy as configtx.yaml writes it. */
export interface ChannelPolicy {
  /** "Signature" (the policy language, e.g. "OR('Org3MSP.admin')") or "ImplicitMeta" (e.g. "MAJORITY Admins"). */
  type: "Signature" | "ImplicitMeta";
  rule: string;
}

/** An organization's MSP as a channel holds it (what configtxgen reads from its MSP folder). */
export interface ChannelMsp {
  /** The MSP id, e.g. "Org3MSP" (also the organization's group key). */
  mspId: string;
  /** PEM root CA certificates (cacerts/): at least one. */
  rootCertificates: string[];
  /** PEM intermediate CA certificates (intermediatecerts/). @default [] */
  intermediateCertificates?: string[];
  /** PEM TLS root CA certificates (tlscacerts/): what other nodes trust this organization's TLS certificates with. */
  tlsRootCertificates: string[];
  /** PEM TLS intermediate CA certificates. @default [] */
  tlsIntermediateCertificates?: string[];
  /** Explicit admin certificates (admincerts/); with node OUs admins are told by the admin OU instead. @default [] */
  admins?: string[];
  /** PEM certificate revocation lists. @default [] */
  revocationList?: string[];
  /**
   * Node OUs as cryptogen's config.yaml enables them (client, peer, admin, orderer, each certified by the first root
   * certificate). @default true
   */
  nodeOUs?: boolean;
  /**
   * The organization's policies. @default configtx.yaml's sample: Readers (admin, peer, client), Writers (admin,
   * client), Admins (admin), Endorsement (peer)
   */
  policies?: Record<string, ChannelPolicy>;
}

/** A peer other organizations' peers gossip with. */
export interface ChannelAnchorPeer {
  host: string;
  port: number;
}

/** The inputs of a ChannelOrganization: an application organization's membership of a running channel. */
export interface ChannelOrganizationShape extends ChannelUpdateSettings {
  /**
   * The organization's MSP and policies, owned by this resource: added to the channel when it is not there, updated
   * when they differ. Its anchor peers are a ChannelAnchorPeers' (this resource leaves them as they are).
   */
  organization: ChannelMsp;
}

/** The inputs of a ChannelAnchorPeers: one organization's anchor peers (its own admin may set them alone). */
export interface ChannelAnchorPeersShape extends ChannelUpdateSettings {
  /** The organization, which must be in the channel. A change is a new resource (replace). */
  mspId: string;
  /** The whole list (an empty one removes them). */
  anchorPeers: ChannelAnchorPeer[];
}

/** Capabilities per level of a channel's configuration: each given level is owned (the whole set), the others left. */
export interface ChannelCapabilityLevels {
  /** The Channel group's, e.g. ["V3_0"] (Fabric 3, which Ed25519 identities need) or ["V2_0"]. */
  channel?: string[];
  /** The Orderer group's, e.g. ["V2_0"]. */
  orderer?: string[];
  /** The Application group's, e.g. ["V2_5"]. */
  application?: string[];
}

/** The inputs of a ChannelCapabilities. */
export interface ChannelCapabilitiesShape extends ChannelUpdateSettings {
  /** The capabilities this resource owns, per level. */
  capabilities: ChannelCapabilityLevels;
  /**
   * The Fabric release every peer and orderer of the network runs ("2.5.16", "3.1.5"): a capability it does not
   * support is refused before anything is sent (a node stops on a channel requiring one it does not know).
   * @default any capability some release this package knows supports
   */
  fabricVersion?: string;
}

/** A batch size of the ordering service: each given field is owned, the others left. */
export interface ChannelBatchSize {
  /** Transactions per block at most. */
  maxMessageCount?: number;
  /** A block's size in bytes at most (a transaction larger than this is refused). */
  absoluteMaxBytes?: number;
  /** The size a block is cut at when reached (at most absoluteMaxBytes). */
  preferredMaxBytes?: number;
}

/** The inputs of a ChannelBatchSettings: how the orderers cut blocks (the Orderer group's admins change them). */
export interface ChannelBatchSettingsShape extends ChannelUpdateSettings {
  /** How long the orderers wait before cutting a block that is not full: a Go duration ("2s", "500ms"). */
  batchTimeout?: string;
  batchSize?: ChannelBatchSize;
}

/** What a resource owning part of a channel reports: where the channel's configuration stood when it was last read. */
export interface ChannelPartOutcome {
  /** The channel's configuration sequence when this part was last applied or read (raised by every update). */
  configSequence: number;
  /** The configuration block (a decimal string: uint64) holding that configuration. */
  configBlock: string;
}

/** The key material of a channel part that no reference holds: the identity's and the orderer's, and each signer's. */
export interface ChannelCredentials extends LedgerCredentials {
  /** Each signer's key or PIN given as a value (in `signers`' order; empty for a reference). @secret */
  signers?: LedgerCredentials[];
}

/** What the state keeps of a channel part's settings: references, never keys (those only under `credentials`). */
export interface ChannelPartSettingsOutputs {
  orderer: Omit<ChannelNode, "clientKeyPem">;
  identity: LedgerIdentityOutputs;
  signers?: LedgerIdentityOutputs[];
  /**
   * Only ever a Pulumi secret: the keys and PINs given as values (refresh reads the channel as the identity with them).
   * @secret
   */
  credentials: ChannelCredentials;
}

/** An organization of a channel declared for its creation: its MSP and its anchor peers or orderer endpoints. */
export interface ChannelOrganizationDeclaration extends ChannelMsp {
  /** Application organizations: their anchor peers. @default [] */
  anchorPeers?: ChannelAnchorPeer[];
  /** Orderer organizations: their orderers' "host:port" (required with channel capability V3_0). @default [] */
  endpoints?: string[];
}

/** A consenter of the ordering service: Raft's (host, port, TLS certificates) or SmartBFT's (also id, MSP id, identity). */
export interface ChannelConsenter {
  /** The orderer's host as the other consenters reach it (its cluster endpoint). */
  host: string;
  port: number;
  /** PEM of its client TLS certificate. */
  clientTlsCert: string;
  /** PEM of its server TLS certificate. */
  serverTlsCert: string;
  /** SmartBFT: its consenter id (unique, from 1). */
  id?: number;
  /** SmartBFT: its organization's MSP id. */
  mspId?: string;
  /** SmartBFT: PEM of its enrolment certificate. */
  identity?: string;
}

/** etcdraft's options (configtx.yaml's EtcdRaft.Options). */
export interface ChannelEtcdRaftOptions {
  /** @default "500ms" */
  tickInterval?: string;
  /** @default 10 */
  electionTick?: number;
  /** @default 1 */
  heartbeatTick?: number;
  /** @default 5 */
  maxInflightBlocks?: number;
  /** Bytes. @default 16777216 */
  snapshotIntervalSize?: number;
}

/** SmartBFT's options (configtx.yaml's SmartBFT section; durations as Go durations). */
export interface ChannelSmartBftOptions {
  requestBatchMaxCount?: number;
  requestBatchMaxBytes?: number;
  requestBatchMaxInterval?: string;
  incomingMessageBufferSize?: number;
  requestPoolSize?: number;
  requestForwardTimeout?: string;
  requestComplainTimeout?: string;
  requestAutoRemoveTimeout?: string;
  requestMaxBytes?: number;
  viewChangeResendInterval?: string;
  viewChangeTimeout?: string;
  leaderHeartbeatTimeout?: string;
  leaderHeartbeatCount?: number;
  collectTimeout?: string;
  syncOnStart?: boolean;
  speedUpViewChange?: boolean;
  /** 0 unspecified, 1 off, 2 on. */
  leaderRotation?: number;
  decisionsPerLeader?: number;
}

/** Capabilities of a channel being created, every level given. */
export interface ChannelCapabilitySets {
  channel: string[];
  orderer: string[];
  application: string[];
}

/** The ordering service of a channel being created. */
export interface ChannelOrdererDeclaration {
  /** "etcdraft" (Raft) or "BFT" (SmartBFT: Fabric 3, channel capability V3_0). */
  consensus: "etcdraft" | "BFT";
  organizations: ChannelOrganizationDeclaration[];
  consenters: ChannelConsenter[];
  /** A Go duration. @default "2s" */
  batchTimeout?: string;
  /** @default 500 messages, 10 MiB absolute, 2 MiB preferred (configtxgen's sample) */
  batchSize?: ChannelBatchSize;
  /** etcdraft's options. @default configtxgen's */
  etcdRaftOptions?: ChannelEtcdRaftOptions;
  /** SmartBFT's options. */
  smartBftOptions?: ChannelSmartBftOptions;
  /** @default ANY Readers, ANY Writers, MAJORITY Admins, BlockValidation ANY Writers */
  policies?: Record<string, ChannelPolicy>;
  /** Global orderer addresses (channels before V3_0 only). @default [] */
  addresses?: string[];
}

/** The application side of a channel being created. */
export interface ChannelApplicationDeclaration {
  organizations: ChannelOrganizationDeclaration[];
  /** @default ANY Readers, ANY Writers, MAJORITY Admins, MAJORITY Endorsement for LifecycleEndorsement and Endorsement */
  policies?: Record<string, ChannelPolicy>;
  /** ACL resource → policy reference ("/Channel/Application/Readers"). @default Fabric's defaults */
  acls?: Record<string, string>;
}

/** The inputs of a Channel: a channel created from a declared configuration through the orderers' participation API. */
export interface ChannelShape {
  /** The channel id: lower-case letters, digits, '.' and '-', starting with a letter. A change is a new channel. */
  channel: string;
  /**
   * The Fabric release of the network ("2.5.16", "3.1.5"): capabilities are checked against it.
   * @default any capability some release this package knows supports
   */
  fabricVersion?: string;
  capabilities: ChannelCapabilitySets;
  /** The Channel group's policies. @default ANY Readers, ANY Writers, MAJORITY Admins */
  policies?: Record<string, ChannelPolicy>;
  orderer: ChannelOrdererDeclaration;
  application: ChannelApplicationDeclaration;
  /**
   * Each orderer to join to the channel, by its admin endpoint (Admin.ListenAddress) with a client TLS certificate
   * and key its Admin.TLS.ClientRootCAs trust (mutual TLS, as `osnadmin channel join` calls it). An orderer that has
   * the channel already is adopted.
   */
  orderers: ChannelNode[];
  /** Our own deadlines. */
  timeouts?: Pick<ChannelTimeouts, "create">;
}

/** The key material of a Channel that no reference holds. */
export interface ChannelOrdererCredentials {
  /** Each orderer's client TLS key given as a value (in `orderers`' order; "" for a reference). @secret */
  orderers?: string[];
}

/** The key material of a ChannelPeer that no reference holds. */
export interface ChannelPeerCredentials extends LedgerCredentials {
  /** The orderer's client TLS key, when given as a value. @secret */
  ordererClientKeyPem?: string;
}

/** An orderer's view of a channel (the participation API's answer). */
export interface ChannelOrdererStatus {
  /** The orderer's admin endpoint. */
  address: string;
  /** "consenter", "follower", "config-tracker" or "other". */
  consensusRelation: string;
  /** "active", "onboarding", "inactive" or "failed". */
  status: string;
  /** Whether the orderer had the channel already (adopted, not joined). */
  alreadyJoined: boolean;
}

/** The inputs of a ChannelPeer: one peer joined to a channel. */
export interface ChannelPeerShape {
  /** The channel id. A change is a new resource (replace). */
  channel: string;
  /** The peer (its gRPC endpoint, which serves cscc). */
  peer: ChannelNode;
  /** The peer's admin (cscc's JoinChain and GetChannels need its local MSP's Admins). */
  identity: LedgerIdentity;
  /**
   * The channel's genesis block, base64 (a Channel's `genesisBlock`). @default block 0 read from `orderer`, as the
   * identity (a member of the channel's Readers)
   */
  genesisBlock?: string;
  /** Where block 0 is read from when genesisBlock is not given. */
  orderer?: ChannelNode;
}

/** What getChannelConfig takes. */
export interface ChannelReadShape {
  /** The channel id. */
  channel: string;
  /** The node to read from: an orderer, or a peer of the channel (a peer sends a block once it committed it). */
  node: ChannelNode;
  /** Whether `node` is an orderer or a peer. @default "orderer" */
  nodeKind?: "orderer" | "peer";
  /** Who reads: a member of the channel's Readers. */
  identity: LedgerIdentity;
}

/** A policy of a channel's configuration, as text, with the policy that may change it. */
export interface ChannelPolicyView {
  /** "Signature", "ImplicitMeta", or "Unknown". */
  type: string;
  rule: string;
  modPolicy: string;
  version: number;
}

/** An organization as the channel's configuration holds it. */
export interface ChannelOrganizationView {
  /** Its group's key (usually the MSP id). */
  name: string;
  mspId: string;
  /** "fabric" (X.509), "idemix" or "unknown". */
  mspType: string;
  rootCertificates: string[];
  intermediateCertificates: string[];
  tlsRootCertificates: string[];
  tlsIntermediateCertificates: string[];
  admins: string[];
  /** Whether node OUs are enabled. */
  nodeOUs: boolean;
  /** Application organizations: their anchor peers. */
  anchorPeers: ChannelAnchorPeer[];
  /** Orderer organizations: their orderers' "host:port". */
  endpoints: string[];
  policies: Record<string, ChannelPolicyView>;
  modPolicy: string;
  version: number;
}

/** The ordering service as the channel's configuration holds it. */
export interface ChannelOrdererView {
  /** "etcdraft", "BFT" (or "solo", "kafka" on old channels). */
  consensusType: string;
  /** "STATE_NORMAL" or "STATE_MAINTENANCE". */
  state: string;
  batchSize: Required<ChannelBatchSize>;
  /** A Go duration. */
  batchTimeout: string;
  consenters: ChannelConsenter[];
  organizations: ChannelOrganizationView[];
  policies: Record<string, ChannelPolicyView>;
  capabilities: string[];
}

/** The application side as the channel's configuration holds it. */
export interface ChannelApplicationView {
  organizations: ChannelOrganizationView[];
  policies: Record<string, ChannelPolicyView>;
  /** ACL resource → policy reference. */
  acls: Record<string, string>;
  capabilities: string[];
}

/** A channel's configuration, decoded (getChannelConfig's result). */
export interface ChannelConfigView {
  channel: string;
  /** The configuration sequence (raised by one with every update). */
  sequence: number;
  /** The configuration block it was read from (a decimal string: uint64). */
  configBlock: string;
  capabilities: ChannelCapabilitySets;
  /** The Channel group's global orderer addresses (channels before V3_0). */
  ordererAddresses: string[];
  policies: Record<string, ChannelPolicyView>;
  orderer?: ChannelOrdererView;
  application?: ChannelApplicationView;
}
