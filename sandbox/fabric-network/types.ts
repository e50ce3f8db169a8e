/**
 * The public face of the real Fabric network: its options, the handle, and the shape of network.json (the
 * machine-readable description written into the network's folder, which other processes read to connect, to
 * kill/restart a given node, or to stop the network).
 */

/** The Fabric releases the network is built for: the LTS line and the current line. */
export const FABRIC_VERSIONS = ["2.5.16", "3.1.5"] as const;
export type FabricVersion = (typeof FABRIC_VERSIONS)[number];
export const DEFAULT_FABRIC_VERSION: FabricVersion = "2.5.16";

export const FABRIC_NETWORK_CHANNEL = "opsledger";
export const FABRIC_NETWORK_CHAINCODE = "assets";
export const FABRIC_NETWORK_CHAINCODE_VERSION = "1.0";
/** Every transaction needs an endorsement from a peer of each organization. */
export const FABRIC_NETWORK_ENDORSEMENT_POLICY = "AND('Org1MSP.peer','Org2MSP.peer')";
/** How long a network may take to come up before startFabricNetwork gives up (2 shared cores: generous). */
export const DEFAULT_FABRIC_START_TIMEOUT_MS = 180_000;
/** How long the orderers wait before cutting a block that is not full. */
export const DEFAULT_BATCH_TIMEOUT_MS = 500;
/** Transactions per block at most. */
export const DEFAULT_MAX_MESSAGE_COUNT = 10;
/**
 * etcdraft timing: a tick every 200 ms, an election after 10 ticks without a leader (2 s). Fabric's sample uses
 * 500 ms x 10; shorter ticks make re-election after a killed leader quicker while staying clear of spurious elections
 * on a loaded 2-core machine.
 */
export const DEFAULT_RAFT_TICK_INTERVAL_MS = 200;
export const DEFAULT_RAFT_ELECTION_TICK = 10;
/**
 * The ordering service's consensus: etcdraft (crash fault tolerant; 2.5.x and 3.x) or BFT (SmartBFT, Byzantine fault
 * tolerant: 3.x only, channel capability V3_0, 3f+1 orderers to tolerate f faults, so at least four).
 */
export const FABRIC_CONSENSUS_TYPES = ["etcdraft", "BFT"] as const;
export type FabricConsensus = (typeof FABRIC_CONSENSUS_TYPES)[number];
/** The fewest orderers a BFT channel may have: 3f+1 with f = 1. */
export const MIN_BFT_ORDERERS = 4;
/** Orderers per consensus unless told otherwise: three Raft nodes (one fault), four BFT nodes (one fault). */
export const DEFAULT_ORDERER_COUNT: Readonly<Record<FabricConsensus, number>> = { etcdraft: 3, BFT: 4 };
/** The most orderers a network may have (each is a process on this machine). */
export const MAX_ORDERER_COUNT = 7;
/**
 * The key types an organization's identities (its CA, peer, admin and client) may have: ECDSA P-256 (cryptogen's
 * default, every organization unless told otherwise), ECDSA P-384 (Fabric's MSP has always accepted it; cryptogen
 * cannot make it, so the network issues that organization's MSP certificates itself) and Ed25519 (Fabric 3 on a
 * channel with capability V3_0 only; cryptogen's `PublicKeyAlgorithm: ed25519`).
 */
export const FABRIC_KEY_TYPES = ["ecdsa-p256", "ecdsa-p384", "ed25519"] as const;
export type FabricKeyType = (typeof FABRIC_KEY_TYPES)[number];

/** The environment variable through which other processes (mocha workers) find a running network's network.json. */
export const FABRIC_NETWORK_ENV = "OPSLEDGER_FABRIC_NETWORK";

export interface FabricNetworkOptions {
  /** The Fabric release to run. @default "2.5.16" */
  readonly version?: FabricVersion;
  /**
   * The folder for all state and logs; created (it must not exist or be empty) and removed by close().
   * @default a fresh `opsledger-fabric-*` folder under the OS temp dir
   */
  readonly dir?: string;
  /** The unpacked release (bin/, config/, builders/). @default what scripts/ensure-fabric.sh <version> prints */
  readonly fabricHome?: string;
  /** @default DEFAULT_FABRIC_START_TIMEOUT_MS */
  readonly startTimeoutMs?: number;
  /**
   * The ordering service's consensus. "BFT" needs a 3.x release and at least MIN_BFT_ORDERERS orderers.
   * @default "etcdraft"
   */
  readonly consensus?: FabricConsensus;
  /** How many orderers (1 to MAX_ORDERER_COUNT). @default DEFAULT_ORDERER_COUNT of the consensus */
  readonly orderers?: number;
  /** Raft's BatchTimeout; BFT's RequestBatchMaxInterval. @default DEFAULT_BATCH_TIMEOUT_MS */
  readonly batchTimeoutMs?: number;
  /** @default DEFAULT_MAX_MESSAGE_COUNT */
  readonly maxMessageCount?: number;
  /** @default DEFAULT_RAFT_TICK_INTERVAL_MS */
  readonly raftTickIntervalMs?: number;
  /** @default DEFAULT_RAFT_ELECTION_TICK */
  readonly raftElectionTick?: number;
  /**
   * The key type of each peer organization's identities, by MSP id ("Org1MSP", "Org2MSP"); an organization not named
   * keeps ECDSA P-256, and the orderer organization always has it. "ed25519" needs a 3.x release (V3_0 channels).
   * @default every organization ECDSA P-256
   */
  readonly keyTypes?: Readonly<Record<string, FabricKeyType>>;
  /**
   * The channel's Channel-group capability. A 3.x release runs V3_0 unless told "V2_0" (a 3.x channel without V3_0,
   * as one created before an upgrade: Raft only, no Ed25519 organization); 2.x knows only V2_0.
   * @default "V3_0" on 3.x, "V2_0" on 2.x
   */
  readonly channelCapability?: "V2_0" | "V3_0";
  /**
   * Whether the peers require a client TLS certificate from every client (`peer.tls.clientAuthRequired`, trusting
   * both organizations' TLS CAs, so each gateway reaches the other organization's peer too): mutual TLS to the
   * gateway. Clients present their user's cryptogen TLS certificate (FabricIdentity.tlsCertificatePem). The orderers
   * keep server-only TLS: clients of this network never reach them (the gateway peer submits with its own TLS pair).
   * @default false
   */
  readonly clientAuth?: boolean;
  /** FABRIC_LOGGING_SPEC of peers and orderers. @default "info" */
  readonly logSpec?: string;
  /**
   * Whether the processes outlive this Node process. false (the library's default): a watchdog stops them and
   * removes the folder when this process ends in any way, even kill -9. true: once the network is up they run until
   * close(), stopNetwork or `npm run fabric:down` (what `npm run fabric:up` uses); while it starts, the watchdog
   * guards it either way. @default false
   */
  readonly persistent?: boolean;
  /** Progress lines ("creating the channel", ...). @default none */
  readonly log?: (line: string) => void;
}

/** Where an identity's files are (cryptogen's layout). */
export interface FabricIdentityFiles {
  readonly mspId: string;
  readonly certificatePath: string;
  /** PKCS#8 PEM, mode 0600: the key stays in the network's folder, never in network.json or a log. */
  readonly privateKeyPath: string;
  /** The identity's MSP folder (what the peer CLI takes as CORE_PEER_MSPCONFIGPATH). */
  readonly mspDir: string;
  /** The user's TLS client certificate (cryptogen's users/<user>/tls/client.crt, from the organization's TLS CA). */
  readonly tlsCertificatePath: string;
  /** Its key (PEM, in the network's folder only): mutual TLS to a peer with clientAuthRequired. */
  readonly tlsPrivateKeyPath: string;
}

/** An identity with its certificate and key read from the folder. */
export interface FabricIdentity extends FabricIdentityFiles {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
  readonly tlsCertificatePem: string;
  readonly tlsPrivateKeyPem: string;
}

/** One organization's way in as network.json records it: its peer's Gateway service, TLS settings, identities. */
export interface FabricOrganizationRecord {
  readonly mspId: string;
  readonly domain: string;
  /** The peer's name (its host name in the certificates), e.g. "peer0.org1.example.com". */
  readonly peerName: string;
  /** "127.0.0.1:<port>": the peer's gRPC endpoint, Gateway service included. */
  readonly gatewayAddress: string;
  /** The name the peer's TLS certificate carries (it also has 127.0.0.1 and localhost). */
  readonly tlsServerName: string;
  /** The organization's TLS CA, which issued the peer's TLS certificate (trust it to connect). */
  readonly tlsRootCertPath: string;
  /** Whether the peer requires a client TLS certificate (FabricNetworkOptions.clientAuth): present the user's. */
  readonly clientAuthRequired: boolean;
  /** The key type of the organization's CA, peer and users (TLS keeps cryptogen's own; see FABRIC_KEY_TYPES). */
  readonly keyType: FabricKeyType;
  /** The organization's root CA (identities, endorsements): its entry of trustedRootCertificates. */
  readonly caCertificatePath: string;
  /** The peer's MSP folder (signcerts/, keystore/priv_sk): what its endorsements are signed with, for crafted ones. */
  readonly peerMspDir: string;
  /** A client identity (NodeOU `client`): what applications submit with. */
  readonly client: FabricIdentityFiles;
  /** The organization's admin (NodeOU `admin`): channel joins, chaincode lifecycle. */
  readonly admin: FabricIdentityFiles;
}

/** An organization with its PEMs read from the folder. */
export interface FabricOrganization extends FabricOrganizationRecord {
  readonly tlsRootCertPem: string;
  readonly caCertificatePem: string;
  readonly client: FabricIdentity;
  readonly admin: FabricIdentity;
}

/** A joining organization with its PEMs read from the folder. */
export interface FabricJoiningOrganization
  extends
    FabricOrganization,
    Pick<FabricJoiningOrganizationRecord, "mspDir" | "anchorPeer" | "peerProcess" | "chaincode"> {}

export interface FabricOrderer {
  readonly name: string;
  /** "127.0.0.1:<port>": broadcast and deliver (TLS). */
  readonly address: string;
  /** "127.0.0.1:<port>": the channel participation API (mutual TLS, osnadmin). */
  readonly adminAddress: string;
  /** "http://127.0.0.1:<port>": /healthz and /metrics (Prometheus). */
  readonly operationsUrl: string;
  readonly tlsServerName: string;
  /** Its consenter ID in the channel's BFT ConsenterMapping (1, 2, ...); absent on a Raft network. */
  readonly consenterId?: number;
}

export type FabricProcessRole = "orderer" | "peer" | "chaincode" | "watchdog";

/** A process of the network as network.json records it: enough to find, verify, kill and start it again. */
export interface FabricProcessRecord {
  readonly name: string;
  readonly role: FabricProcessRole;
  readonly mspId: string;
  /** The pid of the last start; null while stopped. */
  readonly pid: number | null;
  readonly ports: Readonly<Record<string, number>>;
  readonly log: string;
  /** argv, executable first: /proc/<pid>/cmdline must equal it before any signal is sent. */
  readonly command: readonly string[];
  readonly cwd: string;
  /** Variables set on top of the cleaned environment (no secrets: configuration paths and logging only). */
  readonly env: Readonly<Record<string, string>>;
}

/** network.json. Paths are absolute. */
export interface FabricNetworkDescription {
  readonly schema: 1;
  readonly version: string;
  readonly dir: string;
  readonly fabricHome: string;
  /** The process whose end stops the network (its watchdog), or null for a persistent network. */
  readonly owner: { readonly pid: number; readonly watchdog: FabricProcessRecord | null } | null;
  readonly channel: string;
  readonly chaincode: {
    readonly name: string;
    readonly version: string;
    readonly sequence: number;
    readonly endorsementPolicy: string;
    /** The ccaas package each organization installed and approved (one chaincode server per organization). */
    readonly packageIds: Readonly<Record<string, string>>;
  };
  readonly batchTimeoutMs: number;
  /** The channel's consensus (absent in files written before BFT existed here: etcdraft). */
  readonly consensus?: FabricConsensus;
  readonly organizations: readonly FabricOrganizationRecord[];
  readonly orderers: readonly FabricOrderer[];
  /** The orderer organization's TLS CA (orderer endpoints, osnadmin, operations). */
  readonly ordererTlsRootCertPath: string;
  /** The orderer organization admin's TLS client certificate: osnadmin's --client-cert/--client-key, and /metrics. */
  readonly ordererAdminTls: { readonly certPath: string; readonly keyPath: string };
  readonly processes: readonly FabricProcessRecord[];
  /**
   * Organizations prepared to join the channel later (absent in files written before they existed): not in the
   * channel's genesis, their processes not started and not in `processes` until startJoiningOrganization.
   */
  readonly joiningOrganizations?: readonly FabricJoiningOrganizationRecord[];
}

/**
 * An organization a test adds to the running channel (Org3MSP): its crypto material, a peer and a chaincode server
 * prepared but not started, and the ccaas package of the `assets` chaincode that points its peer at its own server.
 */
export interface FabricJoiningOrganizationRecord extends FabricOrganizationRecord {
  /** The organization's MSP folder (cacerts/, tlscacerts/, config.yaml): what a channel update declares it from. */
  readonly mspDir: string;
  /** The peer's anchor-peer endpoint once it runs: host and port of its gRPC listener. */
  readonly anchorPeer: { readonly host: string; readonly port: number };
  /** The peer's process record, added to `processes` when it first starts. */
  readonly peerProcess: FabricProcessRecord;
  readonly chaincode: {
    /** The ccaas package file (install it on the organization's peer). */
    readonly packageFile: string;
    /** `<label>:<SHA-256 of the package>`, what `peer lifecycle chaincode calculatepackageid` prints. */
    readonly packageId: string;
    /** The chaincode server serving that package id, added to `processes` when it first starts. */
    readonly serverProcess: FabricProcessRecord;
  };
}

export interface StopProcessOptions {
  /** @default "SIGTERM" (graceful); "SIGKILL" is kill -9 */
  readonly signal?: NodeJS.Signals;
}

/** A running network (started here, or opened from its network.json). */
export interface FabricNetwork {
  readonly version: string;
  readonly dir: string;
  /** The path of network.json; hand it to other processes (FABRIC_NETWORK_ENV). */
  readonly networkFile: string;
  readonly channel: string;
  readonly chaincode: string;
  readonly endorsementPolicy: string;
  /** The channel's consensus. */
  readonly consensus: FabricConsensus;
  readonly organizations: readonly FabricOrganization[];
  readonly orderers: readonly FabricOrderer[];
  /** Organizations prepared to join the channel (Org3MSP), with their PEMs; not members until a test adds them. */
  readonly joiningOrganizations: readonly FabricJoiningOrganization[];
  /** Root CA certificate (PEM) of each organization, by MSP id (trustedRootCertificates). */
  readonly caCertificates: Readonly<Record<string, string>>;
  /** The organization with this MSP id; throws naming the known ones. */
  organization(mspId: string): FabricOrganization;
  /** The processes as network.json records them now. */
  processes(): readonly FabricProcessRecord[];
  /** Stops one process (orderer, peer or chaincode server) by name and waits until it is gone. */
  stopProcess(name: string, options?: StopProcessOptions): Promise<void>;
  /** Starts a stopped process again with its recorded command and waits until it answers. */
  startProcess(name: string): Promise<void>;
  /** stopProcess, then startProcess. */
  restartProcess(name: string, options?: StopProcessOptions): Promise<void>;
  /** The orderer that is Raft leader of the channel now (consensus_etcdraft_is_leader), or undefined. */
  raftLeader(): Promise<string | undefined>;
  /** Waits until a running orderer other than `except` is leader; resolves to its name. */
  waitForRaftLeader(options?: { readonly except?: string; readonly timeoutMs?: number }): Promise<string>;
  /**
   * The orderer that leads the channel now, whatever the consensus: the Raft leader, or the BFT leader that every
   * running orderer names (consensus_smartbft_view_leader_id); undefined while there is none or they disagree.
   */
  leader(): Promise<string | undefined>;
  /** Waits until a running orderer other than `except` leads (see leader()); resolves to its name. */
  waitForLeader(options?: { readonly except?: string; readonly timeoutMs?: number }): Promise<string>;
  /**
   * Started here: stops every process and removes the folder. Opened from network.json: only forgets it (the
   * owner stops it).
   */
  close(): Promise<void>;
}
