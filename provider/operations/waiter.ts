/**
 * The polling loop shared by both kinds of operation. An adapter says how to read one kind; this module owns the
 * schedule, the deadline, abort, progress events and warnings.
 */
import { DeadlineError, ValidationError } from "../errors";
import { systemClock } from "./clock";
import { capitalize, describeOperation, formatDeadline } from "./format";
import { ProgressTracker } from "./progress";
import type { Observation } from "./progress";
import { nextPollDelayMs, resolvePollSchedule } from "./schedule";
import { DEFAULT_OPERATION_TIMEOUT_MS } from "./waiter-options";
import type { Poll, PollResult, WaitOptions } from "./waiter-options";

/** How to read one kind of operation. */
export interface OperationAdapter<T> {
  name(operation: T): string | undefined;
  /** Status and progress as sent, whether the operation is done, and out-of-spec findings. */
  observe(operation: T): Observation & { readonly done: boolean; readonly anomalies: readonly string[] };
  /**
   * Called once, on the done operation: returns it on success (after reporting its warnings through `warn`),
   * or throws its OperationError.
   */
  finish(operation: T, context: { readonly target: string | undefined; readonly warn: (message: string) => void }): T;
}

export type AdapterWaitOptions<T> = WaitOptions & { initial?: T };

const NEVER_ABORTED = new AbortController().signal;

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

  let result: PollResult<T> =
    options.initial === undefined ? await guarded(async () => poll(signal)) : { operation: options.initial };
  for (let attempt = 0; ; attempt++) {
    const operation: unknown = result.operation;
    if (typeof operation === "object" && operation !== null) {
      name = adapter.name(operation as T) ?? name;
      const observation = adapter.observe(operation as T);
      observation.anomalies.forEach(warn);
      tracker.observe(observation, elapsed());
      if (observation.done) return adapter.finish(operation as T, { target: options.target, warn });
    } else {
      // An empty or garbled response body: report it and poll again, within the deadline.
      warn(
        `a poll returned ${operation === "" ? "an empty body" : String(operation)} instead of an operation; polling again`,
      );
    }

    const remainingMs = timeoutMs - elapsed();
    if (remainingMs <= 0) throw deadline(false);
    const state = { attempt, elapsedMs: elapsed(), remainingMs, recommendedDelayMs: result.recommendedDelayMs };
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
