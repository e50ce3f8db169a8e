/**
 * The polling schedule of the operation waiter: a geometric schedule with a bounded relative step. The first poll is
 * `initialDelayMs` after the operation started; after that each wait is `relativeStep` (k) times the time the
 * operation has been running, within [minDelayMs, maxDelayMs], shortened by a random fraction of up to `jitter`,
 * raised to the server's recommended interval and never past the deadline. Pure: `nextPollDelayMs` takes the random
 * number as an argument, so tests and the bench (bench/waiter-schedule.ts) replay it exactly.
 *
 * The goal, measured by the bench over 240 durations spread log-uniformly from 1 s to 1 h: see DONE
 * within 7% of the operation's duration on average and 15% at worst, with no more polls in total than Terraform's
 * schedule (an immediate poll, then waits of 2 s, 4 s, 8 s, 10 s, 10 s, ...) makes for the same operations.
 *
 * The bound. With polls at t1 < t2 < ... and every step t(i+1) - t(i) <= k * t(i), an operation that ends at d in
 * (t(i), t(i+1)] is seen at t(i+1), at most k * t(i) < k * d late: the worst relative delay is below k at every
 * duration from the first poll on. Over a log-uniform spread of d, a fixed ratio R = 1 + k gives a mean relative delay
 * of (R - 1) / ln(R) - 1, about k/2 - k²/12: 6.8% for k = 0.14. The jitter only shortens steps, which lowers both the
 * worst case and the mean. Capped steps (maxDelayMs, reached at t = maxDelayMs / k, 7 minutes for
 * 60 s) are shorter than k * t, so the bound holds there too. The price: the worst case at 15% needs a ratio of
 * at most 1.15 from the first second on, so a short operation is polled more often than Terraform polls it (about
 * ln(d / 1 s) / 0.13 + 1 polls: 19 for 10 s against Terraform's 4); a long one is polled far less (a one-hour
 * operation about 110 times against 362), and over the spread the total is below Terraform's.
 * - k = 0.14: the largest step whose mean stays under 7% without relying on jitter (what the bench measures with the
 *   jitter: docs/benchmarks.md, the waiter's table).
 * - initialDelayMs = 1 s: the operation returned by the mutating call is the observation at t = 0, so the waiter makes
 *   no immediate poll; a first poll at 1 s sees an operation of 1 s without delay.
 * - maxDelayMs = 60 s: a long operation is seen within a minute of its end (Terraform: 10 s) for about a third of
 *   Terraform's requests; without a cap a one-hour operation would be seen up to 8 minutes late.
 * - Jitter: one `pulumi up` starts many operations at once; waiters on the same schedule would poll in lockstep, a
 *   thundering herd that spends the read quota in bursts. Each wait is shortened by up to 15% at random (never
 *   lengthened, so the bound stays), and because steps follow each operation's own age the spread grows with every poll.
 * - The operation's own start time (compute `insertTime`, IAM `metadata.createTime`) is used as the origin when the
 *   waiter joins an operation that has been running for a while (a re-run after a crash, OperationWait): its steps
 *   then follow the operation's age, not the wait's. See waiter.ts for how clock skew is allowed for.
 * - Progress is not used to predict completion: real compute progress is coarse (it often jumps from 0 to 100), so
 *   an estimate from it would be wrong exactly when it matters.
 */

/** The knobs of the schedule. Every duration is in milliseconds. */
export interface PollSchedule {
  /**
   * When the first poll happens, measured from the operation's start (from the start of the wait when that is not
   * known). A wait that begins later than this starts with the relative step.
   * @default DEFAULT_INITIAL_POLL_DELAY_MS (1000)
   */
  readonly initialDelayMs: number;
  /**
   * Each later wait as a fraction of the time the operation has been running (k); the detection delay stays below
   * this fraction of the operation's duration.
   * @default DEFAULT_POLL_RELATIVE_STEP (0.14)
   */
  readonly relativeStep: number;
  /**
   * The shortest wait.
   * @default DEFAULT_MIN_POLL_DELAY_MS (100)
   */
  readonly minDelayMs: number;
  /**
   * The longest wait (unless the server recommends a longer one).
   * @default DEFAULT_MAX_POLL_DELAY_MS (60000)
   */
  readonly maxDelayMs: number;
  /**
   * Each wait is shortened by a random fraction of up to this, in [0, 1): `delay * (1 - jitter * random())`.
   * @default DEFAULT_POLL_JITTER (0.15)
   */
  readonly jitter: number;
}

/** What the schedule needs to know to choose the next wait. */
export interface ScheduleState {
  /** How long the operation has been running as far as the waiter knows (at least the time since the wait began). */
  readonly elapsedMs: number;
  /** The server's recommended interval from the last poll (e.g. from Retry-After): a floor for this wait. */
  readonly recommendedDelayMs?: number | undefined;
  /** Time left before the deadline: no wait is longer. Infinity (the default) means no deadline. */
  readonly remainingMs?: number | undefined;
}

/** The first poll, 1 s after the operation started. */
export const DEFAULT_INITIAL_POLL_DELAY_MS = 1_000;
/** Each later wait is 14% of the time the operation has been running (see the module comment for why). */
export const DEFAULT_POLL_RELATIVE_STEP = 0.14;
/** No wait is shorter than 100 ms. */
export const DEFAULT_MIN_POLL_DELAY_MS = 100;
/** No wait is longer than a minute: long operations are seen within a minute of their end. */
export const DEFAULT_MAX_POLL_DELAY_MS = 60_000;
/** Each wait is shortened by up to 15% at random, so that operations started together do not poll together. */
export const DEFAULT_POLL_JITTER = 0.15;

export const DEFAULT_POLL_SCHEDULE: Readonly<PollSchedule> = Object.freeze({
  initialDelayMs: DEFAULT_INITIAL_POLL_DELAY_MS,
  relativeStep: DEFAULT_POLL_RELATIVE_STEP,
  minDelayMs: DEFAULT_MIN_POLL_DELAY_MS,
  maxDelayMs: DEFAULT_MAX_POLL_DELAY_MS,
  jitter: DEFAULT_POLL_JITTER,
});

/**
 * The wait before the next poll, in whole milliseconds:
 * `max(minDelayMs, max(initialDelayMs - elapsedMs, clamp(relativeStep * elapsedMs, minDelayMs, maxDelayMs)) * (1 - jitter * random()))`,
 * raised to the server's recommended delay (itself limited to the remaining time), and never beyond the remaining
 * time. `random` returns a number in [0, 1], as Math.random does.
 */
export function nextPollDelayMs(state: ScheduleState, schedule: PollSchedule, random: () => number): number {
  const remainingMs = Math.max(0, state.remainingMs ?? Infinity);
  const elapsedMs = Math.max(0, Number.isFinite(state.elapsedMs) ? state.elapsedMs : 0);
  const stepMs = clamp(schedule.relativeStep * elapsedMs, schedule.minDelayMs, schedule.maxDelayMs);
  const baseMs = Math.max(schedule.initialDelayMs - elapsedMs, stepMs);
  const r = random();
  const shortened = baseMs * (1 - schedule.jitter * (Number.isFinite(r) ? clamp(r, 0, 1) : 0));
  const jittered = Math.max(schedule.minDelayMs, shortened);
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
    relativeStep: overrides?.relativeStep ?? DEFAULT_POLL_SCHEDULE.relativeStep,
    minDelayMs: overrides?.minDelayMs ?? DEFAULT_POLL_SCHEDULE.minDelayMs,
    maxDelayMs: overrides?.maxDelayMs ?? DEFAULT_POLL_SCHEDULE.maxDelayMs,
    jitter: overrides?.jitter ?? DEFAULT_POLL_SCHEDULE.jitter,
  };
  const failures: { property: string; reason: string }[] = [];
  const need = (property: keyof PollSchedule, ok: boolean, rule: string): void => {
    if (!ok) failures.push({ property: `schedule.${property}`, reason: `${String(schedule[property])} ${rule}` });
  };
  need(
    "initialDelayMs",
    finite(schedule.initialDelayMs) && schedule.initialDelayMs >= 0,
    "must be a number of at least 0",
  );
  need("relativeStep", finite(schedule.relativeStep) && schedule.relativeStep > 0, "must be a number above 0");
  need("minDelayMs", finite(schedule.minDelayMs) && schedule.minDelayMs > 0, "must be a number above 0");
  need(
    "maxDelayMs",
    finite(schedule.maxDelayMs) && schedule.maxDelayMs >= schedule.minDelayMs,
    `must be a number of at least minDelayMs (${String(schedule.minDelayMs)})`,
  );
  need(
    "jitter",
    finite(schedule.jitter) && schedule.jitter >= 0 && schedule.jitter < 1,
    "must be a number from 0 up to (not including) 1",
  );
  return { schedule, failures };
}

function finite(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value);
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}
