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
import type { AnchorPeer, BatchSizeConfig } from "./channel-config";
import type { ApplyOptions, ChannelConfigChange } from "./change-declaration";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { checkConfigChange } from "./check-change";
import { ADMINS, GROUP, VALUE, decodeValue, emptyGroup, entry, missing, subGroup, withEntry } from "./config-tree";
import { organizationGroup } from "./organization-declaration";
import type { OrganizationDeclaration } from "./organization-declaration";
import { checkBatchSize, consensusValues } from "./orderer-values";

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

/** An organization the change names that the channel does not have; `fix` says what to do. */
function unknownOrganization(
  field: string,
  mspId: string,
  kind: "application" | "orderer",
  keys: ReadonlyMap<string, string>,
  fix: string,
): ChannelConfigError {
  return new ChannelConfigError({
    problem: "UNKNOWN_ORGANIZATION",
    field,
    organization: mspId,
    message: `${mspId} is not an ${kind} organization of the channel (it has ${[...keys.keys()].join(", ") || "none"}): ${fix}`,
  });
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
        throw unknownOrganization(field, mspId, kind, keys, "only an organization of the channel can be removed");
      groups = withEntry(groups, key, undefined);
      continue;
    }
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
      throw unknownOrganization(
        field,
        mspId,
        "application",
        keys,
        "add the organization first (application.organizations) or name one of those",
      );
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
  const keys = Object.keys(acls).sort();
  const bytes = codecs.Acls.encode({ acls: keys.map((key) => ({ key, value: { policyRef: acls[key] ?? "" } })) });
  return setValue(application, VALUE.ACLS, bytes);
}

function changeOrderer(orderer: ConfigGroup, change: NonNullable<ChannelConfigChange["orderer"]>): ConfigGroup {
  const path = `/${GROUP.CHANNEL}/${GROUP.ORDERER}`;
  let group = orderer;
  if (change.batchTimeout !== undefined) {
    group = setValue(group, VALUE.BATCH_TIMEOUT, codecs.BatchTimeout.encode({ timeout: change.batchTimeout }));
  }
  if (change.batchSize !== undefined) {
    const current = decodeValue(group, VALUE.BATCH_SIZE, codecs.BatchSize, path);
    const size = { ...current, ...change.batchSize } as BatchSizeConfig;
    checkBatchSize(size, "orderer.batchSize");
    group = setValue(group, VALUE.BATCH_SIZE, codecs.BatchSize.encode(size));
  }
  group = withCapabilities(group, change.capabilities);
  if (change.consenters !== undefined) {
    for (const [key, value] of consensusValues(group, change.consenters, path)) group = setValue(group, key, value);
  }
  return withOrganizations(group, change.organizations, "orderer", path);
}

function changeApplication(
  application: ConfigGroup,
  change: NonNullable<ChannelConfigChange["application"]>,
): ConfigGroup {
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
  checkConfigChange(change, options);
  let channel = withCapabilities(root, change.channel?.capabilities);
  if (change.orderer !== undefined) {
    const orderer = subGroup(channel, GROUP.ORDERER);
    if (orderer === undefined) throw missing("/Channel", "Orderer group");
    channel = {
      ...channel,
      groups: withEntry(channel.groups, GROUP.ORDERER, changeOrderer(orderer, change.orderer)),
    };
  }
  if (change.application !== undefined) {
    const application = subGroup(channel, GROUP.APPLICATION);
    if (application === undefined) throw missing("/Channel", "Application group");
    const next = changeApplication(application, change.application);
    channel = { ...channel, groups: withEntry(channel.groups, GROUP.APPLICATION, next) };
  }
  return { sequence: current.sequence, channelGroup: channel };
}
