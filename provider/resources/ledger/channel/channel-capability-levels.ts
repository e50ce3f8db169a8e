/**
 * ledger.ChannelCapabilities: a channel's capabilities at the levels given (Channel, Orderer, Application; each the
 * whole set), checked against the capabilities the network's Fabric release supports (`fabricVersion`) before anything
 * is sent: a peer or orderer stops on a channel that requires one it does not know. Raising the Channel group's
 * needs its Admins (by default a MAJORITY of the orderer organizations' and the application organizations' Admins);
 * the Orderer's and Application's, their group's Admins.
 */
import type { FieldFailure } from "../../../errors";
import type { CapabilitySets } from "../../../ledger/channel/channel-config";
import { hasUnknown, isRecord } from "../ledger-values";
import { channelPartProvider } from "./channel-part";
import type { ChannelPartSpec } from "./channel-part-session";
import type { ChannelCapabilitiesShape } from "./channel-shapes";

const LEVELS = ["channel", "orderer", "application"] as const;
type Level = (typeof LEVELS)[number];

function capabilityFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const caps = n["capabilities"];
  const failures: FieldFailure[] = [];
  const version = n["fabricVersion"];
  if (version !== undefined && !hasUnknown(version) && (typeof version !== "string" || !/^\d+\.\d+/.test(version)))
    failures.push({ property: "fabricVersion", reason: "must be a Fabric release such as '2.5.16' or '3.1.5'" });
  if (hasUnknown(caps)) return failures;
  if (!isRecord(caps) || LEVELS.every((l) => caps[l] === undefined))
    return [
      ...failures,
      {
        property: "capabilities",
        reason: "must give at least one level: { channel?, orderer?, application? }, each a list such as ['V2_0']",
      },
    ];
  for (const key of Object.keys(caps)) {
    const value = caps[key];
    if (!(LEVELS as readonly string[]).includes(key))
      failures.push({ property: `capabilities.${key}`, reason: `is not a level; use ${LEVELS.join(", ")}` });
    else if (
      value !== undefined &&
      !hasUnknown(value) &&
      (!Array.isArray(value) || value.some((c) => typeof c !== "string"))
    )
      failures.push({ property: `capabilities.${key}`, reason: "must be a list of capability names, e.g. ['V2_0']" });
  }
  return failures;
}

function levels(i: ChannelCapabilitiesShape): Level[] {
  return LEVELS.filter((l) => i.capabilities[l] !== undefined);
}

const sorted = (names: readonly string[]): string[] => [...names].sort();

export const CAPABILITY_LEVELS: ChannelPartSpec<ChannelCapabilitiesShape> = {
  kind: "ChannelCapabilities",
  keys: ["capabilities", "fabricVersion"],
  replaceOn: ["channel"],
  failures: capabilityFailures,
  change(i) {
    const of = (l: Level) => (i.capabilities[l] === undefined ? undefined : { capabilities: i.capabilities[l] });
    const [channel, orderer, application] = LEVELS.map(of);
    return {
      ...(channel === undefined ? {} : { channel }),
      ...(orderer === undefined ? {} : { orderer }),
      ...(application === undefined ? {} : { application }),
    };
  },
  options: (i) => (i.fabricVersion === undefined ? {} : { fabricVersion: i.fabricVersion }),
  // "channel.capabilities[0]" → "capabilities.channel[0]"
  fieldOf: (field) => field.replace(/^(channel|orderer|application)\.capabilities/, "capabilities.$1"),
  live: (config, i) => Object.fromEntries(levels(i).map((l) => [`capabilities.${l}`, sorted(config.capabilities[l])])),
  declared: (i) => Object.fromEntries(levels(i).map((l) => [`capabilities.${l}`, sorted(i.capabilities[l] ?? [])])),
  refreshed(i, config) {
    const live: CapabilitySets = config.capabilities;
    return { ...i, capabilities: Object.fromEntries(levels(i).map((l) => [l, sorted(live[l])])) };
  },
};

export const channelCapabilitiesProvider = channelPartProvider(CAPABILITY_LEVELS);
