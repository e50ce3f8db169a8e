/**
 * Peak memory of a process tree, read from Linux's /proc while it runs.
 *
 * `VmHWM` in /proc/<pid>/status is the kernel's high-water mark of the process's resident set: it never decreases, so
 * the last sample taken before a process exits holds its peak up to that moment (growth in the last interval, at
 * most `intervalMs`, can be missed). The sampler walks the tree below a root pid through
 * /proc/<pid>/task/<tid>/children on every tick and keeps, per process, the highest VmHWM seen and its command line.
 * Callers pick the processes they care about by command line (the dynamic-provider host runs
 * `node .../@pulumi/pulumi/cmd/dynamic-provider/index.js`).
 *
 * It also keeps each process's CPU time (user + system, fields 14 and 15 of /proc/<pid>/stat, in clock ticks of
 * `getconf CLK_TCK`) as of its last sample: a figure the machine's load barely moves, where wall-clock time does
 * (up to `intervalMs` of a process's last CPU time can be missed).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";

/** Time between two samples. */
export const DEFAULT_SAMPLE_INTERVAL_MS = 100;

export interface SampledProcess {
  readonly pid: number;
  /** The command line, arguments joined by spaces. */
  readonly command: string;
  /** The highest VmHWM seen, in KiB. */
  readonly peakKb: number;
  /** User + system CPU time at the last sample, milliseconds. */
  readonly cpuMs: number;
}

export interface ProcessTreeSampler {
  /** Stops sampling (after one last sample) and returns every process seen below the root, the root included. */
  stop(): SampledProcess[];
}

function read(file: string): string | undefined {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return undefined; // the process exited between two reads
  }
}

/** The pids of the process's children (every thread's children). */
function childrenOf(pid: number): number[] {
  let tasks: string[];
  try {
    tasks = fs.readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return tasks.flatMap((tid) =>
    (read(`/proc/${pid}/task/${tid}/children`) ?? "")
      .split(" ")
      .filter((s) => s !== "")
      .map(Number),
  );
}

/** VmHWM of a process in KiB, or undefined once it is gone. */
export function peakResidentKb(pid: number | "self"): number | undefined {
  const m = /^VmHWM:\s+(\d+) kB$/m.exec(read(`/proc/${pid}/status`) ?? "");
  return m?.[1] === undefined ? undefined : Number(m[1]);
}

let ticksPerSecond: number | undefined;

/** User + system CPU time of a process in milliseconds, or undefined once it is gone. */
export function cpuTimeMs(pid: number): number | undefined {
  const stat = read(`/proc/${String(pid)}/stat`);
  if (stat === undefined) return undefined;
  // The command name (field 2) is in parentheses and may hold spaces: count the fields after its closing one.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  ticksPerSecond ??= Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Starts sampling the tree below `rootPid` at once and then every `intervalMs`. */
export function sampleProcessTree(rootPid: number, intervalMs = DEFAULT_SAMPLE_INTERVAL_MS): ProcessTreeSampler {
  const seen = new Map<number, { command: string; peakKb: number; cpuMs: number }>();
  const sample = (): void => {
    const pending = [rootPid];
    for (let pid = pending.pop(); pid !== undefined; pid = pending.pop()) {
      const kb = peakResidentKb(pid);
      if (kb === undefined) continue;
      const cpuMs = cpuTimeMs(pid) ?? 0;
      const known = seen.get(pid);
      if (known === undefined) {
        const command = (read(`/proc/${pid}/cmdline`) ?? "").split("\0").join(" ").trim();
        seen.set(pid, { command, peakKb: kb, cpuMs });
      } else {
        known.peakKb = Math.max(known.peakKb, kb);
        known.cpuMs = Math.max(known.cpuMs, cpuMs);
      }
      pending.push(...childrenOf(pid));
    }
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    stop() {
      sample();
      clearInterval(timer);
      return [...seen].map(([pid, p]) => ({ pid, command: p.command, peakKb: p.peakKb, cpuMs: p.cpuMs }));
    },
  };
}
