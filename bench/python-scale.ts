/**
 * `npm run bench -- python`: `pulumi up` of N FirewallPolicyMoves from a Python program (sdk/python
 * in the virtualenv of scripts/ensure-python.sh --sdk, through the pulumi-resource-opsledger plugin), next to the same N
 * from the YAML program through the same plugin and the plain script making the same Google calls
 * (bench/scale-moves-script.ts), against the in-process Google sandbox; and a Python program's `pulumi preview`
 * start-up next to a TypeScript program's (one move each, the CLI started to its exit).
 *
 * N is OPSLEDGER_BENCH_SCALE_SIZES' last size (default 1,000); every side moves its own fresh policies. The Python
 * program declares its moves in a loop, as a user writes it. The Python program runs a second time with the engine's
 * checkpoints skipped (PULUMI_SKIP_CHECKPOINTS=true), as a measurement of what they cost, and every `pulumi up` reports
 * its processes' CPU seconds (engine, language host and program, plugin; docs/benchmarks.md, "Python programs through
 * the plugin"). printPythonScale prints the tables.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { REPO_ROOT, initProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";
import { upMeasured as measuredUp, writeYamlProject } from "./plugin-scale";
import { runScript, SCRIPT_BASE, seedPolicies, STACK_BASE, TO } from "./scale-moves";
import type { Measured } from "./scale-moves";
import type { SampledProcess } from "./process-sampler";
import { printTable, ratio } from "./table";

export interface PythonScaleOptions {
  /** Moves per side. @default 1000 */
  readonly count?: number;
  /** The CLI's --parallel and the script's concurrency. @default 16 */
  readonly parallel?: number;
  /** How long each move's operation runs in the sandbox. @default 2000 */
  readonly moveDurationMs?: number;
  /** Previews measured per language. @default 5 */
  readonly previews?: number;
  readonly onProgress?: (line: string) => void;
}

/** CPU seconds of one `pulumi up`'s processes (bench/process-sampler), by the part of Pulumi they are. */
export interface CpuSplit {
  /** The pulumi CLI: the engine, its checkpoints, its gRPC. */
  readonly engine: number;
  /** The language host and the program (pulumi-language-python, python; pulumi-language-yaml). */
  readonly program: number;
  /** pulumi-resource-opsledger. */
  readonly plugin: number;
}

/** One `pulumi up`: its wall-clock time and peaks, and its processes' CPU. */
export interface MeasuredUp extends Measured {
  readonly cpu: CpuSplit;
}

export interface PythonScaleResult {
  readonly count: number;
  readonly parallel: number;
  readonly moveDurationMs: number;
  readonly script: Measured;
  readonly python: MeasuredUp;
  readonly yaml: MeasuredUp;
  /**
   * The same Python program with the engine's checkpoints skipped (PULUMI_SKIP_CHECKPOINTS=true): a measurement of
   * what the checkpoints cost, never a setting this package ships or recommends.
   */
  readonly pythonNoCheckpoints: MeasuredUp;
  /** Milliseconds of `pulumi preview` of a one-move program, per run. */
  readonly pythonPreviewMs: readonly number[];
  readonly typescriptPreviewMs: readonly number[];
}

const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

/** A Python project of `count` moves of the policies from `firstPolicy` on to `parentId`, in a new temp directory. */
function writePythonProject(
  count: number,
  firstPolicy: number,
  parentId: string,
): { dir: string; dispose: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-python-"));
  const pulumiYaml = [
    "name: bench-python",
    "runtime: python",
    "plugins:",
    "  providers:",
    "    - name: opsledger",
    `      path: ${path.join(REPO_ROOT, "bin")}`,
  ];
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${pulumiYaml.join("\n")}\n`);
  const program = [
    "import pulumi",
    "from pulumi_opsledger import compute",
    "",
    `for i in range(${String(count)}):`,
    `    compute.FirewallPolicyMove(f"move-{i}", firewall_policy=str(${String(firstPolicy)} + i), parent_id="${parentId}")`,
    `pulumi.export("moves", ${String(count)})`,
  ];
  fs.writeFileSync(path.join(dir, "__main__.py"), `${program.join("\n")}\n`);
  return {
    dir,
    dispose: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

const PLUGIN = (command: string): boolean => command.includes("pulumi-resource-opsledger");
const CLI = (command: string): boolean => /(^|\/)pulumi /.test(command);

/** The processes' CPU seconds: the CLI, the plugin, and the rest (the language host and the program it runs). */
function cpuSplit(processes: readonly SampledProcess[]): CpuSplit {
  const seconds = (pick: (p: SampledProcess) => boolean): number =>
    processes.filter(pick).reduce((sum, p) => sum + p.cpuMs, 0) / 1000;
  return {
    engine: seconds((p) => CLI(p.command)),
    plugin: seconds((p) => PLUGIN(p.command)),
    program: seconds((p) => !CLI(p.command) && !PLUGIN(p.command)),
  };
}

/** `pulumi up` of the project in `dir` on a new stack (plugin-scale's), with its processes' CPU. */
async function upMeasured(
  dir: string,
  config: Readonly<Record<string, { value: string; secret?: boolean }>>,
  parallel: number,
  env: Readonly<Record<string, string>> = {},
): Promise<MeasuredUp> {
  const { processes, ...measured } = await measuredUp(dir, config, parallel, PLUGIN, env);
  return { ...measured, cpu: cpuSplit(processes) };
}

/** The environment a Python program runs in: the project's virtualenv with sdk/python first on PATH. */
function pythonEnv(): Record<string, string> {
  const bin = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-python.sh"), "--sdk"], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return { PATH: `${bin}:${process.env["PATH"] ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" };
}

/** `pulumi preview` of the project in `dir`, `runs` times on one stack (the first run included): milliseconds each. */
async function previewMs(
  dir: string,
  config: Readonly<Record<string, { value: string; secret?: boolean }>>,
  runs: number,
  env: Readonly<Record<string, string>> = {},
): Promise<number[]> {
  const stack = await initProjectStack({ projectDir: dir, transpileOnly: true, eventLog: false, config, env });
  try {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      const result = await stack.run(["preview"]);
      if (result.code !== 0) throw new Error(`pulumi preview in ${dir} failed:\n${result.output.slice(-2000)}`);
      ms.push(Math.round(performance.now() - started));
    }
    return ms;
  } finally {
    await stack.dispose();
  }
}

export async function benchPythonScale(options: PythonScaleOptions = {}): Promise<PythonScaleResult> {
  const count = options.count ?? 1000;
  const parallel = options.parallel ?? 16;
  const moveDurationMs = options.moveDurationMs ?? 2000;
  const say = options.onProgress ?? ((): void => undefined);
  say("the Python virtualenv (scripts/ensure-python.sh --sdk)");
  const env = pythonEnv();
  const sandbox = await startGoogleSandbox({ moveDurationMs });
  try {
    seedPolicies(sandbox, [count, count, count]);
    const bases = [SCRIPT_BASE, STACK_BASE, STACK_BASE + 10_000, STACK_BASE + 20_000];
    const token = sandbox.mintToken({ principal: fixture.DEPLOYER, scopes: SCOPES });
    const config = {
      "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
      "opsledger:accessToken": { value: token, secret: true },
    };
    say(`${String(count)}: plain script`);
    const script = await runScript(
      { mode: "up", count, parentId: TO, parallel, firstPolicy: bases[0] ?? 0 },
      { GOOGLE_COMPUTE_CUSTOM_ENDPOINT: sandbox.endpoints.compute, GOOGLE_OAUTH_ACCESS_TOKEN: token },
    );
    say(`${String(count)}: pulumi up, Python (the plugin)`);
    const py = writePythonProject(count, bases[1] ?? 0, TO);
    let python: MeasuredUp;
    try {
      python = await upMeasured(py.dir, config, parallel, env);
    } finally {
      py.dispose();
    }
    say(`${String(count)}: pulumi up, Python, checkpoints skipped (a measurement of their cost)`);
    const pyNoCheckpoints = writePythonProject(count, bases[3] ?? 0, TO);
    let pythonNoCheckpoints: MeasuredUp;
    try {
      pythonNoCheckpoints = await upMeasured(pyNoCheckpoints.dir, config, parallel, {
        ...env,
        PULUMI_SKIP_CHECKPOINTS: "true",
      });
    } finally {
      pyNoCheckpoints.dispose();
    }
    say(`${String(count)}: pulumi up, YAML (the plugin)`);
    const yamlProject = writeYamlProject(count, bases[2] ?? 0, TO);
    let yaml: MeasuredUp;
    try {
      yaml = await upMeasured(yamlProject.dir, config, parallel);
    } finally {
      yamlProject.dispose();
    }
    const runs = options.previews ?? 5;
    say(`preview start-up: Python and TypeScript, one move each, ${String(runs)} runs`);
    const onePy = writePythonProject(1, bases[1] ?? 0, TO);
    let pythonPreviewMs: number[];
    try {
      pythonPreviewMs = await previewMs(onePy.dir, config, runs, env);
    } finally {
      onePy.dispose();
    }
    const oneTs = writeBenchProject("moves");
    let typescriptPreviewMs: number[];
    try {
      typescriptPreviewMs = await previewMs(
        oneTs.dir,
        { ...config, count: { value: "1" }, firstPolicy: { value: String(bases[1] ?? 0) }, parentId: { value: TO } },
        runs,
      );
    } finally {
      oneTs.dispose();
    }
    return {
      count,
      parallel,
      moveDurationMs,
      script,
      python,
      yaml,
      pythonNoCheckpoints,
      pythonPreviewMs,
      typescriptPreviewMs,
    };
  } finally {
    await sandbox.close();
  }
}

/** The two tables of `npm run bench -- python`: the 1,000 moves side by side, and the preview start-ups. */
export function printPythonScale(r: PythonScaleResult): void {
  const s = (ms: number): string => (ms / 1000).toFixed(1);
  printTable(
    `pulumi up of ${String(r.count)} FirewallPolicyMoves: a Python program (sdk/python) and a YAML program through ` +
      `the plugin, and a plain script making the same calls (--parallel ${String(r.parallel)}, ` +
      `${String(r.moveDurationMs / 1000)} s operations; goal: Python within 1.1x of the script)`,
    ["path", "s", "ratio vs script", "resource process peak MB", "CLI peak MB"],
    [
      ["plain script (baseline)", s(r.script.ms), "1.00x", r.script.providerMb, "-"],
      [
        "Python, pulumi-resource-opsledger",
        s(r.python.ms),
        ratio(r.python.ms, r.script.ms),
        r.python.providerMb,
        r.python.cliMb,
      ],
      ["YAML, pulumi-resource-opsledger", s(r.yaml.ms), ratio(r.yaml.ms, r.script.ms), r.yaml.providerMb, r.yaml.cliMb],
      [
        "Python, checkpoints skipped (measurement only)",
        s(r.pythonNoCheckpoints.ms),
        ratio(r.pythonNoCheckpoints.ms, r.script.ms),
        r.pythonNoCheckpoints.providerMb,
        r.pythonNoCheckpoints.cliMb,
      ],
    ],
  );
  const c = (seconds: number): string => seconds.toFixed(1);
  const cpuRow = (name: string, m: MeasuredUp): string[] => [
    name,
    c(m.cpu.engine),
    c(m.cpu.program),
    c(m.cpu.plugin),
    c(m.cpu.engine + m.cpu.program + m.cpu.plugin),
  ];
  printTable(
    `CPU seconds of the same runs, per process (user + system, /proc): where the time beyond the script's goes`,
    ["path", "engine (pulumi CLI)", "language host + program", "plugin", "total"],
    [
      ["plain script (baseline)", "-", "-", "-", r.script.cpuMs === undefined ? "-" : c(r.script.cpuMs / 1000)],
      cpuRow("Python", r.python),
      cpuRow("YAML", r.yaml),
      cpuRow("Python, checkpoints skipped (measurement only)", r.pythonNoCheckpoints),
    ],
  );
  const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
  const runs = (ms: readonly number[]): string => `${String(median(ms))} (${ms.join(", ")})`;
  printTable(
    "pulumi preview of a one-move program: the CLI started to its exit (ms)",
    ["program", "median ms (each run)", "ratio"],
    [
      ["TypeScript, dynamic provider (baseline)", runs(r.typescriptPreviewMs), "1.00x"],
      [
        "Python, pulumi-resource-opsledger",
        runs(r.pythonPreviewMs),
        ratio(median(r.pythonPreviewMs), median(r.typescriptPreviewMs)),
      ],
    ],
  );
}
