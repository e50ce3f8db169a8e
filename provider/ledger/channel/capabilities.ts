/**
 * The capabilities each Fabric release line supports, per level (common/capabilities/{channel,orderer,application}.go
 * at v2.5.16 and v3.1.5): a channel whose configuration requires one the binaries do not know stops them, so a
 * declared capability is checked against the network's release before anything is sent.
 */
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";

export type CapabilityLevel = "channel" | "orderer" | "application";

/** The release lines this table knows. */
export const FABRIC_RELEASE_LINES = ["2.5", "3.1"] as const;
export type FabricReleaseLine = (typeof FABRIC_RELEASE_LINES)[number];

const COMMON_CHANNEL = ["V1_1", "V1_3", "V1_4_2", "V1_4_3", "V2_0"];

export const SUPPORTED_CAPABILITIES: Readonly<
  Record<FabricReleaseLine, Readonly<Record<CapabilityLevel, readonly string[]>>>
> = {
  "2.5": {
    channel: COMMON_CHANNEL,
    orderer: ["V1_1", "V1_4_2", "V2_0"],
    application: ["V1_1", "V1_2", "V1_3", "V1_4_2", "V2_0", "V2_5"],
  },
  "3.1": {
    channel: [...COMMON_CHANNEL, "V3_0"],
    orderer: ["V1_1", "V1_4_2", "V2_0"],
    application: ["V1_1", "V1_2", "V1_3", "V1_4_2", "V2_0", "V2_5"],
  },
};

/** The release line of a Fabric version ("2.5.16" → "2.5", "3.1.5" → "3.1"), or undefined for one not in the table. */
export function releaseLineOf(version: string): FabricReleaseLine | undefined {
  const line = /^(\d+\.\d+)/.exec(version)?.[1];
  return FABRIC_RELEASE_LINES.find((l) => l === line);
}

/**
 * Checks declared capabilities: each must be one the release supports (without a release: one some release in the
 * table supports). Throws ChannelConfigError UNSUPPORTED_CAPABILITY naming the field, the capability and what the
 * release knows.
 */
export function checkCapabilities(
  names: readonly string[],
  level: CapabilityLevel,
  field: string,
  fabricVersion: string | undefined,
): void {
  const line = fabricVersion === undefined ? undefined : releaseLineOf(fabricVersion);
  if (fabricVersion !== undefined && line === undefined)
    throw new ChannelConfigError({
      problem: "UNSUPPORTED_CAPABILITY",
      field: "fabricVersion",
      message: `Fabric ${fabricVersion} is not a release line this library knows (${FABRIC_RELEASE_LINES.join(", ")})`,
    });
  const known =
    line === undefined
      ? [...new Set(FABRIC_RELEASE_LINES.flatMap((l) => SUPPORTED_CAPABILITIES[l][level]))]
      : SUPPORTED_CAPABILITIES[line][level];
  names.forEach((name, i) => {
    if (known.includes(name)) return;
    const release = fabricVersion === undefined ? "any Fabric release" : `Fabric ${fabricVersion}`;
    throw new ChannelConfigError({
      problem: "UNSUPPORTED_CAPABILITY",
      field: `${field}[${String(i)}]`,
      message:
        `${level} capability '${name}' is not one ${release} supports (${known.join(", ")}); peers and orderers ` +
        "stop on a channel requiring a capability they do not know, so upgrade every binary first or choose one of those",
    });
  });
}
