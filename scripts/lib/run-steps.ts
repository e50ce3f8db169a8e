/**
 * The steps scripts/run.ts and scripts/run-tests.ts are made of: the log line, running a command, the ensure-*.sh
 * set-ups (the Pulumi CLI, SoftHSM2, pkcs11js), the pruning of dist/ and the two parts of the lint.
 */
import { execFileSync, spawn, spawnSync, type StdioOptions } from "node:child_process";
import { existsSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";

/** When run.sh started (epoch ms, OPSLEDGER_RUN_STARTED_MS), so the log's `+Ns` counts from the command's start. */
const STARTED_MS = Number(process.env.OPSLEDGER_RUN_STARTED_MS ?? Date.now());

/** One line saying how far into the command it is, so a CI log shows where the time went. */
export function log(message: string): void {
  process.stderr.write(`[opsledger] +${String(Math.floor((Date.now() - STARTED_MS) / 1000))}s ${message}\n`);
}

/** scripts/lib/cache-dir.sh, where the cache folder's rule is written (dist/scripts/lib -> the checkout). */
const CACHE_DIR_SCRIPT = path.resolve(__dirname, "..", "..", "..", "scripts", "lib", "cache-dir.sh");

/** The project's cache folder, outside the work tree, as scripts/lib/cache-dir.sh finds it under `env`. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync("bash", [CACHE_DIR_SCRIPT], { env, encoding: "utf8" }).trim();
}

/** A task's failure: the exit code to end with (the reason was printed where it happened). */
export class TaskFailed extends Error {
  constructor(readonly code: number) {
    super(`exit ${String(code)}`);
  }
}

/** Runs a command to its end with the given stdio; throws TaskFailed with its exit code if it fails. */
export function run(command: string, args: readonly string[], stdio: StdioOptions = "inherit"): void {
  const result = spawnSync(command, args, { stdio });
  const code = result.status ?? 1;
  if (result.error !== undefined) process.stderr.write(`${command}: ${result.error.message}\n`);
  if (code !== 0) throw new TaskFailed(code);
}

/** The line an ensure-*.sh script prints on stdout (its progress goes to stderr). */
function ensure(script: string): string {
  const result = spawnSync("bash", [path.join("scripts", script)], { stdio: ["ignore", "pipe", "inherit"] });
  if (result.status !== 0) throw new TaskFailed(result.status ?? 1);
  return result.stdout.toString().trim();
}

/** The Pulumi CLI for the programs and the tests (OPSLEDGER_PULUMI_BIN, first on PATH). */
export function pulumiEnv(): void {
  const bin = ensure("ensure-pulumi.sh");
  process.env.OPSLEDGER_PULUMI_BIN = bin;
  process.env.PATH = `${bin}:${process.env.PATH ?? ""}`;
}

/**
 * rcodesign, which signs the darwin executables, built before mocha when the run builds them: its first build is a
 * cargo compile of minutes that no test hook's timeout should have to hold.
 */
export function rcodesignReady(): void {
  ensure("ensure-rcodesign.sh");
}

/** SoftHSM2's tool and library for the PKCS#11 tests and benchmarks. */
export function softhsmEnv(): void {
  const dir = ensure("ensure-softhsm.sh");
  process.env.OPSLEDGER_SOFTHSM_UTIL = path.join(dir, "bin", "softhsm2-util");
  process.env.OPSLEDGER_SOFTHSM_LIB = path.join(dir, "lib", "libsofthsm2.so");
}

/** pkcs11js is an optional dependency (users without an HSM need no compiler); this repository's tests need it built. */
export function requirePkcs11js(): void {
  const loads = (): boolean =>
    spawnSync(process.execPath, ["-e", "require('pkcs11js')"], { stdio: "ignore" }).status === 0;
  if (loads()) return;
  log("pkcs11js (optional dependency) did not build; rebuilding it to show why");
  spawnSync("npm", ["rebuild", "pkcs11js", "--foreground-scripts"], { stdio: ["ignore", process.stderr, "inherit"] });
  if (spawnSync(process.execPath, ["-e", "require('pkcs11js')"], { stdio: "inherit" }).status !== 0) {
    log("pkcs11js cannot be loaded: the PKCS#11 tests cannot run");
    throw new TaskFailed(1);
  }
}

/**
 * For `npm run sandbox`: the project's Node and Pulumi CLI directories that the user's own PATH (OPSLEDGER_USER_PATH,
 * from run.sh) lacks; the sandbox prints them as an `export PATH=...` line, so the examples' README commands work in the
 * shell that pastes its lines.
 */
export function toolPath(): void {
  const userPath = `:${process.env.OPSLEDGER_USER_PATH ?? ""}:`;
  const dirs: string[] = [];
  const nodeBin = path.dirname(process.execPath);
  if (!userPath.includes(`:${nodeBin}:`)) dirs.push(nodeBin);
  try {
    const bin = ensure("ensure-pulumi.sh");
    if (!userPath.includes(`:${bin}:`)) dirs.push(bin);
  } catch {
    // No Pulumi CLI: the sandbox runs without one; its line names only what there is.
  }
  process.env.OPSLEDGER_TOOL_PATH = dirs.join(":");
}

/** Removes what tsc compiled from a source that is gone (its .js, .js.map and .d.ts under dist/). */
export function pruneDist(root = "."): void {
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (
        entry.name.endsWith(".js") &&
        !existsSync(path.join(root, file.replace(/^dist\//, "").replace(/\.js$/, ".ts")))
      ) {
        for (const f of [file, `${file}.map`, file.replace(/\.js$/, ".d.ts")]) rmSync(f, { force: true });
      }
    }
  };
  walk("dist");
}

/**
 * The lint's examples part: type-checks examples/*\/index.ts, which resolve their imports through
 * examples/pr-preview/node_modules when it exists: test/e2e/pr-preview.test.ts runs that README's `npm ci`, so `npm test`
 * runs this part before the tests start, never while that install may be half-written.
 */
export function lintExamples(): void {
  log("tsc: the examples against the built package, as their users compile them");
  run("tsc", ["--noEmit", "-p", "examples"]);
  log("eslint examples/ (typescript-eslint strictTypeChecked)");
  run("eslint", ["--max-warnings", "0", "examples"]);
}

/** The rest of the lint (ESLint but examples/, Prettier), its output to `write`; resolves to its exit code. */
export async function lintRest(write: (text: string) => void = (t) => process.stderr.write(t)): Promise<number> {
  const step = (command: string, args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> =>
    new Promise((resolve) => {
      const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env });
      child.stdout.on("data", (b: Buffer) => {
        write(b.toString());
      });
      child.stderr.on("data", (b: Buffer) => {
        write(b.toString());
      });
      child.on("error", (e) => {
        write(`${command}: ${e.message}\n`);
      });
      child.on("close", (code) => {
        resolve(code ?? 1);
      });
    });
  const line = (message: string): void => {
    write(`[opsledger] +${String(Math.floor((Date.now() - STARTED_MS) / 1000))}s ${message}\n`);
  };
  line("eslint, all but examples/ (typescript-eslint strictTypeChecked)");
  // Typed linting of the whole repository peaked near 3.8 GB while a test imported the googleapis index (189 MB of
  // declarations); 1.4 GB and 30 core-s since (2026-11-26). The heap room stays: an out-of-memory abort under load
  // would fail the run for nothing.
  const eslintEnv = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=6144` };
  const eslint = await step("eslint", ["--max-warnings", "0", "--ignore-pattern", "examples/**", "."], eslintEnv);
  if (eslint !== 0) return eslint;
  line("prettier --check");
  return step("prettier", ["--check", ".", "--log-level", "warn"], process.env);
}
