/** Finds and SIGKILLs the `pulumi up` process of a stack (and optionally its whole process tree). */
import { execFileSync } from "node:child_process";

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processes(): Proc[] {
  return execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? "" }));
}

/** The pids of every descendant of `pid`. */
function descendants(all: readonly Proc[], pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    for (const child of all.filter((p) => p.ppid === found[i])) found.push(child.pid);
  }
  return found.slice(1);
}

/**
 * kill -9 of the `pulumi up` of the given stack: `cliOnly` kills just the CLI (its provider processes are orphaned
 * and may finish their calls, as after a user's kill of the CLI); otherwise the CLI and every descendant (as after a
 * crash of the machine running it). Returns the pids killed and the pids left orphaned.
 */
export function killPulumiUp(stackName: string, mode: "tree" | "cliOnly"): { killed: number[]; orphaned: number[] } {
  const all = processes();
  const cli = all.find(
    (p) => / up /.test(p.args) && p.args.includes(`--stack ${stackName}`) && !p.args.includes("ps -eo"),
  );
  if (!cli) throw new Error(`no running 'pulumi up' for stack ${stackName}`);
  const below = descendants(all, cli.pid);
  const killed = mode === "tree" ? [cli.pid, ...below] : [cli.pid];
  for (const pid of killed) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return { killed, orphaned: mode === "tree" ? [] : below };
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
