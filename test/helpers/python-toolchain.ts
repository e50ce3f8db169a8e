/**
 * Python for the tests of Python programs: the virtualenv scripts/ensure-python.sh provides (the machine's CPython,
 * `pulumi` at the CLI's version and pytest from PyPI, cached), with sdk/python installed as a user installs it when
 * asked. The CLI's Python language host runs the `python3` first on PATH.
 */
import { execFileSync, spawn } from "node:child_process";
import * as path from "node:path";
import { ENDPOINT_ENV_NAMES } from "../../sandbox/cli";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT } from "./project-stack";

const cached = new Map<string, string>();

/**
 * The bin directory of the project's virtualenv; with `sdk`, the one that also holds sdk/python (pip install
 * ./sdk/python); with `googleClients`, the one with Google's Python clients. Its progress goes to this process's stderr.
 */
export function pythonBinDir(options: { sdk?: boolean; googleClients?: boolean } = {}): string {
  const args = options.sdk === true ? ["--sdk"] : options.googleClients === true ? ["--google-clients"] : [];
  const key = args.join(" ");
  let dir = cached.get(key);
  if (dir === undefined) {
    dir = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-python.sh"), ...args], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    cached.set(key, dir);
  }
  return dir;
}

/** Python's environment for a child process: no byte-code caches written into the work tree. */
export function pythonEnv(binDir: string, env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: `${binDir}:${env["PATH"] ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" };
}

/**
 * examples/python's stack environment: the virtualenv with pulumi and sdk/python first on PATH (the Python language
 * host runs its `python3`), and the sandbox's endpoints: the program's explicit provider takes no stack config (only
 * its own inputs and the environment), so they reach it as `npm run sandbox`'s export lines give them (without them it
 * called Google).
 */
export function pythonExampleEnv(sandbox: GoogleSandbox): Record<string, string> {
  const env = pythonEnv(pythonBinDir({ sdk: true }));
  return {
    PATH: env["PATH"] ?? "",
    PYTHONDONTWRITEBYTECODE: "1",
    ...Object.fromEntries(ENDPOINT_ENV_NAMES.map(([name, key]) => [name, sandbox.endpoints[key]])),
  };
}

/** Runs `command args` in `cwd` under `env`; resolves with its exit code and its stdout and stderr together. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, output });
    });
  });
}
