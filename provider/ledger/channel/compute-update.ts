/**
 * computeConfigUpdate: the CONFIG_UPDATE that turns one channel configuration into another, computed exactly as
 * configtxlator's compute_update (internal/configtxlator/update, Compute): a read set naming the versions the update
 * depends on and a write set carrying what changes, versions raised by one where an element is modified and 0 where
 * it is new. The orderer accepts it only while every read-set version still matches the channel
 * (docs/decisions/0073-config-update-computed-as-configtxlator.md).
 *
 * The rules, per group:
 * - a policy is the same when its mod_policy and its Policy (type and value bytes) are; a value when its mod_policy
 *   and value bytes are; otherwise it goes to the write set at version + 1; a new one at version 0;
 * - a group whose members (keys of its policies, values or groups) and mod_policy did not change is in both sets at
 *   its own version with only its modified members, or, with nothing modified below it, is left out of its parent's
 *   sets (its parent lists it at its version in both when the parent's members changed);
 * - a group whose members or mod_policy changed is written at version + 1 with its new mod_policy and every member
 *   it keeps (the unchanged ones at their versions, so the write set is its whole new membership), and read at its
 *   version with the unchanged members;
 * - a new group is written at version 0 with all its contents (every element new).
 * Entries come out sorted by key (Fabric's maps have no order).
 */
import type {
  Config,
  ConfigEntry,
  ConfigGroup,
  ConfigPolicy,
  ConfigUpdate,
  ConfigValue,
  Policy,
} from "../config-messages";
import { bytesEqual } from "../hash";
import { emptyGroup } from "./config-tree";

interface MapDelta<T> {
  readonly write: Map<string, T>;
  readonly read: Map<string, T>;
  readonly same: Map<string, T>;
  readonly membersChanged: boolean;
}

function byKey<T>(entries: readonly ConfigEntry<T>[]): Map<string, T | undefined> {
  return new Map(entries.map((e) => [e.key, e.value]));
}

function sorted<T>(map: ReadonlyMap<string, T>): ConfigEntry<T>[] {
  return [...map.keys()].sort().map((key) => ({ key, value: map.get(key) as T }));
}

function policyEqual(a: Policy | undefined, b: Policy | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.type === b.type && bytesEqual(a.value, b.value);
}

/** The delta of a map of policies or values: `same` says whether an original and its update are equal. */
function leafDelta<T extends ConfigPolicy | ConfigValue>(
  original: readonly ConfigEntry<T>[],
  updated: readonly ConfigEntry<T>[],
  same: (a: T, b: T) => boolean,
  rewrite: (version: bigint, updated: T | undefined) => T,
): MapDelta<T> {
  const delta: MapDelta<T> = { write: new Map(), read: new Map(), same: new Map(), membersChanged: false };
  const next = byKey(updated);
  let membersChanged = false;
  for (const { key, value } of original) {
    const before = value ?? rewrite(0n, undefined);
    const after = next.get(key);
    if (!next.has(key)) {
      membersChanged = true;
      continue;
    }
    const changed = after === undefined || before.modPolicy !== after.modPolicy || !same(before, after);
    // An unchanged element is named by its version alone, as configtxlator does.
    if (!changed) delta.same.set(key, rewrite(before.version, undefined));
    else delta.write.set(key, rewrite(before.version + 1n, after));
  }
  const known = new Set(original.map((e) => e.key));
  for (const { key, value } of updated) {
    if (known.has(key)) continue;
    membersChanged = true;
    delta.write.set(key, rewrite(0n, value));
  }
  return { ...delta, membersChanged };
}

function policiesDelta(original: ConfigGroup, updated: ConfigGroup): MapDelta<ConfigPolicy> {
  return leafDelta<ConfigPolicy>(
    original.policies,
    updated.policies,
    (a, b) => policyEqual(a.policy, b.policy),
    (version, u) => ({
      version,
      modPolicy: u?.modPolicy ?? "",
      ...(u?.policy === undefined ? {} : { policy: u.policy }),
    }),
  );
}

function valuesDelta(original: ConfigGroup, updated: ConfigGroup): MapDelta<ConfigValue> {
  return leafDelta<ConfigValue>(
    original.values,
    updated.values,
    (a, b) => bytesEqual(a.value, b.value),
    (version, u) => ({ version, modPolicy: u?.modPolicy ?? "", value: u?.value ?? new Uint8Array(0) }),
  );
}

function groupsDelta(original: ConfigGroup, updated: ConfigGroup): MapDelta<ConfigGroup> {
  const delta: MapDelta<ConfigGroup> = { write: new Map(), read: new Map(), same: new Map(), membersChanged: false };
  const next = byKey(updated.groups);
  let membersChanged = false;
  for (const { key, value } of original.groups) {
    const after = next.get(key);
    if (!next.has(key)) {
      membersChanged = true;
      continue;
    }
    const result = groupUpdate(value ?? emptyGroup(), after ?? emptyGroup());
    if (!result.changed) {
      delta.same.set(key, result.read);
      continue;
    }
    delta.read.set(key, result.read);
    delta.write.set(key, result.write);
  }
  const known = new Set(original.groups.map((g) => g.key));
  for (const { key, value } of updated.groups) {
    if (known.has(key)) continue;
    membersChanged = true;
    const group = value ?? emptyGroup();
    const written = groupUpdate(emptyGroup(), group).write;
    delta.write.set(key, { ...written, version: 0n, modPolicy: group.modPolicy });
  }
  return { ...delta, membersChanged };
}

interface GroupResult {
  readonly read: ConfigGroup;
  readonly write: ConfigGroup;
  readonly changed: boolean;
}

function groupUpdate(original: ConfigGroup, updated: ConfigGroup): GroupResult {
  const policies = policiesDelta(original, updated);
  const values = valuesDelta(original, updated);
  const groups = groupsDelta(original, updated);
  const version = original.version;
  const membersChanged =
    policies.membersChanged ||
    values.membersChanged ||
    groups.membersChanged ||
    original.modPolicy !== updated.modPolicy;
  if (!membersChanged) {
    const nothing = [policies, values, groups].every((d) => d.read.size === 0 && d.write.size === 0);
    if (nothing) {
      const bare = { ...emptyGroup(), version };
      return { read: bare, write: bare, changed: false };
    }
    return {
      read: {
        version,
        policies: sorted(policies.read),
        values: sorted(values.read),
        groups: sorted(groups.read),
        modPolicy: "",
      },
      write: {
        version,
        policies: sorted(policies.write),
        values: sorted(values.write),
        groups: sorted(groups.write),
        modPolicy: "",
      },
      changed: true,
    };
  }
  const withSame = <T>(delta: MapDelta<T>, side: "read" | "write"): ConfigEntry<T>[] =>
    sorted(new Map([...delta[side], ...delta.same]));
  return {
    read: {
      version,
      policies: withSame(policies, "read"),
      values: withSame(values, "read"),
      groups: withSame(groups, "read"),
      modPolicy: "",
    },
    write: {
      version: version + 1n,
      policies: withSame(policies, "write"),
      values: withSame(values, "write"),
      groups: withSame(groups, "write"),
      modPolicy: updated.modPolicy,
    },
    changed: true,
  };
}

/**
 * The ConfigUpdate from `original` to `updated` for `channelId`, or undefined when they do not differ (configtxlator
 * says "no differences detected between original and updated config").
 */
export function computeConfigUpdate(channelId: string, original: Config, updated: Config): ConfigUpdate | undefined {
  const result = groupUpdate(original.channelGroup ?? emptyGroup(), updated.channelGroup ?? emptyGroup());
  if (!result.changed) return undefined;
  return { channelId, readSet: result.read, writeSet: result.write, isolatedData: new Map() };
}
