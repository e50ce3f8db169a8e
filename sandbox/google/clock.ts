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

/**
 * A google.protobuf.Timestamp as ProtoJSON writes it (IAM, the long-running operations of proto APIs): UTC, `Z`, and
 * 0, 3, 6 or 9 fractional digits; the sandbox's clock has milliseconds, so none or three.
 */
export function protoTimestamp(ms: number): string {
  return new Date(ms).toISOString().replace(/\.000Z$/, "Z");
}

/**
 * A time in whole seconds, `2026-01-01T01:00:00Z`: what IAM Credentials writes as a token's `expireTime` (and the only
 * form google-auth for Python parses there, `%Y-%m-%dT%H:%M:%SZ`). Rounded down, so a token never outlives it.
 */
export function wholeSecondsTimestamp(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, "Z");
}

const PACIFIC = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  hourCycle: "h23",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

/**
 * A time as Compute Engine (and Deployment Manager) write it: RFC 3339 in Pacific time with its offset and
 * milliseconds, `2025-12-31T16:00:02.000-08:00` (`-07:00` in summer).
 */
export function computeTimestamp(ms: number): string {
  const parts = Object.fromEntries(PACIFIC.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const wall = Date.UTC(
    Number(parts["year"]),
    Number(parts["month"]) - 1,
    Number(parts["day"]),
    Number(parts["hour"]),
    Number(parts["minute"]),
    Number(parts["second"]),
  );
  const offsetMinutes = Math.round((wall - Math.floor(ms / 1000) * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  const millis = String(((ms % 1000) + 1000) % 1000).padStart(3, "0");
  const date = `${parts["year"] ?? ""}-${parts["month"] ?? ""}-${parts["day"] ?? ""}`;
  return `${date}T${parts["hour"] ?? ""}:${parts["minute"] ?? ""}:${parts["second"] ?? ""}.${millis}${offset}`;
}
