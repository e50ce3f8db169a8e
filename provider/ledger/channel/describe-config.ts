/**
 * describeChannelConfig: the configuration tree (common.Config) decoded into the readable ChannelConfig — every value
 * decoded with its codec, certificates as PEM text, policies as the text operators write, maps as objects sorted by
 * key. Nothing is checked here beyond decoding: a value that does not decode is a LedgerDecodeError naming its path.
 */
import { codecs } from "../codec";
import type { Config, ConfigGroup, FabricNodeOus, FabricOuIdentifier, SmartBftOptions } from "../config-messages";
import type { ConfigBlock } from "./config-block";
import type {
  ApplicationConfig,
  ChannelConfig,
  NodeOu,
  NodeOus,
  OrdererConfig,
  OrdererConsenter,
  OrganizationConfig,
  PolicyView,
} from "./channel-config";
import { GROUP, VALUE, decodeValue, groupKeys, subGroup, valueAt } from "./config-tree";
import { policyText } from "./policy-text";

const text = (bytes: Uint8Array): string => Buffer.from(bytes).toString("utf8");
const MSP_TYPES = ["fabric", "idemix"] as const;
const ETCDRAFT = "etcdraft";
const BFT = "BFT";

/** The capability names of a group's "Capabilities" value, sorted. */
export function capabilityNames(group: ConfigGroup | undefined, path: string): string[] {
  const caps = decodeValue(group, VALUE.CAPABILITIES, codecs.Capabilities, path);
  return (caps?.capabilities ?? []).map((c) => c.key).sort();
}

function policiesOf(group: ConfigGroup): Record<string, PolicyView> {
  const out: Record<string, PolicyView> = {};
  for (const { key, value } of [...group.policies].sort((a, b) => a.key.localeCompare(b.key))) {
    out[key] = { ...policyText(value?.policy), modPolicy: value?.modPolicy ?? "", version: value?.version ?? 0n };
  }
  return out;
}

function ouOf(ou: FabricOuIdentifier | undefined): NodeOu | undefined {
  if (ou === undefined) return undefined;
  return {
    organizationalUnitIdentifier: ou.organizationalUnitIdentifier,
    ...(ou.certificate.length === 0 ? {} : { certificate: text(ou.certificate) }),
  };
}

function nodeOusOf(nodeOus: FabricNodeOus | undefined): NodeOus | undefined {
  if (nodeOus === undefined) return undefined;
  const entries = { client: nodeOus.clientOuIdentifier, peer: nodeOus.peerOuIdentifier };
  const more = { admin: nodeOus.adminOuIdentifier, orderer: nodeOus.ordererOuIdentifier };
  const out: Record<string, NodeOu | boolean> = { enable: nodeOus.enable };
  for (const [role, ou] of Object.entries({ ...entries, ...more })) {
    const view = ouOf(ou);
    if (view !== undefined) out[role] = view;
  }
  return out as unknown as NodeOus;
}

/** The MSP part of an organization: an "MSP" value's bytes decoded. */
export type MspView = Pick<
  OrganizationConfig,
  | "mspId"
  | "mspType"
  | "rootCertificates"
  | "intermediateCertificates"
  | "tlsRootCertificates"
  | "tlsIntermediateCertificates"
  | "admins"
  | "revocationList"
  | "organizationalUnitIdentifiers"
  | "nodeOUs"
>;

/** An "MSP" value decoded (`fallbackId` names an MSP that is not X.509). */
export function describeMsp(bytes: Uint8Array | undefined, path: string, fallbackId: string): MspView {
  const msp = bytes === undefined ? undefined : codecs.MspConfig.decode(bytes, { path });
  const fabric =
    msp?.type === 0 ? codecs.FabricMspConfig.decode(msp.config, { path: `${path} FabricMSPConfig` }) : undefined;
  const nodeOUs = nodeOusOf(fabric?.fabricNodeOus);
  return {
    mspId: fabric?.name ?? fallbackId,
    mspType: msp === undefined ? "unknown" : (MSP_TYPES[msp.type] ?? "unknown"),
    rootCertificates: (fabric?.rootCerts ?? []).map(text),
    intermediateCertificates: (fabric?.intermediateCerts ?? []).map(text),
    tlsRootCertificates: (fabric?.tlsRootCerts ?? []).map(text),
    tlsIntermediateCertificates: (fabric?.tlsIntermediateCerts ?? []).map(text),
    admins: (fabric?.admins ?? []).map(text),
    revocationList: (fabric?.revocationList ?? []).map(text),
    organizationalUnitIdentifiers: (fabric?.organizationalUnitIdentifiers ?? []).map((ou) => ouOf(ou) as NodeOu),
    ...(nodeOUs === undefined ? {} : { nodeOUs }),
  };
}

/** An organization group: its MSP, policies, and anchor peers (application) or endpoints (orderer). */
export function describeOrganization(name: string, group: ConfigGroup, path: string): OrganizationConfig {
  const where = `${path}/${name}`;
  const anchors = decodeValue(group, VALUE.ANCHOR_PEERS, codecs.AnchorPeers, where);
  const endpoints = decodeValue(group, VALUE.ENDPOINTS, codecs.OrdererAddresses, where);
  return {
    name,
    ...describeMsp(valueAt(group, VALUE.MSP)?.value, `${where}/MSP`, name),
    anchorPeers: (anchors?.anchorPeers ?? []).map((a) => ({ host: a.host, port: a.port })),
    endpoints: [...(endpoints?.addresses ?? [])],
    policies: policiesOf(group),
    modPolicy: group.modPolicy,
    version: group.version,
  };
}

function organizationsOf(group: ConfigGroup, path: string): OrganizationConfig[] {
  return groupKeys(group).map((key) => describeOrganization(key, subGroup(group, key) as ConfigGroup, path));
}

function smartBftView(o: SmartBftOptions): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const [key, value] of Object.entries(o) as [string, bigint | string | number | boolean][])
    out[key] = typeof value === "bigint" ? Number(value) : value;
  return out;
}

function describeOrderer(group: ConfigGroup): OrdererConfig {
  const path = `/${GROUP.CHANNEL}/${GROUP.ORDERER}`;
  const consensus = decodeValue(group, VALUE.CONSENSUS_TYPE, codecs.ConsensusType, path);
  const batchSize = decodeValue(group, VALUE.BATCH_SIZE, codecs.BatchSize, path);
  const restrictions = decodeValue(group, VALUE.CHANNEL_RESTRICTIONS, codecs.ChannelRestrictions, path);
  let consenters: OrdererConsenter[] = [];
  let options: Pick<OrdererConfig, "etcdRaftOptions" | "smartBftOptions"> = {};
  const metadataPath = `${path}/${VALUE.CONSENSUS_TYPE}.metadata`;
  if (consensus?.type === ETCDRAFT) {
    const raft = codecs.EtcdRaftMetadata.decode(consensus.metadata, { path: metadataPath });
    consenters = raft.consenters.map((c) => ({
      host: c.host,
      port: c.port,
      clientTlsCert: text(c.clientTlsCert),
      serverTlsCert: text(c.serverTlsCert),
    }));
    if (raft.options !== undefined) options = { etcdRaftOptions: { ...raft.options } };
  } else if (consensus?.type === BFT) {
    const mapping = decodeValue(group, VALUE.ORDERERS, codecs.Orderers, path);
    consenters = (mapping?.consenterMapping ?? []).map((c) => ({
      id: c.id,
      host: c.host,
      port: c.port,
      mspId: c.mspId,
      identity: text(c.identity),
      clientTlsCert: text(c.clientTlsCert),
      serverTlsCert: text(c.serverTlsCert),
    }));
    options = {
      smartBftOptions: smartBftView(codecs.SmartBftOptions.decode(consensus.metadata, { path: metadataPath })),
    };
  }
  return {
    consensusType: consensus?.type ?? "",
    state: consensus?.state === 1 ? "STATE_MAINTENANCE" : "STATE_NORMAL",
    batchSize: {
      maxMessageCount: batchSize?.maxMessageCount ?? 0,
      absoluteMaxBytes: batchSize?.absoluteMaxBytes ?? 0,
      preferredMaxBytes: batchSize?.preferredMaxBytes ?? 0,
    },
    batchTimeout: decodeValue(group, VALUE.BATCH_TIMEOUT, codecs.BatchTimeout, path)?.timeout ?? "",
    maxChannels: restrictions?.maxCount ?? 0n,
    consenters,
    ...options,
    organizations: organizationsOf(group, path),
    policies: policiesOf(group),
    capabilities: capabilityNames(group, path),
    modPolicy: group.modPolicy,
  };
}

function describeApplication(group: ConfigGroup): ApplicationConfig {
  const path = `/${GROUP.CHANNEL}/${GROUP.APPLICATION}`;
  const acls: Record<string, string> = {};
  const decoded = decodeValue(group, VALUE.ACLS, codecs.Acls, path);
  for (const { key, value } of [...(decoded?.acls ?? [])].sort((a, b) => a.key.localeCompare(b.key)))
    acls[key] = value?.policyRef ?? "";
  return {
    organizations: organizationsOf(group, path),
    policies: policiesOf(group),
    acls,
    capabilities: capabilityNames(group, path),
    modPolicy: group.modPolicy,
  };
}

/** The readable form of a channel's configuration (`channelId` as the block's header names it). */
export function describeChannelConfig(config: Config, channelId: string, configBlock?: bigint): ChannelConfig {
  const root = config.channelGroup ?? { version: 0n, groups: [], values: [], policies: [], modPolicy: "" };
  const path = `/${GROUP.CHANNEL}`;
  const orderer = subGroup(root, GROUP.ORDERER);
  const application = subGroup(root, GROUP.APPLICATION);
  return {
    channelId,
    sequence: config.sequence,
    ...(configBlock === undefined ? {} : { configBlock }),
    capabilities: {
      channel: capabilityNames(root, path),
      orderer: capabilityNames(orderer, `${path}/${GROUP.ORDERER}`),
      application: capabilityNames(application, `${path}/${GROUP.APPLICATION}`),
    },
    hashingAlgorithm: decodeValue(root, VALUE.HASHING_ALGORITHM, codecs.HashingAlgorithm, path)?.name ?? "",
    blockDataHashingWidth:
      decodeValue(root, VALUE.BLOCK_DATA_HASHING_STRUCTURE, codecs.BlockDataHashingStructure, path)?.width ?? 0,
    ordererAddresses: [...(decodeValue(root, VALUE.ORDERER_ADDRESSES, codecs.OrdererAddresses, path)?.addresses ?? [])],
    policies: policiesOf(root),
    modPolicy: root.modPolicy,
    ...(orderer === undefined ? {} : { orderer: describeOrderer(orderer) }),
    ...(application === undefined ? {} : { application: describeApplication(application) }),
  };
}

/** The readable form of a configuration block. */
export function describeConfigBlock(block: ConfigBlock): ChannelConfig {
  return describeChannelConfig(block.config, block.channelId, block.number);
}
