/**
 * kill -9 of a running `pulumi` command's processes, chosen by role: the CLI itself, the language host with the
 * program it runs (a YAML program runs inside its language host), the provider (the dynamic-provider plugin, or the
 * resource plugin pulumi-resource-opsledger), or all of them. The kill is synchronous (a read of /proc, then SIGKILL),
 * so a test can kill from inside a sandbox listener at the exact moment a point is reached; what it returns can then be
 * awaited until every killed process is gone. A signal is delivered asynchronously: a SIGKILLed multi-threaded Node
 * process takes a moment to tear down (longer on a loaded machine), and a SIGSTOPped one to stop, so no test reads a
 * process's state right after signalling it — it waits, bounded, for the state it expects (`waitGone`,
 * `waitStopped`).
 *
 * A process is identified by its pid and its start time (/proc/<pid>/stat field 22), so a pid the kernel has since
 * given to another process never counts as the one that was killed.
 */
import { readdirSync, readFileSync } from "node:fs";
import { waitFor } from "./wait-for";

export interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly args: string;
  /** When the process started, in clock ticks since boot: with the pid, its identity. */
  readonly startTime: string;
}

/**
 * What a `pulumi` command runs: the CLI; the language host and the program (Node.js: pulumi-language-nodejs and the
 * node running the program; YAML: pulumi-language-yaml alone); the provider (the dynamic-provider plugin's launcher
 * script and its node, or pulumi-resource-opsledger's one process: the executable, `<path>/pulumi-resource-opsledger
 * <engine address>`, or the script's node, whose wrapper's `#!/usr/bin/env node` execs node).
 */
export type ProcessRole = "cli" | "program" | "provider";

/** Which processes to kill. */
export type KillTarget = "tree" | ProcessRole;

/** How long a wait for a signalled process to reach its state lasts before it fails naming the processes. */
export const DEFAULT_SIGNAL_WAIT_MS = 30_000;

interface Stat {
  readonly ppid: number;
  /** R, S, D, T, t, Z, X... (proc(5)). */
  readonly state: string;
  readonly startTime: string;
}

/** /proc/<pid>/stat's state, parent and start time, or undefined when there is no such process. */
function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${String(pid)}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself: fields 3 on follow the last ')'.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  return { state: fields[0] ?? "?", ppid: Number(fields[1]), startTime: fields[19] ?? "" };
}

function argsOf(pid: number): string {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, "utf8")
      .replace(/\0+$/, "")
      .replaceAll("\0", " ");
  } catch {
    return "";
  }
}

function processes(): Proc[] {
  const found: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const stat = statOf(pid);
    if (stat === undefined) continue; // it ended while we listed
    found.push({ pid, ppid: stat.ppid, args: argsOf(pid), startTime: stat.startTime });
  }
  return found;
}

/** The process with pid `pid` now, or undefined when there is none. */
export function processOf(pid: number): Proc | undefined {
  const stat = statOf(pid);
  return stat === undefined ? undefined : { pid, ppid: stat.ppid, args: argsOf(pid), startTime: stat.startTime };
}

/** The process and all its descendants, the root first. */
export function processTree(rootPid: number): Proc[] {
  const all = processes();
  const root = all.find((p) => p.pid === rootPid);
  if (!root) return [];
  const found = [root];
  for (let i = 0; i < found.length; i++) {
    for (const child of all.filter((p) => p.ppid === found[i]?.pid)) found.push(child);
  }
  return found;
}

/** The role of a process under a `pulumi` command. */
export function roleOf(p: Proc, cliPid: number): ProcessRole | undefined {
  if (p.pid === cliPid) return "cli";
  if (/pulumi-language-(nodejs|yaml|python)|[\\/]cmd[\\/]run[\\/]index\.js/.test(p.args)) return "program";
  if (/pulumi-resource-(pulumi-nodejs|opsledger)|[\\/]cmd[\\/]dynamic-provider[\\/]index\.js/.test(p.args)) {
    return "provider";
  }
  return undefined;
}

/**
 * The state of `p` now (proc(5): R, S, D, T, t, Z...), or "gone" when no process has its pid, or the process with its
 * pid is another one (a later start time).
 */
export function stateOf(p: Proc): string {
  const stat = statOf(p.pid);
  return stat === undefined || stat.startTime !== p.startTime ? "gone" : stat.state;
}

/** Whether `p` (or the process with pid `p`) still runs: a zombie, or a pid now held by another process, is gone. */
export function isRunning(p: Proc | number): boolean {
  const state = typeof p === "number" ? (statOf(p)?.state ?? "gone") : stateOf(p);
  return !["gone", "Z", "X"].includes(state);
}

function listing(procs: readonly Proc[]): string {
  return procs.map((p) => `pid ${String(p.pid)} state ${stateOf(p)} (${p.args.slice(0, 120)})`).join("; ");
}

async function waitState(
  procs: readonly Proc[],
  reached: (p: Proc) => boolean,
  what: string,
  timeoutMs: number,
): Promise<void> {
  await waitFor({
    what,
    read: () => procs.filter((p) => !reached(p)),
    until: (left) => left.length === 0,
    show: listing,
    timeoutMs,
  });
}

/** Resolves once every process of `procs` has exited or is a zombie; fails after `timeoutMs` naming those that are not. */
export function waitGone(procs: readonly Proc[], timeoutMs: number = DEFAULT_SIGNAL_WAIT_MS): Promise<void> {
  return waitState(procs, (p) => !isRunning(p), "the killed processes to exit", timeoutMs);
}

/**
 * Blocks (the whole event loop) until every process of `procs` has exited or is a zombie: for a kill from inside a
 * listener whose server must not answer before the test has looked. Fails after `timeoutMs` naming those that are not.
 */
export function waitGoneBlocking(procs: readonly Proc[], timeoutMs: number = DEFAULT_SIGNAL_WAIT_MS): void {
  const deadline = Date.now() + timeoutMs;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    const left = procs.filter((p) => isRunning(p));
    if (left.length === 0) return;
    if (Date.now() >= deadline)
      throw new Error(
        `timed out after ${String(timeoutMs)} ms waiting for the killed processes to exit: ${listing(left)}`,
      );
    Atomics.wait(pause, 0, 0, 10);
  }
}

/** Resolves once every process of `procs` is stopped (state T); fails if one is gone, or after `timeoutMs`. */
export async function waitStopped(procs: readonly Proc[], timeoutMs: number = DEFAULT_SIGNAL_WAIT_MS): Promise<void> {
  await waitState(
    procs,
    (p) => {
      const state = stateOf(p);
      if (state === "gone" || state === "Z") throw new Error(`a process to be stopped ended instead: ${listing([p])}`);
      return state === "T";
    },
    "the processes to stop (state T)",
    timeoutMs,
  );
}

/** Sends `signal` to each process that is still the one listed (a pid given to another process is left alone). */
export function signal(procs: readonly Proc[], name: NodeJS.Signals): void {
  for (const p of procs) {
    if (stateOf(p) === "gone") continue;
    try {
      process.kill(p.pid, name);
    } catch {
      // Ended meanwhile.
    }
  }
}

/** What killCommand did. */
export interface Killed {
  /** The processes SIGKILLed, as they were listed just before. */
  readonly killed: Proc[];
  /** The command's other processes, as they were listed just before the kill (read them again to know their state). */
  readonly survivors: Proc[];
  /** Resolves once every killed process has exited or is a zombie (bounded: it fails naming those that are not). */
  gone(timeoutMs?: number): Promise<void>;
}

/** SIGKILLs the chosen processes of the command whose CLI is `cliPid`. */
export function killCommand(cliPid: number, target: KillTarget): Killed {
  const tree = processTree(cliPid);
  const chosen = tree.filter((p) => target === "tree" || roleOf(p, cliPid) === target);
  signal(chosen, "SIGKILL");
  return {
    killed: chosen,
    survivors: tree.filter((p) => !chosen.includes(p)),
    gone: (timeoutMs) => waitGone(chosen, timeoutMs),
  };
}
