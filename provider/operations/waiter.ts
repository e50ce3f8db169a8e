/**
 * The polling loop shared by both kinds of operation. An adapter says how to read one kind; this module owns the
 * schedule, the deadline, abort, progress events and warnings.
 */
import { DeadlineError, ValidationError } from "../errors";
import { systemClock } from "./clock";
import { capitalize, describeOperation, formatDeadline } from "../errors/operations/operation-format";
import { ProgressTracker } from "./progress";
import type { Observation } from "./progress";
import { nextPollDelayMs, resolvePollSchedule } from "./schedule";
import { DEFAULT_OPERATION_TIMEOUT_MS } from "./waiter-options";
import type { Poll, PollResult, WaitOptions } from "./waiter-options";

/** How to read one kind of operation. */
export interface OperationAdapter<T> {
  name(operation: T): string | undefined;
  /**
   * Status and progress as sent, whether the operation is done, out-of-spec findings, and when the operation started
   * (RFC 3339, as sent) when it says so.
   */
  observe(operation: T): Observation & {
    readonly done: boolean;
    readonly anomalies: readonly string[];
    readonly startedAt?: string | undefined;
  };
  /**
   * Called once, on the done operation: returns it on success (after reporting its warnings through `warn`),
   * or throws its OperationError.
   */
  finish(operation: T, context: { readonly target: string | undefined; readonly warn: (message: string) => void }): T;
}

export type AdapterWaitOptions<T> = WaitOptions & { initial?: T };

const NEVER_ABORTED = new AbortController().signal;

/**
 * How far the client's clock may be ahead of the server's without the waiter mistaking a fresh operation for an old
 * one: an operation's age counts only beyond this.
 */
export const OPERATION_AGE_SKEW_ALLOWANCE_MS = 10_000;
/** An operation that claims to have started longer ago than this is taken as a clock mismatch, not an age. */
export const MAX_PLAUSIBLE_OPERATION_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * How long before the wait began the operation started, from its start time and the wall clock: 0 when either is
 * unknown, the time is unparseable, or the age is within the skew allowance or implausibly large.
 */
export function operationAgeAtStartMs(
  startedAt: string | undefined,
  wallNowMs: number | undefined,
  elapsedMs: number,
): number {
  if (startedAt === undefined || wallNowMs === undefined) return 0;
  const startMs = Date.parse(startedAt);
  if (!Number.isFinite(startMs)) return 0;
  const ageMs = wallNowMs - startMs;
  if (ageMs > MAX_PLAUSIBLE_OPERATION_AGE_MS) return 0;
  return Math.max(0, ageMs - elapsedMs - OPERATION_AGE_SKEW_ALLOWANCE_MS);
}

export async function waitForOperation<T>(
  adapter: OperationAdapter<T>,
  poll: Poll<T>,
  options: AdapterWaitOptions<T> = {},
): Promise<T> {
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPERATION_TIMEOUT_MS;
  const signal = options.signal ?? NEVER_ABORTED;
  // A function, not `signal.aborted` inline: the flag changes behind the compiler's back between awaits.
  const isAborted = (): boolean => signal.aborted;
  const { schedule, failures } = resolvePollSchedule(options.schedule);
  if (Number.isNaN(timeoutMs) || timeoutMs <= 0) {
    failures.unshift({ property: "timeoutMs", reason: `${String(timeoutMs)} must be a number above 0 (or Infinity)` });
  }
  if (failures.length > 0) throw new ValidationError({ subject: "WaitOptions", failures });

  const started = clock.now();
  const elapsed = (): number => clock.now() - started;
  let name: string | undefined;
  const subject = (): string => describeOperation(name, options.target);
  const reported = new Set<string>();
  const warn = (message: string): void => {
    if (reported.has(message)) return;
    reported.add(message);
    options.onWarning?.(`${capitalize(subject())}: ${message}`);
  };
  const tracker = new ProgressTracker(options.onProgress, warn);
  const deadline = (aborted: boolean): DeadlineError => {
    const elapsedMs = elapsed();
    const text = { subject: subject(), elapsedMs, timeoutMs, aborted, last: tracker.last };
    return new DeadlineError({
      target: subject(),
      elapsedMs,
      aborted,
      message: formatDeadline(text),
      cause: aborted ? signal.reason : undefined,
    });
  };
  /** Awaits `work`, but ends with an aborted DeadlineError as soon as the signal is aborted. */
  const guarded = async <V>(work: () => Promise<V>): Promise<V> => {
    if (isAborted()) throw deadline(true);
    try {
      return await untilAborted(work(), signal);
    } catch (error) {
      // Whatever the poll or sleep threw once the caller aborted (often an AbortError) means "aborted".
      if (isAborted()) throw deadline(true);
      throw error;
    }
  };

  // The operation's age when the wait began, once known from its start time: the schedule follows the operation's age.
  let ageAtStartMs: number | undefined;
  let result: PollResult<T> =
    options.initial === undefined ? await guarded(async () => poll(signal)) : { operation: options.initial };
  for (;;) {
    const operation: unknown = result.operation;
    if (typeof operation === "object" && operation !== null) {
      name = adapter.name(operation as T) ?? name;
      const observation = adapter.observe(operation as T);
      observation.anomalies.forEach(warn);
      tracker.observe(observation, elapsed());
      if (ageAtStartMs === undefined && observation.startedAt !== undefined) {
        ageAtStartMs = operationAgeAtStartMs(observation.startedAt, clock.wallNow?.(), elapsed());
      }
      if (observation.done) return adapter.finish(operation as T, { target: options.target, warn });
    } else {
      // An empty or garbled response body: report it and poll again, within the deadline.
      warn(
        `a poll returned ${operation === "" ? "an empty body" : String(operation)} instead of an operation; polling again`,
      );
    }

    const remainingMs = timeoutMs - elapsed();
    if (remainingMs <= 0) throw deadline(false);
    const state = {
      elapsedMs: elapsed() + (ageAtStartMs ?? 0),
      remainingMs,
      recommendedDelayMs: result.recommendedDelayMs,
    };
    const delayMs = nextPollDelayMs(state, schedule, random);
    await guarded(() => clock.sleep(delayMs, signal));
    result = await guarded(async () => poll(signal));
  }
}

/** `promise`, or a rejection as soon as `signal` aborts (the promise's own outcome is then ignored, not left unhandled). */
async function untilAborted<V>(promise: Promise<V>, signal: AbortSignal): Promise<V> {
  let onAbort = (): void => undefined;
  const aborted = new Promise<never>((_resolve, reject) => {
    onAbort = () => {
      reject(new Error("aborted"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([promise, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}
