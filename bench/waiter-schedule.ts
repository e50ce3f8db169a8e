/**
 * Benchmark of the operation waiter's polling schedule against Terraform's, on a simulated clock, at every duration.
 *
 * `DEFAULT_BENCH_OPERATIONS` operations get durations spread log-uniformly from 1 s to 1 h (a seeded PRNG); each
 * starts at t = 0 and becomes DONE after its duration. Both pollers start from the operation returned by the mutating
 * call (the observation at t = 0) and wait without a deadline:
 * - Terraform (terraform-plugin-sdk StateChangeConf with MinTimeout 2 s, as in terraform-provider-google's compute
 *   waiter) polls immediately, then waits 2 s, 4 s, 8 s, 10 s, 10 s, ...
 * - ours is the waiter given that operation as `initial`: it follows nextPollDelayMs with a seeded random per
 *   operation (the jitter).
 * `polls` counts GET requests; the delay is the time from DONE to the poll that sees it, as a percentage of the
 * duration. The rows group the operations by duration band; nothing is printed here.
 */
import { DEFAULT_POLL_SCHEDULE, nextPollDelayMs } from "../provider/operations";
import type { PollSchedule } from "../provider/operations";

/** Operations simulated (at least 200, the goal's sample in provider/operations/schedule.ts). */
export const DEFAULT_BENCH_OPERATIONS = 240;
/** Seed of the durations and of each operation's jitter. */
export const DEFAULT_BENCH_SEED = 13;
export const MIN_DURATION_MS = 1_000;
export const MAX_DURATION_MS = 3_600_000;
/** The goals: mean detection delay at most 7% of the duration, the worst at most 15%... */
export const MAX_MEAN_DELAY_PCT = 7;
export const MAX_WORST_DELAY_PCT = 15;
/** ...with no more polls in total than Terraform's schedule. */
export const MAX_TOTAL_POLL_RATIO = 1;

/** Duration bands of the printed curve: [label, from (inclusive), to (exclusive)] in ms. */
export const DURATION_BANDS: readonly (readonly [string, number, number])[] = [
  ["1-3 s", 1_000, 3_000],
  ["3-10 s", 3_000, 10_000],
  ["10-30 s", 10_000, 30_000],
  ["30-60 s", 30_000, 60_000],
  ["1-3 min", 60_000, 180_000],
  ["3-10 min", 180_000, 600_000],
  ["10-20 min", 600_000, 1_200_000],
  ["20-60 min", 1_200_000, 3_600_001],
];

export interface PollOutcome {
  polls: number;
  delayMs: number;
}

export interface WaiterBandRow {
  band: string;
  operations: number;
  /** Mean and worst delay as a percentage of each operation's duration. */
  meanDelayPct: number;
  worstDelayPct: number;
  terraformMeanDelayPct: number;
  /** Polls of all the band's operations. */
  polls: number;
  terraformPolls: number;
}

export interface WaiterBenchResult {
  /** One row per band, then the row "all" over every operation. */
  rows: WaiterBandRow[];
  total: WaiterBandRow;
}

export interface WaiterBenchOptions {
  /** @default DEFAULT_BENCH_OPERATIONS */
  operations?: number;
  /** @default DEFAULT_BENCH_SEED */
  seed?: number;
  /** @default DEFAULT_POLL_SCHEDULE */
  schedule?: PollSchedule;
}

/** A small deterministic PRNG (mulberry32): numbers in [0, 1). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` durations spread log-uniformly over [MIN_DURATION_MS, MAX_DURATION_MS], whole milliseconds. */
export function logUniformDurationsMs(count: number, seed: number): number[] {
  const random = seededRandom(seed);
  const span = Math.log(MAX_DURATION_MS / MIN_DURATION_MS);
  return Array.from({ length: count }, () => Math.round(MIN_DURATION_MS * Math.exp(span * random())));
}

/** Terraform's StateChangeConf: an immediate poll, then waits doubling from 100 ms, clamped to [2 s, 10 s]. */
export function pollTerraform(durationMs: number): PollOutcome {
  let nowMs = 0;
  let polls = 1;
  let waitMs = 100;
  while (nowMs < durationMs) {
    waitMs = Math.min(Math.max(waitMs * 2, 2_000), 10_000);
    nowMs += waitMs;
    polls++;
  }
  return { polls, delayMs: nowMs - durationMs };
}

/** Our waiter's loop, given the operation at t = 0 as `initial` (mirrors provider/operations/waiter.ts). */
export function pollOurs(
  durationMs: number,
  random: () => number,
  schedule: PollSchedule = DEFAULT_POLL_SCHEDULE,
  timeoutMs = Infinity,
): PollOutcome {
  let nowMs = 0;
  let polls = 0;
  while (nowMs < durationMs) {
    const remainingMs = timeoutMs - nowMs;
    if (remainingMs <= 0) break;
    nowMs += nextPollDelayMs({ elapsedMs: nowMs, remainingMs }, schedule, random);
    polls++;
  }
  return { polls, delayMs: nowMs - durationMs };
}

function summarize(
  band: string,
  runs: readonly { durationMs: number; ours: PollOutcome; terraform: PollOutcome }[],
): WaiterBandRow {
  const pct = (outcome: PollOutcome, durationMs: number): number => (100 * outcome.delayMs) / durationMs;
  const mean = (values: readonly number[]): number =>
    values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
  return {
    band,
    operations: runs.length,
    meanDelayPct: mean(runs.map((r) => pct(r.ours, r.durationMs))),
    worstDelayPct: Math.max(0, ...runs.map((r) => pct(r.ours, r.durationMs))),
    terraformMeanDelayPct: mean(runs.map((r) => pct(r.terraform, r.durationMs))),
    polls: runs.reduce((n, r) => n + r.ours.polls, 0),
    terraformPolls: runs.reduce((n, r) => n + r.terraform.polls, 0),
  };
}

export function benchWaiterSchedule(options: WaiterBenchOptions = {}): WaiterBenchResult {
  const seed = options.seed ?? DEFAULT_BENCH_SEED;
  const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
  const runs = logUniformDurationsMs(options.operations ?? DEFAULT_BENCH_OPERATIONS, seed).map((durationMs, i) => ({
    durationMs,
    ours: pollOurs(durationMs, seededRandom(seed * 1_000_003 + i), schedule),
    terraform: pollTerraform(durationMs),
  }));
  return {
    rows: DURATION_BANDS.map(([band, from, to]) =>
      summarize(
        band,
        runs.filter((r) => r.durationMs >= from && r.durationMs < to),
      ),
    ),
    total: summarize("all", runs),
  };
}
