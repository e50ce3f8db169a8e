/**
 * The parts of a channel's configuration a program declares, applied to the current configuration tree to give the
 * desired one (computeConfigUpdate then gives the CONFIG_UPDATE between them). Only what a change names is touched;
 * everything else keeps its bytes, so it never appears in the update. Every declared part is checked before anything
 * is built — certificates that do not parse, an anchor peer of an organization not in the channel, a capability the
 * release does not support, a batch size Fabric refuses — as a ChannelConfigError naming the field, the organization
 * and the fix.
 */
import { codecs } from "../codec";
import type { Config, ConfigGroup, ConfigPolicy, ConfigValue } from "../config-messages";
import type { AnchorPeer, BatchSizeConfig, OrdererConsenter } from "./channel-config";
import { ChannelConfigError } from "./channel-config-error";
import { checkCapabilities } from "./capabilities";
import { ADMINS, GROUP, VALUE, decodeValue, emptyGroup, entry, missing, subGroup, withEntry } from "./config-tree";
import { checkOrganization, organizationGroup } from "./organization-declaration";
import type { OrganizationDeclaration } from "./organization-declaration";
import { checkBatchSize, checkBatchTimeout, checkConsenters, consensusValues } from "./orderer-values";

/** What a program declares about a channel. Absent parts are left as they are. */
export interface ChannelConfigChange {
  readonly channel?: {
    /** The Channel group's capabilities (the whole set), e.g. ["V3_0"]. */
    readonly capabilities?: readonly string[];
  };
  readonly orderer?: {
    /** A Go duration such as "2s" or "250ms". */
    readonly batchTimeout?: string;
    /** Any of the three; the others keep their values. */
    readonly batchSize?: Partial<BatchSizeConfig>;
    readonly capabilities?: readonly string[];
    /** The whole consenter list (Raft: host, port, TLS certificates; BFT: also id, MSP id, identity). */
    readonly consenters?: readonly OrdererConsenter[];
    /** Orderer organizations to add or replace (by MSP id), or to remove (null). */
    readonly organizations?: Readonly<Record<string, OrganizationDeclaration | null>>;
  };
  readonly application?: {
    readonly capabilities?: readonly string[];
    /** ACL resource → policy reference; the whole set when given. */
    readonly acls?: Readonly<Record<string, string>>;
    /** Application organizations to add or replace (by MSP id), or to remove (null). */
    readonly organizations?: Readonly<Record<string, OrganizationDeclaration | null>>;
    /** Anchor peers of organizations in the channel (the whole list of each organization named). */
    readonly anchorPeers?: Readonly<Record<string, readonly AnchorPeer[]>>;
  };
}

export interface ApplyOptions {
  /** The network's Fabric version ("2.5.16", "3.1.5"): capabilities are checked against its release line. */
  readonly fabricVersion?: string;
}

function capabilitiesValue(names: readonly string[], current: ConfigValue | undefined): ConfigValue {
  const value = codecs.Capabilities.encode({ capabilities: [...names].sort().map((key) => ({ key, value: {} })) });
  return { version: current?.version ?? 0n, value, modPolicy: current?.modPolicy ?? ADMINS };
}

/** Sets a value's bytes, keeping its version and mod_policy (a new value gets mod_policy Admins). */
function setValue(group: ConfigGroup, key: string, value: Uint8Array): ConfigGroup {
  const current = entry(group.values, key);
  const next = { version: current?.version ?? 0n, value, modPolicy: current?.modPolicy ?? ADMINS };
  return { ...group, values: withEntry(group.values, key, next) };
}

function withCapabilities(group: ConfigGroup, names: readonly string[] | undefined): ConfigGroup {
  if (names === undefined) return group;
  const current = entry(group.values, VALUE.CAPABILITIES);
  return { ...group, values: withEntry(group.values, VALUE.CAPABILITIES, capabilitiesValue(names, current)) };
}

/** Organizations named by MSP id: which group key holds each (the MSP value's name, else the key itself). */
function organizationKeys(group: ConfigGroup, path: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const { key, value } of group.groups) {
    const msp = decodeValue(value, VALUE.MSP, codecs.MspConfig, `${path}/${key}`);
    const name = msp?.type === 0 ? codecs.FabricMspConfig.decode(msp.config).name : key;
    keys.set(name, key);
  }
  return keys;
}

function withOrganizations(
  group: ConfigGroup,
  declared: Readonly<Record<string, OrganizationDeclaration | null>> | undefined,
  kind: "application" | "orderer",
  path: string,
): ConfigGroup {
  if (declared === undefined) return group;
  const keys = organizationKeys(group, path);
  let groups = group.groups;
  for (const [mspId, org] of Object.entries(declared)) {
    const field = `${kind}.organizations[${mspId}]`;
    if (org === null) {
      const key = keys.get(mspId);
      if (key === undefined)
        throw new ChannelConfigError({
          problem: "UNKNOWN_ORGANIZATION",
          field,
          organization: mspId,
          message: `${mspId} is not an ${kind} organization of the channel, so it cannot be removed (it has ${[...keys.keys()].join(", ") || "none"})`,
        });
      groups = withEntry(groups, key, undefined);
      continue;
    }
    if (org.mspId !== mspId)
      throw new ChannelConfigError({
        problem: "CONFIG",
        field: `${field}.mspId`,
        organization: mspId,
        message: `is '${org.mspId}' but the organization is declared under '${mspId}': use the same MSP id`,
      });
    checkOrganization(org, field);
    const key = keys.get(mspId) ?? org.name ?? mspId;
    const current = entry(groups, key);
    const built = organizationGroup(org, kind);
    // An organization already in the channel keeps the versions and mod_policies of what it had.
    // Anchor peers and endpoints the declaration leaves out stay as they are.
    const unsaid = [
      org.anchorPeers === undefined ? VALUE.ANCHOR_PEERS : "",
      org.endpoints === undefined ? VALUE.ENDPOINTS : "",
    ];
    groups = withEntry(groups, key, current === undefined ? built : keepVersions(current, built, unsaid));
  }
  return { ...group, groups };
}

/** `next` with the versions (and mod_policies) of the elements `current` has, and current's values named in `keep`. */
function keepVersions(current: ConfigGroup, next: ConfigGroup, keep: readonly string[]): ConfigGroup {
  const kept = <T extends { version: bigint; modPolicy: string }>(old: T | undefined, value: T): T =>
    old === undefined ? value : { ...value, version: old.version, modPolicy: old.modPolicy };
  const values = next.values.map(({ key, value }) => ({
    key,
    value: kept(entry(current.values, key), value as ConfigValue),
  }));
  for (const key of keep) {
    const old = entry(current.values, key);
    if (old !== undefined && entry(values, key) === undefined) values.push({ key, value: old });
  }
  const policies = next.policies.map(({ key, value }) => ({
    key,
    value: kept(entry(current.policies, key), value as ConfigPolicy),
  }));
  return { ...current, values, policies, groups: current.groups };
}

function withAnchorPeers(
  application: ConfigGroup,
  anchorPeers: Readonly<Record<string, readonly AnchorPeer[]>> | undefined,
): ConfigGroup {
  if (anchorPeers === undefined) return application;
  const path = `/${GROUP.CHANNEL}/${GROUP.APPLICATION}`;
  const keys = organizationKeys(application, path);
  let groups = application.groups;
  for (const [mspId, peers] of Object.entries(anchorPeers)) {
    const field = `application.anchorPeers[${mspId}]`;
    const key = keys.get(mspId);
    if (key === undefined)
      throw new ChannelConfigError({
        problem: "UNKNOWN_ORGANIZATION",
        field,
        organization: mspId,
        message:
          `${mspId} is not an application organization of the channel (it has ${[...keys.keys()].join(", ") || "none"}): ` +
          "add the organization first (application.organizations) or name one of those",
      });
    peers.forEach((peer, i) => {
      if (peer.host.trim() === "" || !Number.isInteger(peer.port) || peer.port < 1 || peer.port > 65535)
        throw new ChannelConfigError({
          problem: "ANCHOR_PEER",
          field: `${field}[${String(i)}]`,
          organization: mspId,
          message: `'${peer.host}:${String(peer.port)}' needs a host and a port from 1 to 65535`,
        });
    });
    const org = entry(groups, key) ?? emptyGroup();
    const bytes = codecs.AnchorPeers.encode({ anchorPeers: peers.map((p) => ({ host: p.host, port: p.port })) });
    const next =
      peers.length === 0
        ? { ...org, values: withEntry(org.values, VALUE.ANCHOR_PEERS, undefined) }
        : setValue(org, VALUE.ANCHOR_PEERS, bytes);
    groups = withEntry(groups, key, next);
  }
  return { ...application, groups };
}

function withAcls(application: ConfigGroup, acls: Readonly<Record<string, string>> | undefined): ConfigGroup {
  if (acls === undefined) return application;
  for (const [resource, policyRef] of Object.entries(acls))
    if (!policyRef.startsWith("/Channel/"))
      throw new ChannelConfigError({
        problem: "POLICY",
        field: `application.acls[${resource}]`,
        message: `'${policyRef}' is not a channel policy reference: write its full path, e.g. /Channel/Application/Readers`,
      });
  const keys = Object.keys(acls).sort();
  const bytes = codecs.Acls.encode({ acls: keys.map((key) => ({ key, value: { policyRef: acls[key] ?? "" } })) });
  return setValue(application, VALUE.ACLS, bytes);
}

function changeOrderer(
  orderer: ConfigGroup,
  change: NonNullable<ChannelConfigChange["orderer"]>,
  options: ApplyOptions,
): ConfigGroup {
  const path = `/${GROUP.CHANNEL}/${GROUP.ORDERER}`;
  let group = orderer;
  if (change.batchTimeout !== undefined) {
    checkBatchTimeout(change.batchTimeout, "orderer.batchTimeout");
    group = setValue(group, VALUE.BATCH_TIMEOUT, codecs.BatchTimeout.encode({ timeout: change.batchTimeout }));
  }
  if (change.batchSize !== undefined) {
    const current = decodeValue(group, VALUE.BATCH_SIZE, codecs.BatchSize, path);
    const size = { ...current, ...change.batchSize } as BatchSizeConfig;
    checkBatchSize(size, "orderer.batchSize");
    group = setValue(group, VALUE.BATCH_SIZE, codecs.BatchSize.encode(size));
  }
  if (change.capabilities !== undefined)
    checkCapabilities(change.capabilities, "orderer", "orderer.capabilities", options.fabricVersion);
  group = withCapabilities(group, change.capabilities);
  if (change.consenters !== undefined) {
    checkConsenters(change.consenters);
    for (const [key, value] of consensusValues(group, change.consenters, path)) group = setValue(group, key, value);
  }
  return withOrganizations(group, change.organizations, "orderer", path);
}

function changeApplication(
  application: ConfigGroup,
  change: NonNullable<ChannelConfigChange["application"]>,
  options: ApplyOptions,
): ConfigGroup {
  if (change.capabilities !== undefined)
    checkCapabilities(change.capabilities, "application", "application.capabilities", options.fabricVersion);
  let group = withCapabilities(application, change.capabilities);
  group = withOrganizations(group, change.organizations, "application", `/${GROUP.CHANNEL}/${GROUP.APPLICATION}`);
  group = withAnchorPeers(group, change.anchorPeers);
  return withAcls(group, change.acls);
}

/**
 * The configuration `change` declares, applied to `current` (never mutated). Throws ChannelConfigError for a declared
 * part Fabric would refuse, before anything is built or sent.
 */
export function applyConfigChange(current: Config, change: ChannelConfigChange, options: ApplyOptions = {}): Config {
  const root = current.channelGroup;
  if (root === undefined) throw missing("/Channel", "Channel group");
  let channel = root;
  if (change.channel?.capabilities !== undefined) {
    checkCapabilities(change.channel.capabilities, "channel", "channel.capabilities", options.fabricVersion);
    channel = withCapabilities(channel, change.channel.capabilities);
  }
  if (change.orderer !== undefined) {
    const orderer = subGroup(channel, GROUP.ORDERER);
    if (orderer === undefined) throw missing("/Channel", "Orderer group");
    channel = {
      ...channel,
      groups: withEntry(channel.groups, GROUP.ORDERER, changeOrderer(orderer, change.orderer, options)),
    };
  }
  if (change.application !== undefined) {
    const application = subGroup(channel, GROUP.APPLICATION);
    if (application === undefined) throw missing("/Channel", "Application group");
    const next = changeApplication(application, change.application, options);
    channel = { ...channel, groups: withEntry(channel.groups, GROUP.APPLICATION, next) };
  }
  return { sequence: current.sequence, channelGroup: channel };
}
