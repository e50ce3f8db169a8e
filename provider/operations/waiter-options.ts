/** The waiter's public types: the poll seam, its options and its progress events. */
import type { Clock } from "./clock";
import type { PollSchedule } from "./schedule";

/** One observation of the operation. */
export interface PollResult<T> {
  operation: T;
  /** The server's recommended interval before the next poll (for example from Retry-After): a floor for that wait. */
  recommendedDelayMs?: number;
}

/**
 * Fetches the operation's latest state once. The waiter owns the schedule; the poll function owns transport, auth
 * and retries of transient faults. It receives a signal that is aborted when the caller aborts the wait.
 */
export type Poll<T> = (signal: AbortSignal) => Promise<PollResult<T>>;

/** Reported when the operation's status or progress changes (never when neither does). */
export interface ProgressEvent {
  /** Compute: PENDING, RUNNING, DONE (or an out-of-spec value as sent). Long-running: RUNNING or DONE. */
  status: string;
  /** 0..100, the highest valid value seen so far (never goes backwards); absent until the server sends one. */
  progress?: number;
  statusMessage?: string;
  /** Time since the wait began. */
  elapsedMs: number;
}

/**
 * Terraform's default create/update/delete timeout for compute operations, 20 minutes: the waiter's default, and every
 * resource step's (provider/resources/common.ts) and its documented default (`{@link DEFAULT_OPERATION_TIMEOUT_MS}`).
 */
export const DEFAULT_OPERATION_TIMEOUT_MS = 20 * 60 * 1000;

export interface WaitOptions {
  /** What is being waited on, in words, for messages: "move of firewall policy 123". */
  target?: string;
  /**
   * Overall deadline, measured from the call. Infinity waits for ever.
   * @default DEFAULT_OPERATION_TIMEOUT_MS (20 minutes)
   */
  timeoutMs?: number;
  /** Aborting it ends the wait with a DeadlineError whose `aborted` is true; the poll in flight sees it aborted. */
  signal?: AbortSignal;
  /** Overrides of the polling schedule (schedule.ts explains the defaults). */
  schedule?: Partial<PollSchedule>;
  /** Called when the status or the progress changes, never with a lower progress than before. */
  onProgress?: (event: ProgressEvent) => void;
  /** Called with the warnings of a successful operation and with each out-of-spec value found (once per value). */
  onWarning?: (message: string) => void;
  /** @default systemClock (performance.now and setTimeout) */
  clock?: Clock;
  /** Returns a number in [0, 1] for the jitter. @default Math.random */
  random?: () => number;
}
