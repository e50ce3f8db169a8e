/**
 * How long a real Fabric network takes to come up, from the release archive to the first committed transaction:
 * `cold` unpacks the archive into a fresh cache (from $OPSLEDGER_RELEASE_MIRROR, checksum verified), `warm` finds it
 * unpacked. Each run starts a network (sandbox/fabric-network), submits CreateAsset with the official client through
 * Org1's gateway, waits for its commit status, and closes the network.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connectGateway, startFabricNetwork, type FabricVersion } from "../sandbox/fabric-network";

export interface StartTiming {
  readonly version: FabricVersion;
  readonly cache: "cold" | "warm";
  /** Per run: archive (or cache) to a ready network, and to the first committed transaction. */
  readonly readyMs: readonly number[];
  readonly committedMs: readonly number[];
}

async function once(version: FabricVersion, cold: boolean): Promise<{ readyMs: number; committedMs: number }> {
  const previous = process.env["OPSLEDGER_CACHE_DIR"];
  const cache = cold ? mkdtempSync(join(tmpdir(), "opsledger-cold-cache-")) : undefined;
  if (cache !== undefined) process.env["OPSLEDGER_CACHE_DIR"] = cache;
  const start = performance.now();
  try {
    const network = await startFabricNetwork({ version });
    const readyMs = performance.now() - start;
    try {
      const connection = connectGateway(network.organization("Org1MSP"));
      try {
        const contract = connection.gateway.getNetwork(network.channel).getContract(network.chaincode);
        const commit = await contract.submitAsync("CreateAsset", { arguments: ["bench-start", "blue"] });
        const status = await commit.getStatus();
        if (!status.successful) throw new Error(`the first transaction committed with code ${status.code}`);
      } finally {
        connection.close();
      }
      return { readyMs, committedMs: performance.now() - start };
    } finally {
      await network.close();
    }
  } finally {
    if (cache !== undefined) {
      if (previous === undefined) delete process.env["OPSLEDGER_CACHE_DIR"];
      else process.env["OPSLEDGER_CACHE_DIR"] = previous;
      rmSync(cache, { recursive: true, force: true });
    }
  }
}

export async function benchFabricNetworkStart(runs = 3): Promise<StartTiming[]> {
  const results: StartTiming[] = [];
  for (const version of ["2.5.16", "3.1.5"] as const) {
    for (const cache of ["cold", "warm"] as const) {
      const readyMs: number[] = [];
      const committedMs: number[] = [];
      for (let i = 0; i < runs; i++) {
        const r = await once(version, cache === "cold");
        readyMs.push(r.readyMs);
        committedMs.push(r.committedMs);
      }
      results.push({ version, cache, readyMs, committedMs });
    }
  }
  return results;
}
