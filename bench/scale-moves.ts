/**
 * Organization scale: `pulumi up`, `pulumi preview` and `pulumi refresh` of 10, 100 and 1,000 FirewallPolicyMoves
 * through the plain CLI in a generated project directory, next to
 * - a plain script making the same Google calls with the same client, waiter and parallelism, run as its own process
 *   (bench/scale-moves-script.ts), and
 * - Pulumi's own floor: the same commands on a stack of as many dynamic resources whose provider does nothing.
 *
 * Per size it records wall time (process start to exit, both sides), the peak resident memory (VmHWM, sampled from
 * /proc every 100 ms: bench/process-sampler.ts) of the dynamic-provider process and of the CLI (the Go engine), and
 * the size of the stack's checkpoint file in the file backend. The sandbox runs in this process; both sides pay for it.
 * Nothing is printed here: bench/index.ts prints the rows.
 */
import * as fs from "node:fs";
import { DEFAULT_SEED, fixture, startGoogleSandbox } from "../sandbox/google";
import type { GoogleSandbox } from "../sandbox/google";
import { initProjectStack } from "../scripts/lib/pulumi-cli";
import type { CommandResult, ProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";
import type { BenchProgram } from "./generated-project";
import { runBaselineScript } from "./baseline-script";
import { sampleProcessTree } from "./process-sampler";
import type { SampledProcess } from "./process-sampler";
import type { ScaleScriptJob, ScaleScriptResult } from "./scale-moves-script";

export interface ScaleMovesOptions {
  /** Stack sizes. @default [10, 100, 1000] */
  readonly sizes: readonly number[];
  /** `--parallel` of the CLI and the script's concurrency. @default 16 */
  readonly parallel: number;
  /** How long each move's operation runs in the sandbox. @default 2000 */
  readonly moveDurationMs: number;
  /** Environment of every run (e.g. a quota setting). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with a line of progress (the benchmark takes minutes). */
  readonly onProgress?: (line: string) => void;
}

/** One command on one side: wall time and peak memory. */
export interface Measured {
  readonly ms: number;
  /** VmHWM of the dynamic-provider process (Pulumi) or of the script process, MiB. */
  readonly providerMb: number;
  /** VmHWM of the pulumi CLI (the Go engine), MiB; 0 for the script. */
  readonly cliMb: number;
  /** The script's own CPU time (user + system), milliseconds; undefined for a CLI run. */
  readonly cpuMs?: number;
}

export interface ScaleMovesRow {
  readonly count: number;
  readonly script: { readonly up: Measured; readonly refresh: Measured };
  readonly pulumi: { readonly up: Measured; readonly preview: Measured; readonly refresh: Measured };
  readonly floor: { readonly up: Measured; readonly preview: Measured; readonly refresh: Measured };
  /** Checkpoint file bytes after `pulumi up`: the moves, and the floor's no-op resources. */
  readonly stateBytes: number;
  readonly floorStateBytes: number;
}

const FROM = `folders/${fixture.FIXTURE_FOLDER_IDS.engineering}`;
export const TO = `folders/${fixture.FIXTURE_FOLDER_IDS.platform}`;
const NEXT = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);
/** The first policy id of the script's policies, and of the stacks', for size index 0 (each next size adds 10,000). */
export const SCRIPT_BASE = 810_000_000_000;
export const STACK_BASE = 820_000_000_000;

const mb = (kb: number): number => Math.round(kb / 1024);

/** Seeds `count` extra firewall policies under FROM for each side and size. */
export function seedPolicies(sandbox: GoogleSandbox, sizes: readonly number[]): void {
  const policies = sizes.flatMap((count, s) =>
    [SCRIPT_BASE, STACK_BASE].flatMap((base) =>
      Array.from({ length: count }, (_, i) => ({
        id: String(base + s * 10_000 + i),
        shortName: `bench-${base + s * 10_000 + i}`,
        parent: FROM,
        creationTimestamp: "2026-01-01T00:00:00Z",
      })),
    ),
  );
  sandbox.seed({ ...DEFAULT_SEED, firewallPolicies: [...DEFAULT_SEED.firewallPolicies, ...policies] });
}

export async function runScript(job: ScaleScriptJob, env: Readonly<Record<string, string>>): Promise<Measured> {
  const { ms, result } = await runBaselineScript("scale-moves-script.js", [JSON.stringify(job)], env);
  const r = result as ScaleScriptResult;
  return { ms, providerMb: mb(r.peakKb), cliMb: 0, cpuMs: r.cpuMs };
}

/** The process that serves the resources, by command line: the dynamic-provider host unless told otherwise. */
const DYNAMIC_PROVIDER = (command: string): boolean => command.includes("dynamic-provider");

/**
 * Runs one CLI command, sampling the process tree below it; also returns what the command printed and logged.
 * "provider" is the peak of the processes `serves` picks (the dynamic-provider host by default; the plugin for YAML).
 */
export async function measuredRun(
  stack: ProjectStack,
  args: readonly string[],
  serves: (command: string) => boolean = DYNAMIC_PROVIDER,
  /** Environment of this command only, over the stack's. */
  env: Readonly<Record<string, string>> = {},
): Promise<{ measured: Measured; result: CommandResult; processes: SampledProcess[] }> {
  let sampler: ReturnType<typeof sampleProcessTree> | undefined;
  const started = performance.now();
  const result = await stack.run(args, {
    env,
    onSpawn: (pid) => {
      sampler = sampleProcessTree(pid);
    },
  });
  const ms = Math.round(performance.now() - started);
  const processes = sampler?.stop() ?? [];
  const providerKb = Math.max(0, ...processes.filter((p) => serves(p.command)).map((p) => p.peakKb));
  const cliKb = processes.find((p) => /(^|\/)pulumi /.test(p.command))?.peakKb ?? 0;
  return { measured: { ms, providerMb: mb(providerKb), cliMb: mb(cliKb) }, result, processes };
}

/** Runs one CLI command, sampling the process tree below it. */
export async function measured(stack: ProjectStack, args: readonly string[]): Promise<Measured> {
  return (await measuredRun(stack, args)).measured;
}

interface StackRuns {
  readonly up: Measured;
  readonly preview: Measured;
  readonly refresh: Measured;
  readonly stateBytes: number;
}

/** `pulumi up`, then a preview of moving everything to NEXT, then `pulumi refresh`, on a new stack. */
export async function runStack(
  program: BenchProgram,
  count: number,
  firstPolicy: number,
  options: ScaleMovesOptions,
  config: Readonly<Record<string, { value: string; secret?: boolean }>>,
): Promise<StackRuns> {
  const project = writeBenchProject(program);
  const parallel = ["--parallel", String(options.parallel)];
  try {
    const stack = await initProjectStack({
      projectDir: project.dir,
      transpileOnly: true,
      eventLog: false,
      env: { ...options.env },
      config: {
        ...config,
        count: { value: String(count) },
        firstPolicy: { value: String(firstPolicy) },
        parentId: { value: TO },
      },
    });
    try {
      const up = await measured(stack, ["up", "--yes", "--skip-preview", ...parallel]);
      const stateBytes = fs.statSync(stack.stateFile).size;
      await stack.setConfig({ parentId: { value: NEXT } });
      const preview = await measured(stack, ["preview", ...parallel]);
      const refresh = await measured(stack, ["refresh", "--yes", "--skip-preview", ...parallel]);
      return { up, preview, refresh, stateBytes };
    } finally {
      await stack.dispose();
    }
  } finally {
    project.dispose();
  }
}

export async function benchScaleMoves(partial: Partial<ScaleMovesOptions> = {}): Promise<ScaleMovesRow[]> {
  const options: ScaleMovesOptions = {
    sizes: partial.sizes ?? [10, 100, 1000],
    parallel: partial.parallel ?? 16,
    moveDurationMs: partial.moveDurationMs ?? 2000,
    ...(partial.env === undefined ? {} : { env: partial.env }),
    ...(partial.onProgress === undefined ? {} : { onProgress: partial.onProgress }),
  };
  const say = options.onProgress ?? ((): void => undefined);
  const sandbox = await startGoogleSandbox({ moveDurationMs: options.moveDurationMs });
  try {
    seedPolicies(sandbox, options.sizes);
    const token = sandbox.mintToken({ principal: fixture.DEPLOYER, scopes: SCOPES });
    const scriptEnv = {
      ...options.env,
      GOOGLE_COMPUTE_CUSTOM_ENDPOINT: sandbox.endpoints.compute,
      GOOGLE_OAUTH_ACCESS_TOKEN: token,
    };
    const stackConfig = {
      "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
      "opsledger:accessToken": { value: token, secret: true },
    };
    const rows: ScaleMovesRow[] = [];
    for (const [s, count] of options.sizes.entries()) {
      const job = { count, parentId: TO, parallel: options.parallel, firstPolicy: SCRIPT_BASE + s * 10_000 };
      say(`${count}: plain script (up)`);
      const scriptUp = await runScript({ ...job, mode: "up" }, scriptEnv);
      say(`${count}: pulumi up / preview / refresh of the moves`);
      const moves = await runStack("moves", count, STACK_BASE + s * 10_000, options, stackConfig);
      say(`${count}: plain script (refresh)`);
      const scriptRefresh = await runScript({ ...job, mode: "refresh" }, scriptEnv);
      say(`${count}: Pulumi's floor (no-op dynamic resources)`);
      const floor = await runStack("noop", count, STACK_BASE + s * 10_000, options, {});
      rows.push({
        count,
        script: { up: scriptUp, refresh: scriptRefresh },
        pulumi: { up: moves.up, preview: moves.preview, refresh: moves.refresh },
        floor: { up: floor.up, preview: floor.preview, refresh: floor.refresh },
        stateBytes: moves.stateBytes,
        floorStateBytes: floor.stateBytes,
      });
    }
    return rows;
  } finally {
    await sandbox.close();
  }
}
