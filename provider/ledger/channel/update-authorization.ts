/**
 * Which signatures a configuration update needs, decided before anything is sent, the way the orderer's configtx
 * validator decides it (common/configtx/update.go, authorizeUpdate): the read set must name the versions the channel
 * has (otherwise the update is stale: someone changed the channel since it was computed); every element of the write
 * set whose version differs from the read set's is modified; a modified element that exists must be at its version
 * + 1 and its CURRENT mod_policy — resolved relative to its group (a group's own mod_policy relative to itself) or
 * from /Channel when absolute — must be satisfied by the signatures; a new element needs version 0 and a mod_policy
 * (its parent group, whose membership it changes, is checked instead)
 * (docs/decisions/0074-config-update-signatures-checked-before-sending.md).
 */
import type { Config, ConfigGroup, ConfigUpdate } from "../config-messages";
import type { Identity } from "../identity";
import { GROUP } from "./config-tree";
import { channelMsps, channelSigners } from "./msp-principals";
import { evaluatePolicy, locatePolicy } from "./policy-evaluation";
import type {
  ElementAuthorization,
  StaleElement,
  UpdateAuthorization,
} from "../../errors/ledger/update-authorization-types";

/** One element of a configuration as configtx maps it: "[Group]  /Channel/Application", "[Value]  /Channel/...". */
export interface ConfigElement {
  readonly kind: "Group" | "Value" | "Policy";
  /** The path of the group holding it, from "Channel". */
  readonly parent: readonly string[];
  readonly key: string;
  readonly version: bigint;
  readonly modPolicy: string;
}

/** configtx's key for an element: "[Group]  /Channel/Application", "[Value]  /Channel/Orderer/BatchTimeout". */
export function elementKey(e: Pick<ConfigElement, "kind" | "parent" | "key">): string {
  const prefix = e.kind === "Group" ? "[Group]  " : e.kind === "Value" ? "[Value]  " : "[Policy] ";
  return `${prefix}/${[...e.parent, e.key].join("/")}`;
}

/** Every element of a group tree by its configtx key (mapConfig). */
export function mapConfig(root: ConfigGroup | undefined): Map<string, ConfigElement> {
  const map = new Map<string, ConfigElement>();
  const walk = (group: ConfigGroup, parent: readonly string[], key: string): void => {
    const add = (e: ConfigElement) => map.set(elementKey(e), e);
    add({ kind: "Group", parent, key, version: group.version, modPolicy: group.modPolicy });
    const path = [...parent, key];
    for (const g of group.groups) if (g.value !== undefined) walk(g.value, path, g.key);
    for (const v of group.values)
      add({
        kind: "Value",
        parent: path,
        key: v.key,
        version: v.value?.version ?? 0n,
        modPolicy: v.value?.modPolicy ?? "",
      });
    for (const p of group.policies)
      add({
        kind: "Policy",
        parent: path,
        key: p.key,
        version: p.value?.version ?? 0n,
        modPolicy: p.value?.modPolicy ?? "",
      });
  };
  if (root !== undefined) walk(root, [], GROUP.CHANNEL);
  return map;
}

export interface AuthorizationOptions {
  /** The clock for certificate validity. @default () => new Date() */
  readonly now?: () => Date;
}

/** Checks `update` against the channel's current configuration and the identities that will sign it. */
export async function authorizeConfigUpdate(
  current: Config,
  update: ConfigUpdate,
  signers: readonly Identity[],
  options: AuthorizationOptions = {},
): Promise<UpdateAuthorization> {
  const existing = mapConfig(current.channelGroup);
  const readSet = mapConfig(update.readSet);
  const writeSet = mapConfig(update.writeSet);
  const stale: StaleElement[] = [];
  for (const [key, read] of readSet) {
    const now = existing.get(key);
    if (now?.version !== read.version)
      stale.push({ element: key, readVersion: read.version, currentVersion: now?.version });
  }
  const delta = [...writeSet].filter(([key, value]) => readSet.get(key)?.version !== value.version);
  const msps = channelMsps(current);
  const channelSignerList = await channelSigners(current, signers, options.now);
  const checks: ElementAuthorization[] = [];
  const badVersions: string[] = [];
  for (const [key, value] of delta) {
    const now = existing.get(key);
    if (value.modPolicy === "") badVersions.push(`${key} (no mod_policy)`);
    if (now === undefined) {
      if (value.version !== 0n) badVersions.push(`${key} (version ${value.version.toString()}, but it does not exist)`);
      continue;
    }
    if (value.version !== now.version + 1n)
      badVersions.push(`${key} (version ${value.version.toString()}, but the channel has ${now.version.toString()})`);
    // A group's own (relative) mod_policy is one of its own policies; any other element's is its parent group's.
    const base = (now.kind === "Group" ? [...now.parent, now.key] : now.parent).slice(1);
    const location = locatePolicy(now.modPolicy, base);
    const evaluation =
      location === undefined
        ? { path: now.modPolicy, rule: "unresolvable", satisfied: false, needed: 1, missing: [], satisfiedBy: [] }
        : evaluatePolicy(current, location, channelSignerList, msps);
    checks.push({ element: key, modPolicy: now.modPolicy, evaluation });
  }
  const unsatisfied = checks.filter((c) => !c.evaluation.satisfied);
  return {
    channelId: update.channelId,
    modified: delta.map(([key]) => key).sort(),
    stale,
    badVersions,
    checks,
    authorized: stale.length === 0 && badVersions.length === 0 && unsatisfied.length === 0,
    missingOrganizations: [...new Set(unsatisfied.flatMap((c) => c.evaluation.missing))].sort(),
    rejectedSigners: channelSignerList
      .filter((s) => s.invalid !== undefined)
      .map((s) => ({ mspId: s.identity.mspId, reason: s.invalid ?? "" })),
  };
}

export type { ElementAuthorization, StaleElement, UpdateAuthorization };
