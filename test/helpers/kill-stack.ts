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

/**
 * kill -9 of the `pulumi up` of the given stack: `cliOnly` kills just the CLI (its provider processes are orphaned
 * and may finish their calls, as after a user's kill of the CLI); otherwise the CLI and every descendant (as after a
 * crash of the machine running it). Returns the pids killed.
 */
export function killPulumiUp(stackName: string, mode: "tree" | "cliOnly"): number[] {
  const all = processes();
  const cli = all.find(
    (p) => / up /.test(p.args) && p.args.includes(`--stack ${stackName}`) && !p.args.includes("ps -eo"),
  );
  if (!cli) throw new Error(`no running 'pulumi up' for stack ${stackName}`);
  const victims = [cli.pid];
  if (mode === "tree") {
    for (let i = 0; i < victims.length; i++) {
      for (const child of all.filter((p) => p.ppid === victims[i])) victims.push(child.pid);
    }
  }
  for (const pid of victims) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
  return victims;
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
