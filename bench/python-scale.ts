/**
 * `npm run bench -- python`: `pulumi up` of N FirewallPolicyMoves from a Python program (sdk/python
 * in the virtualenv of scripts/ensure-python.sh --sdk, through the pulumi-resource-opsledger plugin), next to the same N
 * from the YAML program through the same plugin and the plain script making the same Google calls
 * (bench/scale-moves-script.ts), against the in-process Google sandbox; and a Python program's `pulumi preview`
 * start-up next to a TypeScript program's (one move each, the CLI started to its exit).
 *
 * N is OPSLEDGER_BENCH_SCALE_SIZES' last size (default 1,000); every side moves its own fresh policies. The Python
 * program declares its moves in a loop, as a user writes it. Nothing is printed here: bench/index.ts prints the rows.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { execFileSync } from "node:child_process";
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { REPO_ROOT, initProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";
import { upMeasured, writeYamlProject } from "./plugin-scale";
import { runScript, SCRIPT_BASE, seedPolicies, STACK_BASE, TO } from "./scale-moves";
import type { Measured } from "./scale-moves";
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

export interface PythonScaleResult {
  readonly count: number;
  readonly parallel: number;
  readonly moveDurationMs: number;
  readonly script: Measured;
  readonly python: Measured;
  readonly yaml: Measured;
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
    seedPolicies(sandbox, [count, count]);
    const bases = [SCRIPT_BASE, STACK_BASE, STACK_BASE + 10_000];
    const token = sandbox.mintToken({ principal: fixture.DEPLOYER, scopes: SCOPES });
    const config = {
      "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
      "opsledger:accessToken": { value: token, secret: true },
    };
    const plugin = (c: string): boolean => c.includes("pulumi-resource-opsledger");
    say(`${String(count)}: plain script`);
    const script = await runScript(
      { mode: "up", count, parentId: TO, parallel, firstPolicy: bases[0] ?? 0 },
      { GOOGLE_COMPUTE_CUSTOM_ENDPOINT: sandbox.endpoints.compute, GOOGLE_OAUTH_ACCESS_TOKEN: token },
    );
    say(`${String(count)}: pulumi up, Python (the plugin)`);
    const py = writePythonProject(count, bases[1] ?? 0, TO);
    let python: Measured;
    try {
      python = await upMeasured(py.dir, config, parallel, plugin, env);
    } finally {
      py.dispose();
    }
    say(`${String(count)}: pulumi up, YAML (the plugin)`);
    const yamlProject = writeYamlProject(count, bases[2] ?? 0, TO);
    let yaml: Measured;
    try {
      yaml = await upMeasured(yamlProject.dir, config, parallel, plugin);
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
    return { count, parallel, moveDurationMs, script, python, yaml, pythonPreviewMs, typescriptPreviewMs };
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
