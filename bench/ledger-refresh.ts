/**
 * `npm run bench -- ledger-refresh [--fabric 3.1.5] [--consensus BFT]`: `pulumi refresh` of one LedgerTransactions of
 * 1,000 items on a real Fabric network (Raft on the LTS by default; the ledger-scale bench's network, program and stack
 * config), next to a plain script making the same lookups with the official client at the same concurrency.
 *
 * One `pulumi up` of the batch (bench/generated-project.ts `ledgerBatch`, maxInFlight = the concurrency) commits the
 * items; then, `runs` times, each side in turn (the order alternating between runs):
 * - the baseline: bench/ledger-refresh-script.ts `official`, @hyperledger/fabric-gateway's qscc GetTransactionByID for
 *   every recorded txId, `parallel` at once, in a process of its own (start-up included, as for every side);
 * - `pulumi refresh --yes --skip-preview` of the stack (the refresh runs no program);
 * - where the time goes: the provider's read alone in a plain process (ledger-refresh-script.ts `provider`: our process
 *   without the engine), `pulumi refresh` of one no-op dynamic resource (the engine's fixed cost: CLI, plugin and
 *   provider process start-up, one Read), and the refresh with PULUMI_SKIP_CHECKPOINTS=true (a diagnostic of the
 *   engine's checkpoint writes, not a setting to use).
 * Last, `runs` times, maxInFlight 1 (set by an up that sends nothing: the refresh, and the provider's read alone) and
 * the script at concurrency 1: the lookups one after another, as a refresh made them before they were bounded-concurrent. Each run's CPU time is split by process (the CLI's tree
 * sampled every 100 ms, bench/process-sampler.ts; a script reads its own): on 2 shared cores, CPU is what a side costs.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startFabricNetwork } from "../sandbox/fabric-network";
import type { FabricConsensus, FabricVersion } from "../sandbox/fabric-network";
import { initProjectStack } from "../scripts/lib/pulumi-cli";
import type { ConfigValues, ProjectStack } from "../scripts/lib/pulumi-cli";
import { LEDGER_TRANSACTIONS_TYPE } from "../sdk/ledger/ledger-transactions";
import { runBaselineScript } from "./baseline-script";
import { writeBenchProject } from "./generated-project";
import type { BenchProgram, BenchProject } from "./generated-project";
import type { RefreshScriptJob, RefreshScriptResult } from "./ledger-refresh-script";
import { ledgerStackConfig } from "./ledger-scale";
import { measuredRun } from "./scale-moves";
import { printTable, ratio } from "./table";

export interface LedgerRefreshOptions {
  readonly version: FabricVersion;
  readonly consensus: FabricConsensus;
  /** Items of the batch. @default 1000 */
  readonly count?: number;
  /** The batch's maxInFlight, the script's concurrency and the CLI's --parallel. @default 16 */
  readonly parallel?: number;
  /** Runs of each side. @default 3 */
  readonly runs?: number;
  readonly onProgress?: (line: string) => void;
}

export interface LedgerRefreshResult {
  readonly version: string;
  readonly consensus: FabricConsensus;
  readonly count: number;
  readonly parallel: number;
  /** The stack's state after the up, as `pulumi stack export` prints it (compact JSON). */
  readonly stateKb: number;
  /** Each side's wall time per run, milliseconds. */
  readonly ms: Readonly<Record<Side, readonly number[]>>;
  /** The processes' own time from connecting to the last answer (start-up excluded), per run. */
  readonly workMs: Readonly<
    Record<"official" | "provider" | "officialSequential" | "providerSequential", readonly number[]>
  >;
  /** The dynamic-provider process's peak memory during the refreshes, MiB. */
  readonly providerMb: number;
  /** CPU time (user + system) of each side's processes per run, milliseconds: where a 2-core machine's time goes. */
  readonly cpuMs: Readonly<Record<"official" | "provider" | "refresh" | "floor", readonly CpuSplit[]>>;
}

/** One run's CPU time, by process: the pulumi CLI (the engine), the dynamic-provider host, the rest (a script's own). */
export interface CpuSplit {
  readonly cli: number;
  readonly host: number;
  readonly other: number;
}

export type Side =
  "official" | "refresh" | "provider" | "floor" | "noCheckpoints" | "officialSequential" | "refreshSequential";

/** A stack of `program` in a project of its own; `use` runs on it, then both are removed. */
async function withStack<T>(
  program: BenchProgram,
  config: ConfigValues,
  use: (stack: ProjectStack) => Promise<T>,
): Promise<T> {
  const project: BenchProject = writeBenchProject(program);
  try {
    const stack = await initProjectStack({ projectDir: project.dir, transpileOnly: true, eventLog: false, config });
    try {
      return await use(stack);
    } finally {
      await stack.dispose();
    }
  } finally {
    project.dispose();
  }
}

/** The batch's id and outputs as the state holds them, its secrets' values in the clear (`{}` credentials here). */
async function batchState(stack: ProjectStack): Promise<{ id: string; props: Record<string, unknown> }> {
  const deployment = await stack.exportState({ showSecrets: true });
  const batch = deployment.resources?.find((r) => r.type === LEDGER_TRANSACTIONS_TYPE);
  if (batch?.id === undefined || batch.outputs === undefined) throw new Error("the stack has no LedgerTransactions");
  const clear = (v: unknown): unknown =>
    typeof v === "object" && v !== null && "plaintext" in v ? JSON.parse(String(v.plaintext)) : v;
  return { id: batch.id, props: Object.fromEntries(Object.entries(batch.outputs).map(([k, v]) => [k, clear(v)])) };
}

export async function benchLedgerRefresh(options: LedgerRefreshOptions): Promise<LedgerRefreshResult> {
  const count = options.count ?? 1000;
  const parallel = options.parallel ?? 16;
  const runs = options.runs ?? 3;
  const say = options.onProgress ?? ((): void => undefined);
  say(`starting Fabric ${options.version} (${options.consensus})`);
  const network = await startFabricNetwork({ version: options.version, consensus: options.consensus });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-refresh-"));
  try {
    const prefix = `bench-refresh-${String(process.pid)}-${String(Date.now())}`;
    const config = ledgerStackConfig(network, { count, maxInFlight: parallel, prefix });
    return await withStack("ledgerBatch", config, async (stack) => {
      const cli = ["--yes", "--skip-preview", "--parallel", String(parallel)];
      say(`pulumi up of one LedgerTransactions of ${String(count)} items`);
      await measuredRun(stack, ["up", ...cli]);
      const valid = (await stack.outputs())["valid"];
      if (valid !== count) throw new Error(`pulumi up committed ${String(valid)} of ${String(count)} VALID`);
      const stateFile = path.join(dir, "state.json");
      const state = await batchState(stack);
      fs.writeFileSync(stateFile, JSON.stringify(state));
      const stateKb = Math.round(JSON.stringify(await stack.exportState()).length / 1024);
      const script = async (mode: RefreshScriptJob["mode"], concurrency: number) => {
        const job: RefreshScriptJob = { mode, networkFile: network.networkFile, parallel: concurrency, stateFile };
        const { ms, result } = await runBaselineScript("ledger-refresh-script.js", [JSON.stringify(job)], {});
        const r = result as RefreshScriptResult;
        if (r.found !== count) throw new Error(`the ${mode} script found ${String(r.found)} of ${String(count)}`);
        return { ms, workMs: r.workMs, cpuMs: r.cpuMs };
      };
      let providerMb = 0;
      const cpuMs = {
        official: [] as CpuSplit[],
        provider: [] as CpuSplit[],
        refresh: [] as CpuSplit[],
        floor: [] as CpuSplit[],
      };
      const refresh = async (
        on: ProjectStack,
        env: Readonly<Record<string, string>> = {},
        cpuOf?: "refresh" | "floor",
      ) => {
        const { measured, processes } = await measuredRun(on, ["refresh", ...cli], undefined, env);
        providerMb = Math.max(providerMb, measured.providerMb);
        const sum = (pick: (command: string) => boolean) =>
          processes.filter((p) => pick(p.command)).reduce((total, p) => total + p.cpuMs, 0);
        const isCli = (command: string) => /(^|\/)pulumi /.test(command);
        const isHost = (command: string) => command.includes("dynamic-provider");
        if (cpuOf !== undefined)
          cpuMs[cpuOf].push({
            cli: sum(isCli),
            host: sum(isHost),
            other: sum((command) => !isCli(command) && !isHost(command)),
          });
        return measured.ms;
      };
      const ms: Record<Side, number[]> = {
        official: [],
        refresh: [],
        provider: [],
        floor: [],
        noCheckpoints: [],
        officialSequential: [],
        refreshSequential: [],
      };
      const workMs = {
        official: [] as number[],
        provider: [] as number[],
        officialSequential: [] as number[],
        providerSequential: [] as number[],
      };
      await withStack(
        "noop",
        { count: { value: "1" }, firstPolicy: { value: "1" }, parentId: { value: "folders/1" } },
        async (floor) => {
          await floor.up();
          const scriptSide = (mode: RefreshScriptJob["mode"]) => async () => {
            const r = await script(mode, parallel);
            workMs[mode].push(r.workMs);
            cpuMs[mode].push({ cli: 0, host: 0, other: r.cpuMs });
            return r.ms;
          };
          const sides: readonly (readonly [Side, () => Promise<number>])[] = [
            ["official", scriptSide("official")],
            ["refresh", () => refresh(stack, {}, "refresh")],
            ["provider", scriptSide("provider")],
            ["floor", () => refresh(floor, {}, "floor")],
            ["noCheckpoints", () => refresh(stack, { PULUMI_SKIP_CHECKPOINTS: "true" })],
          ];
          for (let run = 0; run < runs; run++) {
            say(`run ${String(run + 1)} of ${String(runs)}`);
            // Each side goes first in every other run: none gets the calmer machine every time.
            for (const [side, measure] of run % 2 === 0 ? sides : [...sides].reverse()) ms[side].push(await measure());
          }
        },
      );
      say("maxInFlight 1: the lookups one after another");
      await stack.setConfig({ maxInFlight: { value: "1" } });
      await measuredRun(stack, ["up", ...cli]);
      const sequential = await batchState(stack);
      if (sequential.props["maxInFlight"] !== 1) throw new Error("the up did not record maxInFlight 1");
      fs.writeFileSync(stateFile, JSON.stringify(sequential));
      for (let run = 0; run < runs; run++) {
        say(`maxInFlight 1, run ${String(run + 1)} of ${String(runs)}`);
        ms.refreshSequential.push(await refresh(stack));
        const official = await script("official", 1);
        ms.officialSequential.push(official.ms);
        workMs.officialSequential.push(official.workMs);
        workMs.providerSequential.push((await script("provider", 1)).workMs);
      }
      return {
        version: network.version,
        consensus: network.consensus,
        count,
        parallel,
        stateKb,
        ms,
        workMs,
        providerMb,
        cpuMs,
      };
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await network.close();
  }
}

const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
const seconds = (ms: readonly number[]): string =>
  `${(median(ms) / 1000).toFixed(2)} (${ms.map((x) => (x / 1000).toFixed(2)).join(", ")})`;

export function printLedgerRefresh(r: LedgerRefreshResult): void {
  const base = median(r.ms.official);
  const row = (label: string, side: Side, against = base): [string, string, string] => [
    label,
    seconds(r.ms[side]),
    ratio(median(r.ms[side]), against),
  ];
  printTable(
    `pulumi refresh of one LedgerTransactions of ${r.count.toLocaleString("en")} items on Fabric ${r.version} ` +
      `(${r.consensus === "BFT" ? "SmartBFT" : "Raft"}), next to a script making the same qscc GetTransactionByID ` +
      `lookups with @hyperledger/fabric-gateway, ${String(r.parallel)} at once (target <= 1.5x); state ${String(r.stateKb)} KB`,
    ["side", "s, median (each run)", "ratio vs script"],
    [
      row("script, the official client (baseline; its own process)", "official"),
      row("pulumi refresh (TypeScript, dynamic provider)", "refresh"),
      row("  the provider's read alone, in a plain process (our process, no engine)", "provider"),
      row("  pulumi refresh of one no-op dynamic resource (the engine's fixed cost)", "floor"),
      row("  pulumi refresh with PULUMI_SKIP_CHECKPOINTS=true (diagnostic)", "noCheckpoints"),
      row("script at concurrency 1 (one lookup after another)", "officialSequential"),
      row("pulumi refresh at maxInFlight 1 (as before: one lookup after another)", "refreshSequential"),
    ],
  );
  const work = (ms: readonly number[]): string => `${String(median(ms))} (${ms.join(", ")})`;
  printTable(
    "The same lookups without process start-up: connecting to the last answer, inside each process (ms)",
    ["process", "ms, median (each run)", "ratio"],
    [
      ["the official client's script (baseline)", work(r.workMs.official), "1.00x"],
      ["the provider's read", work(r.workMs.provider), ratio(median(r.workMs.provider), median(r.workMs.official))],
      ["the official client's script at concurrency 1", work(r.workMs.officialSequential), "—"],
      [
        "the provider's read at maxInFlight 1 (as before)",
        work(r.workMs.providerSequential),
        ratio(median(r.workMs.providerSequential), median(r.workMs.officialSequential)),
      ],
    ],
  );
  const cpu = (splits: readonly CpuSplit[], part: keyof CpuSplit | "total"): string =>
    (median(splits.map((c) => (part === "total" ? c.cli + c.host + c.other : c[part]))) / 1000).toFixed(2);
  printTable(
    "CPU time of each side's processes in one run (user + system, s, median of the runs; 2 cores in all)",
    ["side", "pulumi CLI", "dynamic-provider host", "other processes", "total"],
    (
      [
        ["script, the official client (its one process)", "official"],
        ["the provider's read alone (its one process)", "provider"],
        ["pulumi refresh", "refresh"],
        ["pulumi refresh of one no-op dynamic resource", "floor"],
      ] as const
    ).map(([label, side]) => [
      label,
      cpu(r.cpuMs[side], "cli"),
      cpu(r.cpuMs[side], "host"),
      cpu(r.cpuMs[side], "other"),
      cpu(r.cpuMs[side], "total"),
    ]),
  );
  process.stdout.write(`(the dynamic-provider process peaked at ${String(r.providerMb)} MiB during the refreshes)\n`);
}
