/**
 * The tests' one way to wait for another process's state (a log line, a block height, a process gone): poll a reader
 * until a predicate holds on what it read, bounded, and on timeout fail naming what was awaited and the last value seen.
 * Polling starts fast (10 ms) and backs off to `intervalMs`: these are states that send no event the test can await.
 */

/** What to wait for. */
export interface WaitForOptions<T> {
  /** What is awaited, as the timeout message names it ("the sandbox to print its settings"). */
  readonly what: string;
  /** Reads the current value. An error it throws ends the wait at once, unless `retrying` accepts it. */
  readonly read: () => T | Promise<T>;
  /** True once the value read is the awaited one. @default any value read (for a `read` that throws until ready) */
  readonly until?: (value: T) => boolean;
  /** The bound, in milliseconds. */
  readonly timeoutMs: number;
  /** The longest pause between two reads, in milliseconds. @default 100 */
  readonly intervalMs?: number;
  /** Errors of `read` that mean "not yet" (a peer still refusing connections); the last one is reported on timeout. */
  readonly retrying?: (error: unknown) => boolean;
  /** How the last value reads in the timeout message. @default JSON (strings as they are), cut to 2,000 characters */
  readonly show?: (value: T) => string;
}

/** The first pause between reads, in milliseconds. */
export const FIRST_PAUSE_MS = 10;
/** The default longest pause between reads, in milliseconds. */
export const DEFAULT_INTERVAL_MS = 100;
const SHOWN_CHARACTERS = 2_000;

function shown(value: unknown): string {
  let text: string;
  if (typeof value === "string") text = value;
  else if (value instanceof Error) text = `${value.name}: ${value.message}`;
  else {
    try {
      // JSON.stringify gives undefined for undefined and functions, whatever its declared type says.
      const json = JSON.stringify(value, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)) as
        string | undefined;
      text = json ?? String(value);
    } catch {
      text = String(value);
    }
  }
  return text.length > SHOWN_CHARACTERS ? `…${text.slice(-SHOWN_CHARACTERS)}` : text;
}

/** Resolves with the first value read that `until` accepts; rejects after `timeoutMs` naming `what` and the last value. */
export async function waitFor<T>(options: WaitForOptions<T>): Promise<T> {
  const { what, read, timeoutMs } = options;
  const until = options.until ?? (() => true);
  const interval = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const deadline = Date.now() + timeoutMs;
  let last = "nothing read yet";
  let pause = Math.min(FIRST_PAUSE_MS, interval);
  for (;;) {
    try {
      const value = await read();
      if (until(value)) return value;
      last = (options.show ?? shown)(value);
    } catch (e) {
      if (options.retrying?.(e) !== true) throw e;
      last = `error: ${shown(e)}`;
    }
    if (Date.now() >= deadline) {
      throw new Error(`timed out after ${String(timeoutMs)} ms waiting for ${what}; last seen: ${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, interval);
  }
}
