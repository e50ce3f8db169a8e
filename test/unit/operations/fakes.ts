/** Test doubles for the operation waiter: a clock that records sleeps, and a scripted poll that records calls. */
import type { Clock } from "../../../provider/operations/clock";
import type { Poll, PollResult, ProgressEvent } from "../../../provider/operations/waiter-options";

/**
 * A clock whose sleeps return at once after advancing the time, and record their lengths.
 * With `hold`, a sleep instead stays pending until its signal aborts (or for ever, with `ignoreAbort`).
 */
export class FakeClock implements Clock {
  nowMs = 0;
  readonly sleeps: number[] = [];
  hold = false;
  ignoreAbort = false;
  private sleepStarted: (() => void) | undefined;

  now(): number {
    return this.nowMs;
  }

  sleep(ms: number, signal: AbortSignal): Promise<void> {
    this.sleeps.push(ms);
    this.sleepStarted?.();
    if (!this.hold) {
      this.nowMs += ms;
      return Promise.resolve();
    }
    return new Promise<void>((_resolve, reject) => {
      if (this.ignoreAbort) return;
      signal.addEventListener("abort", () => {
        reject(new Error("sleep aborted"));
      });
    });
  }

  /** Resolves when the next sleep starts. */
  nextSleep(): Promise<void> {
    return new Promise<void>((resolve) => {
      this.sleepStarted = resolve;
    });
  }
}

/** A poll that returns the scripted results in turn (the last one for ever) and records when it was called. */
export function scriptedPoll<T>(
  clock: FakeClock,
  results: readonly (T | PollResult<T>)[],
): Poll<T> & { calls: number[]; signals: AbortSignal[] } {
  const calls: number[] = [];
  const signals: AbortSignal[] = [];
  const poll = (signal: AbortSignal): Promise<PollResult<T>> => {
    calls.push(clock.now());
    signals.push(signal);
    const next = results[Math.min(calls.length - 1, results.length - 1)];
    if (next === undefined) throw new Error("scriptedPoll needs at least one result");
    return Promise.resolve(isPollResult(next) ? next : { operation: next });
  };
  return Object.assign(poll, { calls, signals });
}

function isPollResult<T>(value: T | PollResult<T>): value is PollResult<T> {
  return typeof value === "object" && value !== null && "operation" in value;
}

/** Collects onProgress and onWarning calls. */
export function recorder(): {
  events: ProgressEvent[];
  warnings: string[];
  onProgress: (event: ProgressEvent) => void;
  onWarning: (message: string) => void;
} {
  const events: ProgressEvent[] = [];
  const warnings: string[] = [];
  return {
    events,
    warnings,
    onProgress: (event) => events.push(event),
    onWarning: (message) => warnings.push(message),
  };
}
