import assert from "node:assert/strict";
import fc from "fast-check";
import {
  DEFAULT_INITIAL_POLL_DELAY_MS,
  DEFAULT_MAX_POLL_DELAY_CAP_MS,
  DEFAULT_MIN_POLL_DELAY_CAP_MS,
  DEFAULT_POLL_DELAY_CAP_FRACTION,
  DEFAULT_POLL_DELAY_MULTIPLIER,
  DEFAULT_POLL_JITTER,
  DEFAULT_POLL_SCHEDULE,
  nextPollDelayMs,
} from "../../../provider/operations";
import type { PollSchedule } from "../../../provider/operations";

const zero = (): number => 0;
const one = (): number => 1;

/** The waits a waiter would make from t = 0 with a fixed random number. */
function sequence(schedule: PollSchedule, count: number, random: () => number): number[] {
  const waits: number[] = [];
  let elapsedMs = 0;
  for (let attempt = 0; attempt < count; attempt++) {
    const wait = nextPollDelayMs({ attempt, elapsedMs }, schedule, random);
    waits.push(wait);
    elapsedMs += wait;
  }
  return waits;
}

describe("nextPollDelayMs", () => {
  it("exposes the documented defaults", () => {
    assert.deepEqual(DEFAULT_POLL_SCHEDULE, {
      initialDelayMs: 2000,
      multiplier: 2,
      minCapMs: 2500,
      maxCapMs: 30000,
      capFraction: 0.28,
      jitter: 0.15,
    });
    assert.deepEqual(
      [
        DEFAULT_INITIAL_POLL_DELAY_MS,
        DEFAULT_POLL_DELAY_MULTIPLIER,
        DEFAULT_MIN_POLL_DELAY_CAP_MS,
        DEFAULT_MAX_POLL_DELAY_CAP_MS,
        DEFAULT_POLL_DELAY_CAP_FRACTION,
        DEFAULT_POLL_JITTER,
      ],
      [2000, 2, 2500, 30000, 0.28, 0.15],
    );
  });

  it("grows exponentially from initialDelayMs while under the cap", () => {
    const uncapped = {
      ...DEFAULT_POLL_SCHEDULE,
      initialDelayMs: 1000,
      minCapMs: 100_000,
      maxCapMs: 100_000,
      jitter: 0,
    };
    assert.deepEqual(sequence(uncapped, 5, zero), [1000, 2000, 4000, 8000, 16000]);
  });

  it("follows the default schedule: 2 s, 2.5 s until the cap grows, then 28% of the time waited, up to 30 s", () => {
    assert.deepEqual(
      sequence(DEFAULT_POLL_SCHEDULE, 16, zero),
      [2000, 2500, 2500, 2500, 2660, 3405, 4358, 5578, 7140, 9139, 11698, 14974, 19167, 24533, 30000, 30000],
    );
  });

  it("caps the wait at capFraction of the elapsed time, clamped to minCapMs and maxCapMs", () => {
    const at = (elapsedMs: number): number => nextPollDelayMs({ attempt: 10, elapsedMs }, DEFAULT_POLL_SCHEDULE, zero);
    assert.equal(at(0), 2500);
    assert.equal(at(8000), 2500);
    assert.equal(at(20_000), 5600);
    assert.equal(at(100_000), 28_000);
    assert.equal(at(200_000), 30_000);
  });

  it("keeps the jitter between the wait (random 0) and the wait times 1 + jitter (random 1)", () => {
    const first = { attempt: 0, elapsedMs: 0 };
    assert.equal(nextPollDelayMs(first, DEFAULT_POLL_SCHEDULE, zero), 2000);
    assert.equal(
      nextPollDelayMs(first, DEFAULT_POLL_SCHEDULE, () => 0.5),
      2150,
    );
    assert.equal(nextPollDelayMs(first, DEFAULT_POLL_SCHEDULE, one), 2300);
    const late = { attempt: 40, elapsedMs: 3_600_000 };
    assert.equal(nextPollDelayMs(late, DEFAULT_POLL_SCHEDULE, zero), 30_000);
    assert.equal(nextPollDelayMs(late, DEFAULT_POLL_SCHEDULE, one), 34_500);
    assert.equal(
      nextPollDelayMs(late, DEFAULT_POLL_SCHEDULE, () => 7),
      34_500,
      "random is clamped to [0, 1]",
    );
  });

  it("stays within the jittered bounds and never shrinks as the elapsed time grows", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, elapsedMs, moreMs, r) => {
          const wait = nextPollDelayMs({ attempt, elapsedMs }, DEFAULT_POLL_SCHEDULE, () => r);
          const base = Math.min(2000 * 2 ** attempt, Math.min(Math.max(0.28 * elapsedMs, 2500), 30_000));
          assert.ok(
            wait >= Math.round(base) && wait <= Math.round(base * 1.15),
            `${wait} outside [${base}, ${base * 1.15}]`,
          );
          const later = nextPollDelayMs({ attempt, elapsedMs: elapsedMs + moreMs }, DEFAULT_POLL_SCHEDULE, () => r);
          assert.ok(later >= wait, `${later} < ${wait}`);
        },
      ),
    );
  });

  it("raises the wait to recommendedDelayMs and ignores a smaller recommendation", () => {
    const state = { attempt: 0, elapsedMs: 0 };
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 7000 }, DEFAULT_POLL_SCHEDULE, zero), 7000);
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 500 }, DEFAULT_POLL_SCHEDULE, zero), 2000);
    assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs: 90_000 }, DEFAULT_POLL_SCHEDULE, zero), 90_000);
  });

  it("never waits beyond the remaining time, even when the server recommends longer", () => {
    const state = { attempt: 3, elapsedMs: 50_000 };
    assert.equal(nextPollDelayMs({ ...state, remainingMs: 1200 }, DEFAULT_POLL_SCHEDULE, one), 1200);
    assert.equal(
      nextPollDelayMs({ ...state, remainingMs: 5000, recommendedDelayMs: 60_000 }, DEFAULT_POLL_SCHEDULE, zero),
      5000,
    );
    assert.equal(nextPollDelayMs({ ...state, remainingMs: 0 }, DEFAULT_POLL_SCHEDULE, one), 0);
    assert.equal(nextPollDelayMs({ ...state, remainingMs: -10 }, DEFAULT_POLL_SCHEDULE, one), 0);
  });
});

describe("nextPollDelayMs with out-of-spec inputs", () => {
  it("ignores a recommendation that is NaN, negative or infinite, and a random number that is NaN", () => {
    const state = { attempt: 0, elapsedMs: 0, remainingMs: 60_000 };
    for (const recommendedDelayMs of [Number.NaN, -5, Infinity]) {
      assert.equal(nextPollDelayMs({ ...state, recommendedDelayMs }, DEFAULT_POLL_SCHEDULE, zero), 2000);
    }
    assert.equal(
      nextPollDelayMs(state, DEFAULT_POLL_SCHEDULE, () => Number.NaN),
      2000,
    );
  });
});
