/**
 * `npm run sandbox` as a user starts it, and the environment a shell has after pasting the `export` lines it prints.
 */
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { REPO_ROOT } from "./project-stack";
import { waitFor } from "./kill-stack";

export interface SandboxCli {
  readonly child: ChildProcess;
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

/** Starts `npm run sandbox` in the repository; resolves once it has printed its settings. */
export async function startSandboxCli(): Promise<SandboxCli> {
  const child = spawn("npm", ["run", "--silent", "sandbox"], {
    cwd: REPO_ROOT,
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
  await waitFor(() => out.includes("Press Ctrl+C to stop."), 180_000, `npm run sandbox to print its settings:\n${out}`);
  const exportLines = out
    .split("\n")
    .filter((line) => line.startsWith("export "))
    .join("\n");
  return {
    child,
    env: evaluateExports(exportLines),
    url: /Google sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? "",
    output: out,
    stop() {
      if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGINT");
    },
  };
}
