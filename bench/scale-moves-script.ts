/**
 * The baseline of the scale benchmark: a plain Node.js script, run as its own process as a user would run one, that
 * makes the same Google calls as `pulumi up` (or `pulumi refresh`) of the moves stack, with the same client, waiter
 * and parallelism and the same settings source (the environment). `up`: per policy, GET it, POST the move with a
 * requestId, wait for the operation, GET it again (what FirewallPolicyMove's create does). `refresh`: one GET per
 * policy (what its read does).
 *
 * Usage: node dist/bench/scale-moves-script.js '<json ScaleScriptJob>' — prints one JSON line, ScaleScriptResult.
 */
import { createGoogleClient, resolveGoogleSettings } from "../provider/google";
import { waitForComputeOperation } from "../provider/operations";
import { deterministicUuid } from "../provider/resources/common";
import { peakResidentKb } from "./process-sampler";

export interface ScaleScriptJob {
  readonly mode: "up" | "refresh";
  readonly firstPolicy: number;
  readonly count: number;
  readonly parentId: string;
  readonly parallel: number;
}

export interface ScaleScriptResult {
  /** Time from the first call to the last answer (the process's own start-up is measured by the caller). */
  readonly workMs: number;
  /** VmHWM of this process at the end, KiB. */
  readonly peakKb: number;
  /** This process's CPU time (user + system) at the end, milliseconds. */
  readonly cpuMs: number;
  readonly calls: number;
}

/** Runs `work` over `items` with at most `parallel` at once, in order of the items. */
export async function runLimited<T>(
  items: readonly T[],
  parallel: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? "{}") as ScaleScriptJob;
  const client = createGoogleClient({ settings: resolveGoogleSettings({ env: process.env }) });
  const ids = Array.from({ length: job.count }, (_, i) => String(job.firstPolicy + i));
  let calls = 0;
  const get = async (id: string): Promise<string | undefined> => {
    calls++;
    return (await client.call("compute.firewallPolicies.get", { firewallPolicy: id })).parent;
  };
  const started = performance.now();
  await runLimited(ids, job.parallel, async (id) => {
    if (job.mode === "refresh") {
      await get(id);
      return;
    }
    await get(id);
    calls++;
    const op = await client.call("compute.firewallPolicies.move", {
      firewallPolicy: id,
      parentId: job.parentId,
      requestId: deterministicUuid("bench-script", id, job.parentId),
    });
    const operationName = op.name ?? "";
    await waitForComputeOperation(
      async (signal) => {
        calls++;
        return {
          operation: await client.call(
            "compute.globalOrganizationOperations.get",
            { operation: operationName, parentId: job.parentId },
            { signal },
          ),
        };
      },
      { initial: op },
    );
    await get(id);
  });
  const result: ScaleScriptResult = {
    workMs: Math.round(performance.now() - started),
    peakKb: peakResidentKb("self") ?? 0,
    cpuMs: ((usage) => Math.round((usage.user + usage.system) / 1000))(process.cpuUsage()),
    calls,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
