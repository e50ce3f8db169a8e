/**
 * `npm run bench -- plugin-scale`: `pulumi up` of N FirewallPolicyMoves from a YAML program through
 * the pulumi-resource-opsledger plugin, as the npm package's Node.js script and as the linux-amd64 executable carrying
 * its own Node.js (scripts/build-plugin-executables.ts, built first), next to the same N through the TypeScript dynamic
 * path and the plain script making the same Google calls (bench/scale-moves-script.ts), against the in-process Google
 * sandbox; with the peak memory of the process that serves the resources (the plugin, the dynamic-provider host, the
 * script) and the start-up of the three provider processes alone: spawned with an engine address as the engine spawns
 * them, to the port they print when they serve (the handshake the engine waits for).
 *
 * N is OPSLEDGER_BENCH_SCALE_SIZES' last size (default 1,000); every side moves its own fresh policies. The YAML
 * program is generated with one resource block per move (YAML has no loops) and finds the plugin in this checkout's
 * bin/ (plugins.providers), as examples/yaml does, or in the executable's folder. Nothing is printed here: bench/index.ts prints the rows.
 */
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { packageVersion } from "../provider/assets/package-files";
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { buildPluginExecutables } from "../scripts/build-plugin-executables";
import { REPO_ROOT, initProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";
import { measuredRun, runScript, SCRIPT_BASE, seedPolicies, STACK_BASE, TO } from "./scale-moves";
import type { Measured } from "./scale-moves";
import type { SampledProcess } from "./process-sampler";

export interface PluginScaleOptions {
  /** Moves per side. @default 1000 */
  readonly count?: number;
  /** The CLI's --parallel and the script's concurrency. @default 16 */
  readonly parallel?: number;
  /** How long each move's operation runs in the sandbox. @default 2000 */
  readonly moveDurationMs?: number;
  /** Start-ups measured per provider process. @default 5 */
  readonly startups?: number;
  readonly onProgress?: (line: string) => void;
}

export interface PluginScaleResult {
  readonly count: number;
  readonly parallel: number;
  readonly moveDurationMs: number;
  readonly script: Measured;
  readonly typescript: Measured;
  readonly yaml: Measured;
  /** The same YAML program through the linux-amd64 executable. */
  readonly yamlExecutable: Measured;
  /** Milliseconds from spawn to the printed port, per run. */
  readonly pluginStartupMs: readonly number[];
  readonly executableStartupMs: readonly number[];
  readonly dynamicProviderStartupMs: readonly number[];
}

const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

/** A YAML project of `count` moves of the policies from `firstPolicy` on to `parentId`, in a new temp directory. */
export function writeYamlProject(
  count: number,
  firstPolicy: number,
  parentId: string,
  pluginDir = path.join(REPO_ROOT, "bin"),
): { dir: string; dispose: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-yaml-"));
  const version = packageVersion();
  const lines = [
    "name: bench-yaml",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: opsledger",
    `      path: ${pluginDir}`,
    "resources:",
  ];
  for (let i = 0; i < count; i++) {
    lines.push(
      `  move-${String(i)}:`,
      "    type: opsledger:compute:FirewallPolicyMove",
      "    properties:",
      `      firewallPolicy: "${String(firstPolicy + i)}"`,
      `      parentId: ${parentId}`,
      "    options:",
      `      version: ${version}`,
    );
  }
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), `${lines.join("\n")}\n`);
  return {
    dir,
    dispose: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `pulumi up` of the project in `dir` on a new stack (scale-moves' measuredRun; the resource process picked by
 * `serves`), with the processes sampled during it.
 */
export async function upMeasured(
  dir: string,
  config: Readonly<Record<string, { value: string; secret?: boolean }>>,
  parallel: number,
  serves: (command: string) => boolean,
  env: Readonly<Record<string, string>> = {},
): Promise<Measured & { readonly processes: readonly SampledProcess[] }> {
  const stack = await initProjectStack({ projectDir: dir, transpileOnly: true, eventLog: false, config, env });
  try {
    const up = ["up", "--yes", "--skip-preview", "--parallel", String(parallel)];
    const { measured, result, processes } = await measuredRun(stack, up, serves);
    if (result.code !== 0) throw new Error(`pulumi up in ${dir} failed:\n${result.output.slice(-2000)}`);
    return { ...measured, processes };
  } finally {
    await stack.dispose();
  }
}

/**
 * Spawns a provider process as the engine does (the engine's address as its argument: nothing listens there, and
 * neither process calls it before it serves) and resolves with the milliseconds until it prints its port.
 */
async function startupMs(command: string, args: readonly string[]): Promise<number> {
  const engine = net.createServer();
  await new Promise<void>((resolve) => engine.listen(0, "127.0.0.1", resolve));
  const address = engine.address() as net.AddressInfo;
  const started = performance.now();
  const child = spawn(command, [...args, `127.0.0.1:${String(address.port)}`], { stdio: ["ignore", "pipe", "pipe"] });
  try {
    return await new Promise<number>((resolve, reject) => {
      let err = "";
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        err += s;
      });
      child.stdout.setEncoding("utf8").on("data", (s: string) => {
        if (/^\d+\s*$/m.test(s)) resolve(Math.round(performance.now() - started));
      });
      child.on("exit", (code) => {
        reject(new Error(`${command} exited with ${String(code)} before serving: ${err}`));
      });
    });
  } finally {
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.on("exit", () => {
          resolve();
        });
      });
    }
    engine.close();
  }
}

export async function benchPluginScale(options: PluginScaleOptions = {}): Promise<PluginScaleResult> {
  const count = options.count ?? 1000;
  const parallel = options.parallel ?? 16;
  const moveDurationMs = options.moveDurationMs ?? 2000;
  const say = options.onProgress ?? ((): void => undefined);
  say("building the linux-amd64 executable");
  const built = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-exe-"));
  const [exe] = await buildPluginExecutables({ outDir: built, targets: ["linux-amd64"], log: say });
  if (exe === undefined) throw new Error("no linux-amd64 executable was built");
  const sandbox = await startGoogleSandbox({ moveDurationMs });
  try {
    // Fresh policies for each side (seedPolicies seeds a script set and a stack set per size index; at most 10,000).
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
    say(`${String(count)}: pulumi up, TypeScript (dynamic provider)`);
    const ts = writeBenchProject("moves");
    let typescript: Measured;
    try {
      typescript = await upMeasured(
        ts.dir,
        {
          ...config,
          count: { value: String(count) },
          firstPolicy: { value: String(bases[1] ?? 0) },
          parentId: { value: TO },
        },
        parallel,
        (c) => c.includes("dynamic-provider"),
      );
    } finally {
      ts.dispose();
    }
    say(`${String(count)}: pulumi up, YAML (the plugin)`);
    const yamlProject = writeYamlProject(count, bases[2] ?? 0, TO);
    let yaml: Measured;
    try {
      yaml = await upMeasured(yamlProject.dir, config, parallel, (c) => c.includes("pulumi-resource-opsledger"));
    } finally {
      yamlProject.dispose();
    }
    say(`${String(count)}: pulumi up, YAML (the executable)`);
    const exeProject = writeYamlProject(count, bases[3] ?? 0, TO, exe.dir);
    let yamlExecutable: Measured;
    try {
      yamlExecutable = await upMeasured(exeProject.dir, config, parallel, (c) => c.startsWith(exe.executable));
    } finally {
      exeProject.dispose();
    }
    say("provider start-ups");
    const pluginStartupMs: number[] = [];
    const executableStartupMs: number[] = [];
    const dynamicProviderStartupMs: number[] = [];
    const dynamicHost = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [REPO_ROOT] });
    for (let i = 0; i < (options.startups ?? 5); i++) {
      pluginStartupMs.push(
        await startupMs(process.execPath, [path.join(REPO_ROOT, "bin", "pulumi-resource-opsledger")]),
      );
      executableStartupMs.push(await startupMs(exe.executable, []));
      dynamicProviderStartupMs.push(await startupMs(process.execPath, [dynamicHost]));
    }
    return {
      count,
      parallel,
      moveDurationMs,
      script,
      typescript,
      yaml,
      yamlExecutable,
      pluginStartupMs,
      executableStartupMs,
      dynamicProviderStartupMs,
    };
  } finally {
    await sandbox.close();
    fs.rmSync(built, { recursive: true, force: true });
  }
}
