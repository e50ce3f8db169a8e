/**
 * Benchmark of the operation waiter's polling schedule against Terraform's, on a simulated clock.
 *
 * An operation starts at t = 0 and becomes DONE after `durationS`. Both pollers start from the operation returned by
 * the mutating call (the observation at t = 0):
 * - Terraform (terraform-plugin-sdk StateChangeConf with MinTimeout 2 s, as in terraform-provider-google's compute
 *   waiter) polls immediately, then waits 2 s, 4 s, 8 s, 10 s, 10 s, ...
 * - ours is the waiter given that operation as `initial`: it skips the immediate poll and follows nextPollDelayMs
 *   with a seeded random, averaged over many seeds.
 * `polls` counts GET requests; `delayMs` is the time from DONE to the poll that sees it. Nothing is printed: the
 * caller prints the rows.
 */
import { DEFAULT_OPERATION_TIMEOUT_MS, DEFAULT_POLL_SCHEDULE, nextPollDelayMs } from "../provider/operations";
import type { PollSchedule } from "../provider/operations";

/** Operation durations of the benchmark, in seconds. */
export const DEFAULT_BENCH_DURATIONS_S: readonly number[] = [2, 10, 60, 300];
/** Seeds averaged per duration for our (jittered) schedule. */
export const DEFAULT_BENCH_SEEDS = 50;
/** The goal: at most this many times Terraform's polls... */
export const MAX_POLL_RATIO = 1.5;
/** ...while seeing DONE within this percentage of the operation's duration. */
export const MAX_DELAY_PCT = 10;

export interface PollOutcome {
  polls: number;
  delayMs: number;
}

export interface WaiterBenchRow {
  durationS: number;
  /** Averages over the seeds. */
  ours: PollOutcome;
  terraform: PollOutcome;
  /** ours.polls / terraform.polls */
  pollRatio: number;
  /** 100 * ours.delayMs / duration */
  delayPct: number;
}

export interface WaiterBenchOptions {
  /** @default DEFAULT_BENCH_DURATIONS_S */
  durationsS?: readonly number[];
  /** @default DEFAULT_BENCH_SEEDS */
  seeds?: number;
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
  timeoutMs: number = DEFAULT_OPERATION_TIMEOUT_MS,
): PollOutcome {
  let nowMs = 0;
  let polls = 0;
  for (let attempt = 0; nowMs < durationMs; attempt++) {
    const remainingMs = timeoutMs - nowMs;
    if (remainingMs <= 0) break;
    nowMs += nextPollDelayMs({ attempt, elapsedMs: nowMs, remainingMs }, schedule, random);
    polls++;
  }
  return { polls, delayMs: nowMs - durationMs };
}

export function benchWaiterSchedule(options: WaiterBenchOptions = {}): WaiterBenchRow[] {
  const durationsS = options.durationsS ?? DEFAULT_BENCH_DURATIONS_S;
  const seeds = options.seeds ?? DEFAULT_BENCH_SEEDS;
  const schedule = options.schedule ?? DEFAULT_POLL_SCHEDULE;
  return durationsS.map((durationS) => {
    const durationMs = durationS * 1000;
    let polls = 0;
    let delayMs = 0;
    for (let seed = 1; seed <= seeds; seed++) {
      const outcome = pollOurs(durationMs, seededRandom(seed), schedule);
      polls += outcome.polls;
      delayMs += outcome.delayMs;
    }
    const ours = { polls: polls / seeds, delayMs: delayMs / seeds };
    const terraform = pollTerraform(durationMs);
    return {
      durationS,
      ours,
      terraform,
      pollRatio: ours.polls / terraform.polls,
      delayPct: (100 * ours.delayMs) / durationMs,
    };
  });
}
