/**
 * The inputs of cryptogen (crypto-config.yaml) and configtxgen (configtx.yaml), generated from the topology. The
 * application channel is created without a system channel: configtxgen writes its genesis block, which every orderer
 * joins through the channel participation API (osnadmin) and every peer joins with `peer channel join`.
 *
 * Capabilities per release line: Fabric 3.x runs channels at channel capability V3_0 (its sample's default; required
 * for BFT and Ed25519, and it forbids the global Orderer.Addresses, so orderer endpoints are per organization, as
 * here); a 2.5 binary does not know V3_0 and stops on such a channel, so 2.5 gets V2_0. Orderer V2_0 and application
 * V2_5 on both.
 *
 * Consensus: etcdraft (a Consenters list of host, port and TLS certificates) or BFT (SmartBFT, 3.x only: a
 * ConsenterMapping whose entries add an ID, the MSP ID and the orderer's enrolment certificate, by which each orderer
 * finds its own ID; configtxgen derives the BlockValidation policy from it as a quorum of those identities). The
 * SmartBFT timeouts are Fabric's defaults (fabric-samples test-network's BFT profile): a follower forwards a request
 * to the leader and waits RequestForwardTimeout (2 s), then complains; a view change starts after
 * RequestComplainTimeout (20 s) — a leader's death may stall ordering that long plus the view change itself.
 */
import { stringify } from "yaml";
import {
  NetworkLayout,
  ORDERER_HOSTS,
  ORDERER_DOMAIN,
  ORDERER_MSP_ID,
  PEER_ORGS,
  CHAINCODE_HOST,
  ordererName,
  type PeerOrgSpec,
} from "./topology";
import type { FabricConsensus, FabricKeyType } from "./types";

/** Ports chosen for the nodes that the channel configuration names. */
export interface ChannelPorts {
  /** Listen port of each orderer, in ordererHosts order. */
  readonly orderers: readonly number[];
  /** Listen port of each organization's peer, in PEER_ORGS order. */
  readonly peers: readonly number[];
}

export interface ChannelSettings {
  readonly version: string;
  readonly batchTimeoutMs: number;
  readonly maxMessageCount: number;
  readonly raftTickIntervalMs: number;
  readonly raftElectionTick: number;
  readonly consensus: FabricConsensus;
  /** The orderers' host names (ordererHosts). */
  readonly ordererHosts: readonly string[];
  /** The Channel group's capability. @default channelCapability(version) */
  readonly channelCapability?: "V2_0" | "V3_0";
}

const LOCAL_SANS = ["127.0.0.1", "localhost"];

/**
 * cryptogen's input. `keyTypes` (MSP id to key type, default ECDSA P-256): an Ed25519 organization gets cryptogen's
 * `PublicKeyAlgorithm: ed25519` for its CAs, nodes and users; a P-384 one is made P-256 here and reissued afterwards
 * (org-keys.ts).
 */
export function cryptoConfigYaml(
  keyTypes: ReadonlyMap<string, FabricKeyType> = new Map(),
  orderers: readonly string[] = ORDERER_HOSTS,
): string {
  return stringify({
    OrdererOrgs: [
      {
        Name: "Orderer",
        Domain: ORDERER_DOMAIN,
        EnableNodeOUs: true,
        Specs: orderers.map((h) => ({ Hostname: h, SANS: LOCAL_SANS })),
      },
    ],
    PeerOrgs: PEER_ORGS.map((org) => {
      const type = keyTypes.get(org.mspId) ?? "ecdsa-p256";
      const algorithm = type === "ed25519" ? { PublicKeyAlgorithm: "ed25519" } : {};
      return {
        Name: org.name,
        Domain: org.domain,
        EnableNodeOUs: true,
        ...(type === "ed25519" ? { CA: algorithm } : {}),
        // peer0 and the chaincode server (only its TLS certificate is used).
        Specs: [
          { Hostname: "peer0", SANS: LOCAL_SANS, ...algorithm },
          { Hostname: CHAINCODE_HOST, SANS: LOCAL_SANS, ...algorithm },
        ],
        Users: { Count: 1, ...algorithm },
      };
    }),
  });
}

function signature(rule: string): { Type: string; Rule: string } {
  return { Type: "Signature", Rule: rule };
}
function implicitMeta(rule: string): { Type: string; Rule: string } {
  return { Type: "ImplicitMeta", Rule: rule };
}

function peerOrganization(layout: NetworkLayout, org: PeerOrgSpec, peerPort: number): object {
  const m = org.mspId;
  return {
    Name: m,
    ID: m,
    MSPDir: layout.orgMsp(org),
    Policies: {
      Readers: signature(`OR('${m}.admin', '${m}.peer', '${m}.client')`),
      Writers: signature(`OR('${m}.admin', '${m}.client')`),
      Admins: signature(`OR('${m}.admin')`),
      Endorsement: signature(`OR('${m}.peer')`),
    },
    // Gossip across organizations (and so the gateways' discovery of the other organization's peer) starts here.
    AnchorPeers: [{ Host: "127.0.0.1", Port: peerPort }],
  };
}

/** Channel capability by release line: see the module comment. */
export function channelCapability(version: string): "V2_0" | "V3_0" {
  return version.startsWith("2.") ? "V2_0" : "V3_0";
}

/** The SmartBFT options: Fabric's defaults, the batch interval ours (see the module comment). */
export function smartBftOptions(batchTimeoutMs: number, maxMessageCount: number): Record<string, string | number> {
  return {
    RequestBatchMaxCount: maxMessageCount,
    RequestBatchMaxBytes: 10 * 1024 * 1024,
    RequestBatchMaxInterval: `${batchTimeoutMs}ms`,
    IncomingMessageBufferSize: 200,
    RequestPoolSize: 100_000,
    RequestForwardTimeout: "2s",
    RequestComplainTimeout: "20s",
    RequestAutoRemoveTimeout: "3m0s",
    ViewChangeResendInterval: "5s",
    ViewChangeTimeout: "20s",
    LeaderHeartbeatTimeout: "1m0s",
    LeaderHeartbeatCount: 10,
    CollectTimeout: "1s",
  };
}

/** The Orderer section's consensus keys: OrdererType and EtcdRaft, or OrdererType, SmartBFT and ConsenterMapping. */
function consensusSection(layout: NetworkLayout, ports: ChannelPorts, settings: ChannelSettings): object {
  const consenter = (host: string, i: number): { name: string; port: number; tls: string } => {
    const name = ordererName(host);
    return { name, port: ports.orderers[i] ?? 0, tls: layout.ordererTls(name).cert };
  };
  if (settings.consensus === "BFT")
    return {
      OrdererType: "BFT",
      SmartBFT: smartBftOptions(settings.batchTimeoutMs, settings.maxMessageCount),
      ConsenterMapping: settings.ordererHosts.map((host, i) => {
        const c = consenter(host, i);
        return {
          ID: i + 1,
          Host: "127.0.0.1",
          Port: c.port,
          MSPID: ORDERER_MSP_ID,
          Identity: layout.ordererSigncert(c.name),
          ClientTLSCert: c.tls,
          ServerTLSCert: c.tls,
        };
      }),
    };
  return {
    OrdererType: "etcdraft",
    EtcdRaft: {
      Consenters: settings.ordererHosts.map((host, i) => {
        const c = consenter(host, i);
        return { Host: "127.0.0.1", Port: c.port, ClientTLSCert: c.tls, ServerTLSCert: c.tls };
      }),
      Options: {
        TickInterval: `${settings.raftTickIntervalMs}ms`,
        ElectionTick: settings.raftElectionTick,
        HeartbeatTick: 1,
        MaxInflightBlocks: 5,
        SnapshotIntervalSize: "16 MB",
      },
    },
  };
}

export function configtxYaml(layout: NetworkLayout, ports: ChannelPorts, settings: ChannelSettings): string {
  const ordererOrg = {
    Name: ORDERER_MSP_ID,
    ID: ORDERER_MSP_ID,
    MSPDir: layout.ordererOrgMsp(),
    Policies: {
      Readers: signature(`OR('${ORDERER_MSP_ID}.member')`),
      Writers: signature(`OR('${ORDERER_MSP_ID}.member')`),
      Admins: signature(`OR('${ORDERER_MSP_ID}.admin')`),
    },
    OrdererEndpoints: ports.orderers.map((p) => `127.0.0.1:${p}`),
  };
  const channelPolicies = {
    Readers: implicitMeta("ANY Readers"),
    Writers: implicitMeta("ANY Writers"),
    Admins: implicitMeta("MAJORITY Admins"),
  };
  const profile = {
    Policies: channelPolicies,
    Capabilities: { [settings.channelCapability ?? channelCapability(settings.version)]: true },
    Orderer: {
      ...consensusSection(layout, ports, settings),
      BatchTimeout: `${settings.batchTimeoutMs}ms`,
      BatchSize: { MaxMessageCount: settings.maxMessageCount, AbsoluteMaxBytes: "10 MB", PreferredMaxBytes: "2 MB" },
      Organizations: [ordererOrg],
      Policies: { ...channelPolicies, BlockValidation: implicitMeta("ANY Writers") },
      Capabilities: { V2_0: true },
    },
    Application: {
      Organizations: PEER_ORGS.map((org, i) => peerOrganization(layout, org, ports.peers[i] ?? 0)),
      Policies: {
        ...channelPolicies,
        LifecycleEndorsement: implicitMeta("MAJORITY Endorsement"),
        Endorsement: implicitMeta("MAJORITY Endorsement"),
      },
      Capabilities: { V2_5: true },
    },
  };
  return stringify({ Profiles: { OpsledgerChannel: profile } });
}

export const CHANNEL_PROFILE = "OpsledgerChannel";
