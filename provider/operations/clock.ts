/** Time as the waiter sees it. Tests inject a fake that records sleeps instead of waiting for them. */
export interface Clock {
  /** Milliseconds from an arbitrary origin; only differences are used, so a monotonic source is best. */
  now(): number;
  /** Resolves after `ms` milliseconds, or settles early (resolving or rejecting) once `signal` is aborted. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
  /**
   * Wall-clock time, ms since the Unix epoch, to compare with the operation's own start time (its `insertTime`).
   * Without it the waiter measures the operation's age from the start of the wait.
   */
  wallNow?(): number;
}

/** The real clock: `performance.now()` (monotonic), `setTimeout` and `Date.now()`. */
export const systemClock: Clock = Object.freeze({
  now: () => performance.now(),
  sleep: sleepFor,
  wallNow: () => Date.now(),
});

function sleepFor(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    if (signal.aborted) {
      reject(abortReason(signal));
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error("aborted", { cause: signal.reason });
}
