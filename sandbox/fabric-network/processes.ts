/**
 * The network's long-running processes (orderers, peers, chaincode servers): started detached in their own session
 * with stdout and stderr appended to their log file, found again by pid, and stopped only after /proc/<pid>/cmdline
 * shows the very command that was started (a pid the kernel has since given to another program is left alone).
 * Also runs the one-shot tools (cryptogen, configtxgen, osnadmin, the peer CLI) with their output captured.
 */
import { execFile, spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";
import type { FabricProcessRecord } from "./types";

/** How long a stopped process gets after SIGTERM before SIGKILL. */
export const DEFAULT_STOP_GRACE_MS = 10_000;

/** Variables Fabric's binaries and the chaincode shim read; none is inherited from the caller's environment. */
const FABRIC_ENV = /^(CORE_|ORDERER_|FABRIC_|CHAINCODE_|OSNADMIN_|CONFIGTX_)/;

/** The caller's environment without Fabric settings, plus `extra`. */
export function cleanEnvironment(extra: Readonly<Record<string, string>>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!FABRIC_ENV.test(key)) env[key] = value;
  return { ...env, ...extra };
}

export interface Started {
  readonly pid: number;
  /** Resolves with the exit code (or the signal's name) when the process ends. */
  readonly exited: Promise<number | string>;
}

/** Starts `record`'s command detached (own session, no controlling terminal), output appended to its log. */
export function startDetached(record: Omit<FabricProcessRecord, "pid">): Started {
  const [file, ...args] = record.command;
  if (file === undefined) throw new Error(`${record.name}: empty command`);
  const log = openSync(record.log, "a");
  try {
    const child = spawn(file, args, {
      cwd: record.cwd,
      env: cleanEnvironment(record.env),
      detached: true,
      stdio: ["ignore", log, log],
    });
    const exited = new Promise<number | string>((resolve) => {
      child.once("exit", (code, signal) => {
        resolve(code ?? signal ?? "unknown");
      });
      child.once("error", (e) => {
        resolve(`spawn error: ${e.message}`);
      });
    });
    child.unref();
    if (child.pid === undefined) throw new Error(`${record.name}: could not start ${file}`);
    return { pid: child.pid, exited };
  } finally {
    closeSync(log);
  }
}

/** The argv of a live process, or undefined when there is none (or only a zombie) with that pid. */
export function commandLineOf(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
    if (state === "Z" || state === "X") return undefined;
    const raw = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    return raw.endsWith("\0") ? raw.slice(0, -1).split("\0") : raw.split("\0");
  } catch {
    return undefined;
  }
}

/** Whether the recorded pid runs the recorded command now. */
export function isRunning(record: Pick<FabricProcessRecord, "pid" | "command">): boolean {
  if (record.pid === null) return false;
  const argv = commandLineOf(record.pid);
  return argv !== undefined && argv.length === record.command.length && argv.every((a, i) => a === record.command[i]);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves once `pid` no longer runs (exited, or a zombie); false if it still runs after `timeoutMs`. */
async function waitGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  let pause = 10;
  while (commandLineOf(pid) !== undefined) {
    if (Date.now() >= deadline) return false;
    await delay(pause);
    pause = Math.min(pause * 2, 100);
  }
  return true;
}

/**
 * Stops the recorded process: `signal` (SIGTERM by default), then SIGKILL after `graceMs`. Does nothing when the
 * pid is gone or runs another command. Resolves to what was done.
 */
export async function stopRecorded(
  record: Pick<FabricProcessRecord, "name" | "pid" | "command">,
  signal: NodeJS.Signals = "SIGTERM",
  graceMs: number = DEFAULT_STOP_GRACE_MS,
): Promise<"stopped" | "not running" | "pid reused"> {
  if (record.pid === null || commandLineOf(record.pid) === undefined) return "not running";
  if (!isRunning(record)) return "pid reused";
  try {
    process.kill(record.pid, signal);
  } catch {
    return "not running";
  }
  if (await waitGone(record.pid, signal === "SIGKILL" ? 30_000 : graceMs)) return "stopped";
  if (!isRunning(record)) return "stopped";
  process.kill(record.pid, "SIGKILL");
  if (!(await waitGone(record.pid, 30_000))) throw new Error(`${record.name} (pid ${record.pid}) survived SIGKILL`);
  return "stopped";
}

/** A failed one-shot command: its command line and everything it printed. */
export class FabricCommandError extends Error {
  constructor(
    readonly command: readonly string[],
    readonly output: string,
    readonly exitCode: number | string | undefined,
  ) {
    super(`${command.join(" ")} failed (${String(exitCode)}):\n${output.trim()}`);
    this.name = "FabricCommandError";
  }
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
  /** @default 120000 */
  readonly timeoutMs?: number;
}

/** Runs a tool to completion; resolves with stdout and stderr, or rejects with FabricCommandError. */
export function runTool(
  command: readonly string[],
  options: RunOptions = {},
): Promise<{ stdout: string; stderr: string }> {
  const [file, ...args] = command;
  if (file === undefined) return Promise.reject(new Error("empty command"));
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      {
        env: cleanEnvironment(options.env ?? {}),
        cwd: options.cwd,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        if (error === null) resolve({ stdout, stderr });
        else {
          const code = typeof error.code === "number" ? error.code : (error.signal ?? error.code ?? undefined);
          reject(new FabricCommandError(command, `${stdout}${stderr}`, code));
        }
      },
    );
  });
}

/** The last `lines` lines of a log file (for error messages), or "" when it cannot be read. */
export function logTail(path: string, lines = 20): string {
  try {
    return readFileSync(path, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
