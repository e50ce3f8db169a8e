/**
 * Each node's configuration file: the release's own sample (config/orderer.yaml or config/core.yaml of the archive,
 * so every setting we do not name keeps that release's default) with the settings below written over it. The result
 * goes into the node's folder, which is its FABRIC_CFG_PATH; nothing is written into the release's folder.
 *
 * What the overrides do, per Fabric's sampleconfig comments and
 * https://github.com/hyperledger/fabric/blob/main/docs/source/cc_service.md:
 * - orderer: listen on 127.0.0.1 with TLS; no system channel (General.BootstrapMethod "none"; 3.x has no other
 *   method and no such key); the channel participation API on (ChannelParticipation.Enabled) behind the Admin
 *   endpoint with mutual TLS (Admin.TLS.ClientAuthRequired; the orderer refuses to start without it when TLS is on);
 *   Raft cluster traffic on the same listener (Cluster.* left empty); ledger, WAL and snapshots in the node's folder.
 * - peer: listen, chaincode and gossip endpoints on 127.0.0.1; gossip's external endpoint set, so the other
 *   organization learns this peer (through the anchor peers) and each gateway can plan endorsements that need both;
 *   the Gateway service on; gossip reconnects after 2 s instead of 25 s (see below); no Docker (vm.endpoint empty) and the release's ccaas external builder as the only
 *   builder (chaincode.externalBuilders).
 *   With clientAuth, peer.tls.clientAuthRequired and every peer organization's TLS CA as clientRootCAs (the peer's
 *   own outgoing connections present its server TLS pair: peer.tls.clientCert.file is left empty).
 * - both: the operations endpoint (/healthz, /metrics with the Prometheus provider) on 127.0.0.1 with TLS; /healthz
 *   is open, /metrics needs a client certificate from the node organization's TLS CA (e.g. its admin's).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";
import type { NodeTls } from "./topology";
import type { FabricConsensus } from "./types";

type YamlObject = Record<string, unknown>;

function isObject(value: unknown): value is YamlObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Sets `path` (dot-separated keys) in `doc`, creating objects on the way. */
export function setPath(doc: YamlObject, path: string, value: unknown): void {
  const keys = path.split(".");
  let node = doc;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (isObject(next)) node = next;
    else {
      const created: YamlObject = {};
      node[key] = created;
      node = created;
    }
  }
  node[keys[keys.length - 1] ?? ""] = value;
}

/** Whether `path` exists in `doc`. */
export function hasPath(doc: YamlObject, path: string): boolean {
  let node: unknown = doc;
  for (const key of path.split(".")) {
    if (!isObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

function readSample(fabricHome: string, file: "orderer.yaml" | "core.yaml"): YamlObject {
  const doc: unknown = parse(readFileSync(join(fabricHome, "config", file), "utf8"));
  if (!isObject(doc)) throw new Error(`${join(fabricHome, "config", file)} is not a YAML mapping`);
  return doc;
}

function apply(doc: YamlObject, settings: Readonly<Record<string, unknown>>): string {
  for (const [path, value] of Object.entries(settings)) setPath(doc, path, value);
  return stringify(doc);
}

export interface OrdererConfigInput {
  readonly fabricHome: string;
  readonly nodeDir: string;
  readonly mspDir: string;
  readonly mspId: string;
  readonly tls: NodeTls;
  /** The orderer organization's TLS CA: trusted for clients of the admin endpoint (osnadmin) and of /metrics. */
  readonly adminClientCa: string;
  /** Where the consensus WAL goes: data/etcdraft/ or data/smartbft/ (BFT reads only Consensus.WALDir). */
  readonly consensus?: FabricConsensus;
  readonly ports: { readonly listen: number; readonly admin: number; readonly operations: number };
}

export function ordererYaml(input: OrdererConfigInput): string {
  const doc = readSample(input.fabricHome, "orderer.yaml");
  const data = join(input.nodeDir, "data");
  const consensusDir = input.consensus === "BFT" ? "smartbft" : "etcdraft";
  const settings: Record<string, unknown> = {
    "General.ListenAddress": "127.0.0.1",
    "General.ListenPort": input.ports.listen,
    "General.TLS.Enabled": true,
    "General.TLS.PrivateKey": input.tls.key,
    "General.TLS.Certificate": input.tls.cert,
    "General.TLS.RootCAs": [input.tls.ca],
    "General.TLS.ClientAuthRequired": false,
    "General.LocalMSPDir": input.mspDir,
    "General.LocalMSPID": input.mspId,
    "FileLedger.Location": join(data, "ledger"),
    "Consensus.WALDir": join(data, consensusDir, "wal"),
    "Consensus.SnapDir": join(data, consensusDir, "snapshot"),
    "Operations.ListenAddress": `127.0.0.1:${input.ports.operations}`,
    "Operations.TLS.Enabled": true,
    "Operations.TLS.Certificate": input.tls.cert,
    "Operations.TLS.PrivateKey": input.tls.key,
    "Operations.TLS.ClientAuthRequired": false,
    // With TLS on, /metrics and /logspec want a client certificate (core/operations/system.go: RequireCert).
    "Operations.TLS.ClientRootCAs": [input.adminClientCa],
    "Metrics.Provider": "prometheus",
    "Admin.ListenAddress": `127.0.0.1:${input.ports.admin}`,
    "Admin.TLS.Enabled": true,
    "Admin.TLS.Certificate": input.tls.cert,
    "Admin.TLS.PrivateKey": input.tls.key,
    "Admin.TLS.ClientAuthRequired": true,
    "Admin.TLS.ClientRootCAs": [input.adminClientCa],
    "ChannelParticipation.Enabled": true,
  };
  // 2.x still defaults to a system channel from a bootstrap file; 3.x removed the key along with the system channel.
  if (hasPath(doc, "General.BootstrapMethod")) settings["General.BootstrapMethod"] = "none";
  return apply(doc, settings);
}

export interface PeerConfigInput {
  readonly fabricHome: string;
  readonly nodeDir: string;
  readonly name: string;
  readonly mspDir: string;
  readonly mspId: string;
  readonly tls: NodeTls;
  /**
   * Require a client TLS certificate from every client (mutual TLS), issued by one of `clientRootCAs`: every peer
   * organization's TLS CA, since each gateway (and the admin CLI's lifecycle commit) reaches the other organization's
   * peer with its own organization's TLS certificate. @default false: the node's own TLS CA only, not required
   */
  readonly clientAuth?: { readonly clientRootCAs: readonly string[] };
  readonly ports: { readonly listen: number; readonly chaincode: number; readonly operations: number };
}

export function coreYaml(input: PeerConfigInput): string {
  const doc = readSample(input.fabricHome, "core.yaml");
  const data = join(input.nodeDir, "data");
  const address = `127.0.0.1:${input.ports.listen}`;
  return apply(doc, {
    "peer.id": input.name,
    "peer.listenAddress": address,
    "peer.address": address,
    "peer.chaincodeListenAddress": `127.0.0.1:${input.ports.chaincode}`,
    "peer.chaincodeAddress": `127.0.0.1:${input.ports.chaincode}`,
    "peer.gateway.enabled": true,
    // One peer per organization: it bootstraps gossip from itself and is its organization's leader.
    "peer.gossip.bootstrap": address,
    "peer.gossip.externalEndpoint": address,
    "peer.gossip.useLeaderElection": false,
    "peer.gossip.orgLeader": true,
    // Fabric's default is 25 s: a first handshake with the other organization fails while either peer is still
    // setting up the channel it just joined ("Could not acquire policy manager"), and gossip tries again only after
    // this interval (gossip/discovery Connect); also how soon a restarted peer is reconnected.
    "peer.gossip.reconnectInterval": "2s",
    "peer.tls.enabled": true,
    "peer.tls.clientAuthRequired": input.clientAuth !== undefined,
    "peer.tls.cert.file": input.tls.cert,
    "peer.tls.key.file": input.tls.key,
    "peer.tls.rootcert.file": input.tls.ca,
    "peer.tls.clientRootCAs.files": input.clientAuth?.clientRootCAs ?? [input.tls.ca],
    "peer.fileSystemPath": data,
    "peer.mspConfigPath": input.mspDir,
    "peer.localMspId": input.mspId,
    "vm.endpoint": "",
    "chaincode.externalBuilders": [{ name: "ccaas_builder", path: join(input.fabricHome, "builders", "ccaas") }],
    "ledger.snapshots.rootDir": join(data, "snapshots"),
    "operations.listenAddress": `127.0.0.1:${input.ports.operations}`,
    "operations.tls.enabled": true,
    "operations.tls.cert.file": input.tls.cert,
    "operations.tls.key.file": input.tls.key,
    "operations.tls.clientAuthRequired": false,
    "operations.tls.clientRootCAs.files": [input.tls.ca],
    "metrics.provider": "prometheus",
  });
}
