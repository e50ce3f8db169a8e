/**
 * kill -9 of a running `pulumi` command's processes, chosen by role: the CLI itself, the language host with the
 * program it runs, the dynamic-provider plugin, or all of them. Synchronous (ps, then SIGKILL), so a test can kill from
 * inside a sandbox listener at the exact moment a point is reached.
 */
import { execFileSync } from "node:child_process";

export interface Proc {
  readonly pid: number;
  readonly ppid: number;
  readonly args: string;
}

/** What a `pulumi` command runs: the CLI; the language host and the program; the dynamic provider. */
export type ProcessRole = "cli" | "program" | "provider";

/** Which processes to kill. */
export type KillTarget = "tree" | ProcessRole;

function processes(): Proc[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? "" }));
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
  if (/pulumi-language-nodejs|[\\/]cmd[\\/]run[\\/]index\.js/.test(p.args)) return "program";
  if (/pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider[\\/]index\.js/.test(p.args)) return "provider";
  return undefined;
}

/**
 * SIGKILLs the chosen processes of the command whose CLI is `cliPid`. Returns what was killed and what was left
 * running under it (after a kill of the CLI alone, its children live on as orphans).
 */
export function killCommand(cliPid: number, target: KillTarget): { killed: Proc[]; survivors: Proc[] } {
  const tree = processTree(cliPid);
  const chosen = tree.filter((p) => target === "tree" || roleOf(p, cliPid) === target);
  for (const p of chosen) {
    try {
      process.kill(p.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return { killed: chosen, survivors: tree.filter((p) => !chosen.includes(p)) };
}

/** Whether a process is still running (a zombie counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const stat = execFileSync("ps", ["-o", "stat=", "-p", String(pid)], { encoding: "utf8" }).trim();
    return stat !== "" && !stat.startsWith("Z");
  } catch {
    return false; // ps exits 1 when there is no such process
  }
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
