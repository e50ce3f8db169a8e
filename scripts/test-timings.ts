/**
 * Prints where a test run's time went: `node dist/scripts/test-timings.js <file>` reads the JSON lines that
 * test/helpers/root-hooks.ts writes per spec file (OPSLEDGER_TEST_TIMINGS) and prints the sum per tier and the
 * slowest files. scripts/run-tests.ts calls it after mocha, so every CI log carries the table.
 */
import { readFileSync } from "node:fs";

interface Timing {
  readonly file: string;
  /** When the file's first hook ran (epoch ms); absent in lines from before it was recorded. */
  readonly startedAt?: number;
  readonly ms: number;
}

export function summarize(lines: readonly Timing[], top = 15): string {
  const tiers = new Map<string, number>();
  for (const t of lines) {
    const tier = /test\/(unit|integration|e2e)\//.exec(t.file)?.[1] ?? "other";
    tiers.set(tier, (tiers.get(tier) ?? 0) + t.ms);
  }
  const total = lines.reduce((sum, t) => sum + t.ms, 0);
  const s = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
  const out = [`test time summed over the workers: ${s(total)} in ${lines.length} files`];
  for (const [tier, ms] of [...tiers].sort((a, b) => b[1] - a[1])) out.push(`  ${tier.padEnd(12)} ${s(ms)}`);
  out.push(`slowest files:`);
  for (const t of [...lines].sort((a, b) => b.ms - a.ms).slice(0, top)) out.push(`  ${s(t.ms).padStart(9)}  ${t.file}`);
  out.push(...lastToFinish(lines));
  return out.join("\n");
}

/**
 * The files that finished last, with their start and end counted from the first file's start: the tail of a run,
 * where fewer files than workers are left and a core may idle (test/slowest-first.txt is ordered to keep it short).
 */
function lastToFinish(lines: readonly Timing[], count = 6): string[] {
  const timed = lines.filter((t): t is Timing & { startedAt: number } => t.startedAt !== undefined);
  if (timed.length === 0) return [];
  const origin = Math.min(...timed.map((t) => t.startedAt));
  const at = (ms: number): string => `+${Math.round((ms - origin) / 1000)} s`;
  const out = ["last to finish (start → end, from the first file's start):"];
  for (const t of [...timed].sort((a, b) => b.startedAt + b.ms - (a.startedAt + a.ms)).slice(0, count)) {
    out.push(`  ${at(t.startedAt).padStart(7)} → ${at(t.startedAt + t.ms).padEnd(7)}  ${t.file}`);
  }
  return out;
}

if (require.main === module) {
  const file = process.argv[2];
  if (file === undefined) {
    console.error("usage: node dist/scripts/test-timings.js <timings.jsonl>");
    process.exit(2);
  }
  const lines = readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Timing);
  if (lines.length > 0) console.log(summarize(lines));
}
