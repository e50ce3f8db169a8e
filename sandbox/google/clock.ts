import type { ManualClock, SandboxClock } from "./types";

/** 2026-01-01T00:00:00Z: where a manual clock starts unless told otherwise. */
export const DEFAULT_MANUAL_CLOCK_START_MS = Date.UTC(2026, 0, 1);

/** Real time. */
export const systemClock: SandboxClock = { now: () => Date.now() };

/** A clock for tests: it stands still until `advance` or `set` moves it. */
export function createManualClock(startMs: number = DEFAULT_MANUAL_CLOCK_START_MS): ManualClock {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance(ms: number): void {
      if (!Number.isFinite(ms) || ms < 0)
        throw new RangeError(`advance(ms): ms must be a finite number >= 0, got ${ms}`);
      nowMs += ms;
    },
    set(ms: number): void {
      if (!Number.isFinite(ms)) throw new RangeError(`set(ms): ms must be finite, got ${ms}`);
      nowMs = ms;
    },
  };
}

/** RFC 3339 text of a clock time, as Google writes it (UTC, milliseconds). */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString();
}
