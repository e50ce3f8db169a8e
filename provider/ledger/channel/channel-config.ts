/**
 * A channel's configuration as a reader wants it (type declarations only): organizations with their MSP ids,
 * certificates (PEM text) and anchor peers or orderer endpoints; the orderers' consensus, consenters, batch size and
 * timeout; capabilities per level; policies as text with their mod_policy; ACLs; the config sequence. Built from the
 * configuration tree by describeChannelConfig (describe-config.ts); the tree stays the source of truth for updates.
 */
import type { PolicyText } from "./policy-text";

/** A policy of a group: its text, and the policy that may change it. */
export interface PolicyView extends PolicyText {
  readonly modPolicy: string;
  readonly version: bigint;
}

/** A node OU of an MSP with NodeOUs enabled. */
export interface NodeOu {
  readonly organizationalUnitIdentifier: string;
  /** The CA certificate (PEM) the OU must be certified by, when the MSP names one. */
  readonly certificate?: string;
}

export interface NodeOus {
  readonly enable: boolean;
  readonly client?: NodeOu;
  readonly peer?: NodeOu;
  readonly admin?: NodeOu;
  readonly orderer?: NodeOu;
}

export interface AnchorPeer {
  readonly host: string;
  readonly port: number;
}

/** An organization of the Application or Orderer group. */
export interface OrganizationConfig {
  /** The group's key (configtxgen uses the organization's Name; usually the MSP id). */
  readonly name: string;
  /** The MSP id (FabricMSPConfig.name). */
  readonly mspId: string;
  /** "fabric" (X.509), "idemix", or "unknown" (the MSP value's type number). */
  readonly mspType: "fabric" | "idemix" | "unknown";
  readonly rootCertificates: readonly string[];
  readonly intermediateCertificates: readonly string[];
  readonly tlsRootCertificates: readonly string[];
  readonly tlsIntermediateCertificates: readonly string[];
  /** Explicit admin certificates (empty when admins are told by the admin node OU). */
  readonly admins: readonly string[];
  readonly revocationList: readonly string[];
  readonly organizationalUnitIdentifiers: readonly NodeOu[];
  readonly nodeOUs?: NodeOus;
  /** Application organizations: their anchor peers. */
  readonly anchorPeers: readonly AnchorPeer[];
  /** Orderer organizations: their orderers' endpoints ("host:port"). */
  readonly endpoints: readonly string[];
  readonly policies: Readonly<Record<string, PolicyView>>;
  readonly modPolicy: string;
  readonly version: bigint;
}

/** One consenter: Raft's (host, port, TLS certificates) or SmartBFT's (also id, MSP id, enrolment certificate). */
export interface OrdererConsenter {
  readonly host: string;
  readonly port: number;
  readonly clientTlsCert: string;
  readonly serverTlsCert: string;
  readonly id?: number;
  readonly mspId?: string;
  readonly identity?: string;
}

export interface BatchSizeConfig {
  readonly maxMessageCount: number;
  readonly absoluteMaxBytes: number;
  readonly preferredMaxBytes: number;
}

export interface OrdererConfig {
  /** "etcdraft", "BFT" (or "solo", "kafka" on old channels). */
  readonly consensusType: string;
  readonly state: "STATE_NORMAL" | "STATE_MAINTENANCE";
  readonly batchSize: BatchSizeConfig;
  /** A Go duration, e.g. "2s" or "500ms". */
  readonly batchTimeout: string;
  /** ChannelRestrictions.max_count (0: no limit). */
  readonly maxChannels: bigint;
  readonly consenters: readonly OrdererConsenter[];
  /** etcdraft's options (tick interval, election tick, ...), as the metadata has them. */
  readonly etcdRaftOptions?: Readonly<Record<string, string | number>>;
  /** SmartBFT's options, as the metadata has them. */
  readonly smartBftOptions?: Readonly<Record<string, string | number | boolean>>;
  readonly organizations: readonly OrganizationConfig[];
  readonly policies: Readonly<Record<string, PolicyView>>;
  readonly capabilities: readonly string[];
  readonly modPolicy: string;
}

export interface ApplicationConfig {
  readonly organizations: readonly OrganizationConfig[];
  readonly policies: Readonly<Record<string, PolicyView>>;
  /** ACL resource name → policy reference ("/Channel/Application/Readers"). */
  readonly acls: Readonly<Record<string, string>>;
  readonly capabilities: readonly string[];
  readonly modPolicy: string;
}

/** A channel's capabilities per level (Channel, Orderer and Application groups), e.g. V3_0, V2_0, V2_5. */
export interface CapabilitySets {
  readonly channel: readonly string[];
  readonly orderer: readonly string[];
  readonly application: readonly string[];
}

export interface ChannelConfig {
  readonly channelId: string;
  /** Config.sequence: raised by one with every configuration update. */
  readonly sequence: bigint;
  /** The configuration block's number, when it was read from a block. */
  readonly configBlock?: bigint;
  readonly capabilities: CapabilitySets;
  readonly hashingAlgorithm: string;
  readonly blockDataHashingWidth: number;
  /** The Channel group's global OrdererAddresses (channels before V3_0; V3_0 forbids them). */
  readonly ordererAddresses: readonly string[];
  readonly policies: Readonly<Record<string, PolicyView>>;
  readonly modPolicy: string;
  readonly orderer?: OrdererConfig;
  readonly application?: ApplicationConfig;
}
