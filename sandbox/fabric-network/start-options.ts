/**
 * The options of startFabricNetwork() resolved: defaults applied, and the combinations Fabric would refuse (a channel
 * capability the release or the network cannot have) refused before anything starts.
 */
import { channelCapability } from "./channel-config";
import { resolveConsensus } from "./consensus";
import { isFabricVersion } from "./fabric-home";
import { resolveKeyTypes } from "./org-keys";
import { ordererHosts } from "./topology";
import * as T from "./types";

/** startFabricNetwork()'s options with every default applied. */
export type Resolved = Required<Omit<T.FabricNetworkOptions, "dir" | "fabricHome" | "keyTypes" | "orderers">> & {
  readonly ordererHosts: readonly string[];
  readonly dir: string | undefined;
  readonly fabricHome: string | undefined;
  readonly keyTypes: ReadonlyMap<string, T.FabricKeyType>;
};

/** Applies the defaults and checks the combination; throws naming the option. */
export function resolveOptions(options: T.FabricNetworkOptions): Resolved {
  const version = options.version ?? T.DEFAULT_FABRIC_VERSION;
  if (!isFabricVersion(version))
    throw new Error(`version must be one of ${T.FABRIC_VERSIONS.join(", ")}, got '${String(version)}'`);
  const { consensus, orderers } = resolveConsensus(version, options.consensus, options.orderers);
  const keyTypes = resolveKeyTypes(version, options.keyTypes);
  const capability = options.channelCapability ?? channelCapability(version);
  if (capability === "V3_0" && version.startsWith("2.")) {
    throw new Error(`channelCapability V3_0 needs Fabric 3.x; Fabric ${version} knows V2_0 only`);
  }
  if (capability === "V2_0" && (consensus === "BFT" || [...keyTypes.values()].includes("ed25519"))) {
    throw new Error(
      "channelCapability V2_0: BFT ordering and Ed25519 organizations need V3_0; leave channelCapability out for them",
    );
  }
  return {
    channelCapability: capability,
    version,
    consensus,
    ordererHosts: ordererHosts(orderers),
    dir: options.dir,
    fabricHome: options.fabricHome,
    keyTypes,
    startTimeoutMs: options.startTimeoutMs ?? T.DEFAULT_FABRIC_START_TIMEOUT_MS,
    batchTimeoutMs: options.batchTimeoutMs ?? T.DEFAULT_BATCH_TIMEOUT_MS,
    maxMessageCount: options.maxMessageCount ?? T.DEFAULT_MAX_MESSAGE_COUNT,
    raftTickIntervalMs: options.raftTickIntervalMs ?? T.DEFAULT_RAFT_TICK_INTERVAL_MS,
    raftElectionTick: options.raftElectionTick ?? T.DEFAULT_RAFT_ELECTION_TICK,
    clientAuth: options.clientAuth ?? false,
    logSpec: options.logSpec ?? "info",
    persistent: options.persistent ?? false,
    log: options.log ?? (() => undefined),
  };
}
