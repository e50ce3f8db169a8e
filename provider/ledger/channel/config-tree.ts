/**
 * The configuration tree (common.ConfigGroup) as our codec decodes it — maps as arrays of entries in wire order — and
 * the few operations everything else is written with: find by key, set by key (a new tree; the input is never
 * mutated), walk by path, and a value decoded with its codec.
 */
import type { MessageCodec } from "../codec";
import type { ConfigEntry, ConfigGroup, ConfigPolicy, ConfigValue } from "../config-messages";
import { LedgerDecodeError } from "../../errors/ledger/ledger-decode-error";
import { TxValidationCode } from "../../errors/ledger/validation-codes";

/** The well-known group keys of a channel configuration. */
export const GROUP = { CHANNEL: "Channel", ORDERER: "Orderer", APPLICATION: "Application" } as const;

/** The ConfigValue keys this library reads or writes. */
export const VALUE = {
  HASHING_ALGORITHM: "HashingAlgorithm",
  BLOCK_DATA_HASHING_STRUCTURE: "BlockDataHashingStructure",
  ORDERER_ADDRESSES: "OrdererAddresses",
  CONSORTIUM: "Consortium",
  CAPABILITIES: "Capabilities",
  BATCH_SIZE: "BatchSize",
  BATCH_TIMEOUT: "BatchTimeout",
  CHANNEL_RESTRICTIONS: "ChannelRestrictions",
  CONSENSUS_TYPE: "ConsensusType",
  ORDERERS: "Orderers",
  MSP: "MSP",
  ENDPOINTS: "Endpoints",
  ANCHOR_PEERS: "AnchorPeers",
  ACLS: "ACLs",
} as const;

/** The mod_policy configtxgen gives every element (relative: the group's own Admins). */
export const ADMINS = "Admins";

/** An empty group, as protoutil.NewConfigGroup. */
export function emptyGroup(): ConfigGroup {
  return { version: 0n, groups: [], values: [], policies: [], modPolicy: "" };
}

/** The entry's value for `key`, or undefined. */
export function entry<V>(entries: readonly ConfigEntry<V>[], key: string): V | undefined {
  return entries.find((e) => e.key === key)?.value;
}

/** A copy of `entries` with `key` set to `value` (in place of the old entry, else appended), or removed (undefined). */
export function withEntry<V>(entries: readonly ConfigEntry<V>[], key: string, value: V | undefined): ConfigEntry<V>[] {
  const at = entries.findIndex((e) => e.key === key);
  if (value === undefined) return entries.filter((e) => e.key !== key);
  if (at < 0) return [...entries, { key, value }];
  return entries.map((e, i) => (i === at ? { key, value } : e));
}

export function subGroup(group: ConfigGroup | undefined, key: string): ConfigGroup | undefined {
  return group === undefined ? undefined : entry(group.groups, key);
}

export function valueAt(group: ConfigGroup | undefined, key: string): ConfigValue | undefined {
  return group === undefined ? undefined : entry(group.values, key);
}

export function policyAt(group: ConfigGroup | undefined, key: string): ConfigPolicy | undefined {
  return group === undefined ? undefined : entry(group.policies, key);
}

/** The group at `path` below `root` (["Application", "Org1MSP"]), or undefined. */
export function groupAt(root: ConfigGroup | undefined, path: readonly string[]): ConfigGroup | undefined {
  let group = root;
  for (const key of path) group = subGroup(group, key);
  return group;
}

/** The keys of a group's sub-groups, sorted (a map has no order of its own). */
export function groupKeys(group: ConfigGroup | undefined): string[] {
  return (group?.groups ?? []).map((g) => g.key).sort();
}

/**
 * The value under `key` decoded with `codec`, or undefined when the group has no such value. A value that does not
 * decode is a LedgerDecodeError naming its path.
 */
export function decodeValue<T>(
  group: ConfigGroup | undefined,
  key: string,
  codec: MessageCodec<T>,
  path: string,
): T | undefined {
  const value = valueAt(group, key);
  if (value === undefined) return undefined;
  return codec.decode(value.value, {
    path: `${path}/${key}`,
    validationCode: TxValidationCode.INVALID_CONFIG_TRANSACTION,
  });
}

/** A LedgerDecodeError for a configuration that lacks what every channel has. */
export function missing(path: string, what: string): LedgerDecodeError {
  return new LedgerDecodeError({
    messageType: "common.ConfigGroup",
    path,
    validationCode: TxValidationCode.INVALID_CONFIG_TRANSACTION,
    reason: `the configuration has no ${what}`,
  });
}
