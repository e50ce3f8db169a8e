/**
 * The ordering service's consensus as the network starts it: the checked choice of etcdraft or BFT and of the number of
 * orderers, and the wait for the channel's leader under either.
 */
import { bftLeaderId, isRaftLeader, waitFor, type ClientTls } from "./readiness";
import * as T from "./types";

/**
 * The consensus and the number of orderers, checked: BFT needs a 3.x release (channel capability V3_0) and at least
 * MIN_BFT_ORDERERS orderers. Throws naming the option and the fix.
 */
export function resolveConsensus(
  version: T.FabricVersion,
  consensus: T.FabricConsensus | undefined,
  orderers: number | undefined,
): { consensus: T.FabricConsensus; orderers: number } {
  const c = consensus ?? "etcdraft";
  if (!(T.FABRIC_CONSENSUS_TYPES as readonly string[]).includes(c))
    throw new Error(`consensus must be ${T.FABRIC_CONSENSUS_TYPES.join(" or ")}, got '${c}'`);
  if (c === "BFT" && version.startsWith("2."))
    throw new Error(
      `consensus BFT needs Fabric 3.x (channel capability V3_0); Fabric ${version} has no SmartBFT: use version 3.1.5`,
    );
  const n = orderers ?? T.DEFAULT_ORDERER_COUNT[c];
  if (!Number.isInteger(n) || n < 1 || n > T.MAX_ORDERER_COUNT)
    throw new Error(`orderers must be a whole number from 1 to ${T.MAX_ORDERER_COUNT}, got ${String(n)}`);
  if (c === "BFT" && n < T.MIN_BFT_ORDERERS)
    throw new Error(
      `consensus BFT needs at least ${T.MIN_BFT_ORDERERS} orderers (3f+1 to tolerate f = 1 fault), got ${n}: ` +
        `leave orderers unset or give ${T.MIN_BFT_ORDERERS} or more`,
    );
  return { consensus: c, orderers: n };
}

/**
 * Waits until the channel has a leader: one orderer reports itself Raft leader, or every orderer names the same BFT
 * leader (consensus_smartbft_view_leader_id).
 */
export async function waitForChannelLeader(
  consensus: T.FabricConsensus,
  orderers: readonly T.FabricOrderer[],
  caPem: string,
  metricsClient: ClientTls,
  channel: string,
  wait: { readonly timeoutMs: number; readonly abort: () => string | undefined },
): Promise<void> {
  await waitFor(
    consensus === "BFT" ? `every orderer to name the same BFT leader of ${channel}` : `a Raft leader of ${channel}`,
    async () => {
      if (consensus === "BFT") {
        const ids = await Promise.all(
          orderers.map((ord) => bftLeaderId(ord.operationsUrl, caPem, metricsClient, channel)),
        );
        return ids[0] !== undefined && ids.every((id) => id === ids[0]) ? true : undefined;
      }
      const leaders = await Promise.all(
        orderers.map((ord) => isRaftLeader(ord.operationsUrl, caPem, metricsClient, channel)),
      );
      return leaders.some(Boolean) ? true : undefined;
    },
    wait,
  );
}
