/**
 * An example README's commands as a user runs them: the ```sh block its `<!-- readme-commands: ... -->` marker names,
 * run with bash in the example's directory, exactly as printed, in a user's shell (only HOME and the system PATH:
 * not the test runner's PATH with the project's Node and Pulumi) that pasted the `export` lines of `npm run sandbox`
 * and has a fresh HOME (the blocks keep their local backend under `$HOME/.pulumi-local`).
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheDir } from "../../scripts/lib/run-steps";
import { goCaches } from "./go-toolchain";
import { exampleDir, stripAnsi } from "./project-stack";
import type { SandboxCli } from "./sandbox-cli";

const MARKER = "readme-commands";

/** The ```sh block that follows the README's `<!-- marker: ... -->`, or undefined when it has none. */
export function readmeCommands(readme: string, marker = MARKER): string | undefined {
  const at = readme.indexOf(`<!-- ${marker}:`);
  if (at < 0) return undefined;
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block?.[1], "a ```sh block follows the readme-commands marker");
  return block[1];
}

/**
 * The user's shell: what `npm run sandbox` was started from (sandbox-cli.ts userBaseEnv: HOME and the system PATH),
 * then the pasted lines — the `export PATH=...` line among them is all that puts Node and Pulumi on PATH.
 */
export function userShellEnv(sandbox: SandboxCli): NodeJS.ProcessEnv {
  return {
    ...sandbox.base,
    ...sandbox.env,
    // This machine is offline: the CLI must not look for updates or download plugins (a user's machine would).
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    // The fresh HOME keeps npm's cache where it was (examples/pr-preview runs `npm ci`), and Go's module and build
    // caches where Go keeps them for the user (examples/go builds against them; go-toolchain.ts).
    npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
    ...goCaches(),
    // And the project's and pip's caches where they were: examples/python's block makes its virtualenv through
    // scripts/ensure-python.sh once, not with every fresh HOME.
    OPSLEDGER_CACHE_DIR: cacheDir(),
    PIP_CACHE_DIR: process.env["PIP_CACHE_DIR"] ?? path.join(os.homedir(), ".cache", "pip"),
  };
}

/**
 * The shell of a user who ran `npm run fabric:up` and reads a README block against that network: this process's
 * environment without Pulumi's and Google's variables, with the project's Pulumi CLI and Node.js first on PATH.
 */
export function fabricUserEnv(pulumiBin: string): NodeJS.ProcessEnv {
  const user = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_") && !k.startsWith("GOOGLE_")),
  );
  return {
    ...user,
    PATH: [pulumiBin, path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
}

export interface ReadmeRunOptions {
  /** The marker naming the block. @default "readme-commands" */
  readonly marker?: string;
  /** What the user types in place of the block's lines (a line that says to paste something, say). */
  readonly edit?: (block: string) => string;
  /** The stack the block creates and removes again. @default "dev" */
  readonly stack?: string;
}

/**
 * Runs `commands` with `bash -e -o pipefail` in `cwd` under `env` (HOME as `env` has it); fails the test (with the
 * commands and their output) unless it exits 0, and resolves with the output, colour codes stripped.
 */
export async function runShell(commands: string, cwd: string, env: NodeJS.ProcessEnv, what: string): Promise<string> {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", commands], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
    child.on("error", reject);
    child.on("close", (exitCode) => {
      resolve({ code: exitCode, output: stripAnsi(out) });
    });
  });
  assert.equal(code, 0, `${what}: the commands failed:\n${commands}\n--- output ---\n${output}`);
  return output;
}

/** How many `pulumi preview` commands `commands` runs. */
export function previewLines(commands: string): number {
  return commands.match(/\bpulumi preview\b/g)?.length ?? 0;
}

/**
 * How many preview passes the CLI's `output` shows (the engine's "Previewing update|refresh|destroy (<stack>)"
 * header). A block's `--yes --skip-preview` lines print none, so this equals {@link previewLines} of the block.
 */
export function previewPasses(output: string): number {
  return output.match(/^\s*Previewing (?:update|refresh|destroy) \(/gm)?.length ?? 0;
}

/**
 * Runs examples/<name>/README.md's marked block with `bash -e -o pipefail` under `env` and a fresh HOME inside `tmp`;
 * fails the test (with the commands and their output) unless it exits 0 with one preview pass per `pulumi preview`
 * line (the block's `up`, `refresh` and `destroy` lines skip theirs), and resolves with the output.
 */
export async function runReadmeCommands(
  name: string,
  env: NodeJS.ProcessEnv,
  tmp: string,
  options: ReadmeRunOptions = {},
): Promise<string> {
  const marked = readmeCommands(fs.readFileSync(path.join(exampleDir(name), "README.md"), "utf8"), options.marker);
  assert.ok(marked, `examples/${name}/README.md marks a block of commands (${options.marker ?? MARKER})`);
  const commands = options.edit?.(marked) ?? marked;
  const home = fs.mkdtempSync(path.join(tmp, `${name}-home-`));
  const output = await runShell(commands, exampleDir(name), { ...env, HOME: home }, `examples/${name} README`);
  assert.equal(
    previewPasses(output),
    previewLines(commands),
    `examples/${name}: one preview pass per preview line:\n${output}`,
  );
  const stackFile = `Pulumi.${options.stack ?? "dev"}.yaml`;
  assert.ok(!fs.existsSync(path.join(exampleDir(name), stackFile)), "`pulumi stack rm` removed its file");
  return output;
}
