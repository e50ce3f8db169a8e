import assert from "node:assert/strict";
import fc from "fast-check";
import {
  DEFAULT_INITIAL_POLL_DELAY_MS,
  DEFAULT_MAX_POLL_DELAY_MS,
  DEFAULT_MIN_POLL_DELAY_MS,
  DEFAULT_POLL_JITTER,
  DEFAULT_POLL_RELATIVE_STEP,
  DEFAULT_POLL_SCHEDULE,
  nextPollDelayMs,
} from "../../../provider/operations/schedule";
import type { PollSchedule } from "../../../provider/operations/schedule";

const zero = (): number => 0;
const one = (): number => 1;
const K = DEFAULT_POLL_RELATIVE_STEP;

/** The poll times of a waiter that starts at t = 0 and polls until `untilMs`, with a random source. */
function pollTimes(untilMs: number, random: () => number, schedule: PollSchedule = DEFAULT_POLL_SCHEDULE): number[] {
  const times: number[] = [];
  for (let t = 0; t < untilMs;) {
    t += nextPollDelayMs({ elapsedMs: t }, schedule, random);
    times.push(t);
  }
  return times;
}

/** A seeded random source for property runs (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("nextPollDelayMs", () => {
  it("exposes the documented defaults", () => {
    assert.deepEqual(DEFAULT_POLL_SCHEDULE, {
      initialDelayMs: 1000,
      relativeStep: 0.14,
      minDelayMs: 100,
      maxDelayMs: 60_000,
      jitter: 0.15,
    });
    assert.deepEqual(
      [
        DEFAULT_INITIAL_POLL_DELAY_MS,
        DEFAULT_POLL_RELATIVE_STEP,
        DEFAULT_MIN_POLL_DELAY_MS,
        DEFAULT_MAX_POLL_DELAY_MS,
        DEFAULT_POLL_JITTER,
      ],
      [1000, 0.14, 100, 60_000, 0.15],
    );
  });

  it("polls first at initialDelayMs after the start, whenever the wait begins before it", () => {
    assert.equal(nextPollDelayMs({ elapsedMs: 0 }, DEFAULT_POLL_SCHEDULE, zero), 1000);
    assert.equal(nextPollDelayMs({ elapsedMs: 300 }, DEFAULT_POLL_SCHEDULE, zero), 700);
    assert.equal(nextPollDelayMs({ elapsedMs: 0 }, DEFAULT_POLL_SCHEDULE, one), 850, "shortened by the jitter");
  });

  it("never lets a step exceed relativeStep times the time run so far, from the first poll on", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: DEFAULT_INITIAL_POLL_DELAY_MS, max: 24 * 3_600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (elapsedMs, r) => {
          const wait = nextPollDelayMs({ elapsedMs }, DEFAULT_POLL_SCHEDULE, () => r);
          assert.ok(wait <= Math.round(K * elapsedMs), `${wait} ms after ${elapsedMs} ms exceeds ${K} of it`);
          assert.ok(wait <= DEFAULT_MAX_POLL_DELAY_MS, `${wait} ms exceeds the cap`);
        },
      ),
    );
  });

  it("shortens a step by at most the jitter fraction, never lengthens it", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: DEFAULT_INITIAL_POLL_DELAY_MS, max: 24 * 3_600_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (elapsedMs, r) => {
          const full = nextPollDelayMs({ elapsedMs }, DEFAULT_POLL_SCHEDULE, zero);
          const wait = nextPollDelayMs({ elapsedMs }, DEFAULT_POLL_SCHEDULE, () => r);
          assert.equal(full, Math.round(Math.min(K * elapsedMs, DEFAULT_MAX_POLL_DELAY_MS)));
          assert.ok(wait <= full && wait >= Math.round(full * (1 - DEFAULT_POLL_JITTER)) - 1, `${wait} vs ${full}`);
        },
      ),
    );
  });

  it("never moves the next poll earlier when the wait is asked later (poll times are monotonic)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (elapsedMs, moreMs, r) => {
          const next = elapsedMs + nextPollDelayMs({ elapsedMs }, DEFAULT_POLL_SCHEDULE, () => r);
          const later = elapsedMs + moreMs;
          assert.ok(later + nextPollDelayMs({ elapsedMs: later }, DEFAULT_POLL_SCHEDULE, () => r) >= next - 1);
        },
      ),
    );
  });

  it("sees any operation of 1 s to 1 h within relativeStep of its duration (the worst-case bound)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1000, max: 3_600_000 }), fc.integer(), (durationMs, seed) => {
        const times = pollTimes(durationMs, seeded(seed));
        const seenAt = times[times.length - 1]!;
        assert.ok(seenAt >= durationMs);
        assert.ok(seenAt - durationMs <= K * durationMs + 1, `${durationMs} ms seen at ${seenAt} ms`);
      }),
    );
  });

  it("grows geometrically: polls of a run grow like log(duration), then one per maxDelayMs", () => {
    const oneMinute = pollTimes(60_000, zero).length;
    const tenMinutes = pollTimes(600_000, zero).length;
    const oneHour = pollTimes(3_600_000, zero).length;
    // ln(60) / ln(1.14) ≈ 31; from 7 minutes (60 s / 0.14) on, one poll a minute.
    assert.ok(oneMinute >= 28 && oneMinute <= 34, `${oneMinute} polls for a minute`);
    assert.ok(tenMinutes - oneMinute <= 20, `${tenMinutes - oneMinute} more polls for ten minutes`);
    assert.ok(oneHour - tenMinutes >= 50 && oneHour - tenMinutes <= 51, `${oneHour - tenMinutes} from 10 to 60 min`);
  });

  it("raises the wait to recommendedDelayMs and ignores a smaller recommendation", () => {
    const state = { elapsedMs: 0 };
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 7000 }, DEFAULT_POLL_SCHEDULE, zero), 7000);
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 500 }, DEFAULT_POLL_SCHEDULE, zero), 1000);
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 90_000 }, DEFAULT_POLL_SCHEDULE, zero), 90_000);
  });

  it("never waits beyond the remaining time, even when the server recommends longer", () => {
    const state = { elapsedMs: 50_000 };
    assert.equal(nextPollDelayMs({ ...state, remainingMs: 1200 }, DEFAULT_POLL_SCHEDULE, zero), 1200);
    assert.equal(
      nextPollDelayMs({ ...state, remainingMs: 5000, recommendedDelayMs: 60_000 }, DEFAULT_POLL_SCHEDULE, zero),
      5000,
    );
    assert.equal(nextPollDelayMs({ ...state, remainingMs: 0 }, DEFAULT_POLL_SCHEDULE, one), 0);
    assert.equal(nextPollDelayMs({ ...state, remainingMs: -10 }, DEFAULT_POLL_SCHEDULE, one), 0);
  });

  it("keeps every wait at or above minDelayMs", () => {
    const tight = { ...DEFAULT_POLL_SCHEDULE, initialDelayMs: 0, minDelayMs: 250 };
    assert.equal(nextPollDelayMs({ elapsedMs: 0 }, tight, one), 250);
    assert.equal(nextPollDelayMs({ elapsedMs: 1000 }, tight, one), 250);
  });
});

describe("nextPollDelayMs with out-of-spec inputs", () => {
  it("ignores a recommendation that is NaN, negative or infinite, and a random number that is NaN or out of range", () => {
    const state = { elapsedMs: 0, remainingMs: 60_000 };
    for (const recommendedDelayMs of [Number.NaN, -5, Infinity]) {
      assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs }, DEFAULT_POLL_SCHEDULE, zero), 1000);
    }
    assert.equal(
      nextPollDelayMs(state, DEFAULT_POLL_SCHEDULE, () => Number.NaN),
      1000,
    );
    assert.equal(
      nextPollDelayMs(state, DEFAULT_POLL_SCHEDULE, () => 7),
      850,
      "random is clamped to [0, 1]",
    );
  });

  it("treats a NaN or negative elapsed time as the start", () => {
    assert.equal(nextPollDelayMs({ elapsedMs: Number.NaN }, DEFAULT_POLL_SCHEDULE, zero), 1000);
    assert.equal(nextPollDelayMs({ elapsedMs: -5000 }, DEFAULT_POLL_SCHEDULE, zero), 1000);
  });
});
