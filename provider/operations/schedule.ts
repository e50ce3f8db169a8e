/**
 * The polling schedule of the operation waiter: exponential backoff, a cap that grows with the time already waited,
 * upward jitter, and the server's recommended interval as a floor. Pure: `nextPollDelayMs` takes the random number
 * as an argument, so tests and the bench (bench/waiter-schedule.ts) can replay it exactly.
 *
 * Why these defaults. The goal, measured by the bench against operations that finish after 2 s, 10 s, 60 s and
 * 300 s: see the DONE status within 10% of the operation's duration, using at most 1.5x the polls of Terraform's
 * schedule (an immediate poll, then waits of 2 s, 4 s, 8 s, 10 s, 10 s, ...). Terraform is slow to notice short
 * operations (a 10 s operation is seen at 14 s) and polls a long one every 10 s forever.
 * - Detection delay is at most one interval, so intervals must stay a fixed fraction of the time already waited:
 *   that is the growing cap, `clamp(capFraction * elapsed, minCapMs, maxCapMs)`. Once the cap governs, poll times
 *   form a geometric series with ratio about `1 + capFraction`, which costs O(log(duration)) polls.
 * - The first wait is 2 s, like Terraform's: the operation returned by the mutating call is the observation at
 *   time 0, so the waiter skips Terraform's immediate (and almost always wasted) poll when it is given `initial`.
 * - Then intervals of 2.5 s until the cap passes that (after about 9 s), so the 10 s case costs ~4 polls.
 * - capFraction 0.28 (successive polls ~1.3x apart with jitter) came from a parameter sweep with the bench. With
 *   it, the four points come out at 0.5x / 1.04x / 1.23x / 0.59x Terraform's polls and 7.5% / 6.3% / 8.0% / 5.2%
 *   detection delay (50 seeds). Honest caveat: that is partly where the points fall between polls. Averaged over
 *   durations from 0.8x to 1.25x of 10 s or 60 s the delay is about 15% (Terraform: 41% and 8%), which is what
 *   theory gives for a geometric schedule of ratio R, (R - 1) / ln(R) - 1. No schedule of this shape gets the
 *   average under 10% near 60 s without going over 1.5x Terraform's polls there.
 * - maxCapMs 30 s bounds the detection delay of long operations (they are polled every 30 to 34.5 s), at about a
 *   third of Terraform's request rate on a 20-minute operation.
 * - Jitter: when one `pulumi up` starts many operations at once, waiters on the same deterministic schedule would
 *   poll in lockstep: a thundering herd that spends the project's read quota in bursts and meets rate limits
 *   together. A random extra of up to 15% of each interval desynchronizes them, and because the cap depends on each
 *   waiter's own elapsed time the spread grows with every poll. Jitter only lengthens a wait (never an earlier poll
 *   than the backoff asks for), so the first poll is never sooner than 2 s.
 */

/** The knobs of the schedule. Every duration is in milliseconds. */
export interface PollSchedule {
  /**
   * The first wait; each later wait is multiplied by `multiplier` (before the cap and jitter).
   * @default DEFAULT_INITIAL_POLL_DELAY_MS (2000)
   */
  readonly initialDelayMs: number;
  /**
   * Growth factor of the exponential backoff, >= 1.
   * @default DEFAULT_POLL_DELAY_MULTIPLIER (2)
   */
  readonly multiplier: number;
  /**
   * Lower bound of the growing cap: waits are never capped below this.
   * @default DEFAULT_MIN_POLL_DELAY_CAP_MS (2500)
   */
  readonly minCapMs: number;
  /**
   * Upper bound of the growing cap: the longest wait before jitter.
   * @default DEFAULT_MAX_POLL_DELAY_CAP_MS (30000)
   */
  readonly maxCapMs: number;
  /**
   * The cap as a fraction of the time already waited: `cap = clamp(capFraction * elapsedMs, minCapMs, maxCapMs)`.
   * @default DEFAULT_POLL_DELAY_CAP_FRACTION (0.28)
   */
  readonly capFraction: number;
  /**
   * Random extra of up to this fraction of each wait, in [0, 1]: the wait is `delay * (1 + jitter * random())`.
   * @default DEFAULT_POLL_JITTER (0.15)
   */
  readonly jitter: number;
}

/** What the schedule needs to know to choose the next wait. */
export interface ScheduleState {
  /** How many waits came before this one (0 for the first wait). */
  readonly attempt: number;
  /** Time since the wait began. */
  readonly elapsedMs: number;
  /** The server's recommended interval from the last poll (e.g. from Retry-After): a floor for this wait. */
  readonly recommendedDelayMs?: number | undefined;
  /** Time left before the deadline: no wait is longer. Infinity (the default) means no deadline. */
  readonly remainingMs?: number | undefined;
}

/** The first wait between polls. Terraform's StateChangeConf also starts at 2 s (its MinTimeout). */
export const DEFAULT_INITIAL_POLL_DELAY_MS = 2_000;
/** Exponential growth of the waits before the cap; the growing cap governs after the first wait. */
export const DEFAULT_POLL_DELAY_MULTIPLIER = 2;
/** The waits are never capped below 2.5 s: short operations are polled about every 2.5 s. */
export const DEFAULT_MIN_POLL_DELAY_CAP_MS = 2_500;
/** The longest wait (before jitter): one poll per 30 s on long operations. */
export const DEFAULT_MAX_POLL_DELAY_CAP_MS = 30_000;
/** Each wait is capped at 28% of the time already waited (see the module comment for why). */
export const DEFAULT_POLL_DELAY_CAP_FRACTION = 0.28;
/** Up to 15% random extra on each wait, so that operations started together do not poll together. */
export const DEFAULT_POLL_JITTER = 0.15;

export const DEFAULT_POLL_SCHEDULE: Readonly<PollSchedule> = Object.freeze({
  initialDelayMs: DEFAULT_INITIAL_POLL_DELAY_MS,
  multiplier: DEFAULT_POLL_DELAY_MULTIPLIER,
  minCapMs: DEFAULT_MIN_POLL_DELAY_CAP_MS,
  maxCapMs: DEFAULT_MAX_POLL_DELAY_CAP_MS,
  capFraction: DEFAULT_POLL_DELAY_CAP_FRACTION,
  jitter: DEFAULT_POLL_JITTER,
});

/**
 * The wait before the next poll, in whole milliseconds:
 * `min(initialDelayMs * multiplier^attempt, clamp(capFraction * elapsedMs, minCapMs, maxCapMs)) * (1 + jitter * random())`,
 * raised to the server's recommended delay (itself clamped to the remaining time), and never beyond the remaining time.
 * `random` returns a number in [0, 1], as Math.random does.
 */
export function nextPollDelayMs(state: ScheduleState, schedule: PollSchedule, random: () => number): number {
  const remainingMs = Math.max(0, state.remainingMs ?? Infinity);
  const backoffMs = schedule.initialDelayMs * schedule.multiplier ** Math.max(0, state.attempt);
  const capMs = clamp(schedule.capFraction * Math.max(0, state.elapsedMs), schedule.minCapMs, schedule.maxCapMs);
  const r = random();
  const jittered = Math.min(backoffMs, capMs) * (1 + schedule.jitter * (Number.isFinite(r) ? clamp(r, 0, 1) : 0));
  // A recommendation that is not a finite positive number (NaN from a bad Retry-After, say) is no recommendation.
  const recommended = state.recommendedDelayMs;
  const floorMs = recommended !== undefined && Number.isFinite(recommended) && recommended > 0 ? recommended : 0;
  return Math.round(Math.min(Math.max(jittered, Math.min(floorMs, remainingMs)), remainingMs));
}

/** The schedule with the caller's overrides, checked; returns the problems found instead of throwing. */
export function resolvePollSchedule(overrides: Partial<PollSchedule> | undefined): {
  schedule: PollSchedule;
  failures: { property: string; reason: string }[];
} {
  const schedule: PollSchedule = {
    initialDelayMs: overrides?.initialDelayMs ?? DEFAULT_POLL_SCHEDULE.initialDelayMs,
    multiplier: overrides?.multiplier ?? DEFAULT_POLL_SCHEDULE.multiplier,
    minCapMs: overrides?.minCapMs ?? DEFAULT_POLL_SCHEDULE.minCapMs,
    maxCapMs: overrides?.maxCapMs ?? DEFAULT_POLL_SCHEDULE.maxCapMs,
    capFraction: overrides?.capFraction ?? DEFAULT_POLL_SCHEDULE.capFraction,
    jitter: overrides?.jitter ?? DEFAULT_POLL_SCHEDULE.jitter,
  };
  const failures: { property: string; reason: string }[] = [];
  const need = (property: keyof PollSchedule, ok: boolean, rule: string): void => {
    if (!ok) failures.push({ property: `schedule.${property}`, reason: `${String(schedule[property])} ${rule}` });
  };
  need("initialDelayMs", finite(schedule.initialDelayMs) && schedule.initialDelayMs > 0, "must be a number above 0");
  need("multiplier", finite(schedule.multiplier) && schedule.multiplier >= 1, "must be a number of at least 1");
  need("minCapMs", finite(schedule.minCapMs) && schedule.minCapMs > 0, "must be a number above 0");
  need(
    "maxCapMs",
    finite(schedule.maxCapMs) && schedule.maxCapMs >= schedule.minCapMs,
    `must be a number of at least minCapMs (${String(schedule.minCapMs)})`,
  );
  need("capFraction", finite(schedule.capFraction) && schedule.capFraction >= 0, "must be a number of at least 0");
  need(
    "jitter",
    finite(schedule.jitter) && schedule.jitter >= 0 && schedule.jitter <= 1,
    "must be a number from 0 to 1",
  );
  return { schedule, failures };
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
