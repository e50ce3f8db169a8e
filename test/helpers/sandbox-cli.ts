/**
 * `npm run sandbox` as a user starts it, from a shell with only what a user has (userBaseEnv), and the environment
 * that shell has after pasting the `export` lines it prints.
 */
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import * as os from "node:os";
import { REPO_ROOT } from "./project-stack";
import { waitFor } from "./wait-for";

/**
 * A user's login shell, not the test runner's: HOME (where `npm run build` left the project's Node and Pulumi CLI in
 * its cache) and the system PATH, without the project's Node, Pulumi or node_modules/.bin. Kept besides: the
 * machine's TLS trust settings (its users' shells have them: npm reaches the registry through them here), where this
 * offline machine takes release archives from, and a cache directory set for the run (a user has neither).
 */
export function userBaseEnv(): Record<string, string> {
  const machine = ["NODE_EXTRA_CA_CERTS", "SSL_CERT_FILE", "SSL_CERT_DIR"];
  const kept = [...machine, "OPSLEDGER_RELEASE_MIRROR", "OPSLEDGER_CACHE_DIR"].flatMap((k) => {
    const v = process.env[k];
    return v === undefined ? [] : [[k, v] as const];
  });
  return { HOME: os.homedir(), PATH: "/usr/local/bin:/usr/bin:/bin", ...Object.fromEntries(kept) };
}

export interface SandboxCli {
  readonly child: ChildProcess;
  /** The shell's environment before the pasted lines (userBaseEnv). */
  readonly base: Record<string, string>;
  /** The variables the printed `export` lines set or change, as bash evaluates them over `process.env`. */
  readonly env: Record<string, string>;
  /** The Google sandbox's base URL (its control plane is under `/_sandbox/`). */
  readonly url: string;
  /** Everything it printed. */
  readonly output: string;
  /** Stops it as Ctrl+C does. */
  stop(): void;
}

/** What bash has after running `exportLines` over `base`: only the variables they set or changed. */
export function evaluateExports(exportLines: string, base: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const dump = execFileSync("bash", ["-c", `${exportLines}\nenv -0`], { env: base, encoding: "utf8" });
  const after = Object.fromEntries(
    dump
      .split("\0")
      .filter((entry) => entry.includes("="))
      .map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
  );
  return Object.fromEntries(Object.entries(after).filter(([k, v]) => base[k] !== v && k !== "_" && k !== "SHLVL"));
}

/** Starts `npm run sandbox` in the repository from a user's shell; resolves once it has printed its settings. */
export async function startSandboxCli(): Promise<SandboxCli> {
  const base = userBaseEnv();
  const child = spawn("npm", ["run", "--silent", "sandbox"], {
    cwd: REPO_ROOT,
    env: base,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
  await waitFor({
    what: "npm run sandbox to print its settings",
    read: () => out,
    until: (printed) => printed.includes("Press Ctrl+C to stop."),
    timeoutMs: 180_000,
  });
  const exportLines = out
    .split("\n")
    .filter((line) => line.startsWith("export "))
    .join("\n");
  return {
    child,
    base,
    env: evaluateExports(exportLines, base),
    url: /Google sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? "",
    output: out,
    stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGINT");
    },
  };
}
