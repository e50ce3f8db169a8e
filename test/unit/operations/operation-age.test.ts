import assert from "node:assert/strict";
import { waitForComputeOperation } from "../../../provider/operations/compute-operation-waiter";
import { waitForLongRunningOperation } from "../../../provider/operations/long-running-operation-waiter";
import {
  MAX_PLAUSIBLE_OPERATION_AGE_MS,
  OPERATION_AGE_SKEW_ALLOWANCE_MS,
  operationAgeAtStartMs,
} from "../../../provider/operations/waiter";
import type { ComputeOperation } from "../../../provider/operations/operation-types";
import { FakeClock, scriptedPoll } from "./fakes";

const zero = (): number => 0;
const NOW = Date.parse("2026-11-24T12:00:00Z");

/** A fake clock that also tells the wall-clock time: NOW plus the time slept. */
class WallClock extends FakeClock {
  wallNow(): number {
    return NOW + this.nowMs;
  }
}

const iso = (ms: number): string => new Date(ms).toISOString();

function running(insertTime?: string): ComputeOperation {
  return { name: "operation-1", status: "RUNNING", ...(insertTime === undefined ? {} : { insertTime }) };
}

describe("the waiter's use of the operation's start time", () => {
  it("steps by the operation's age when it joins an operation started five minutes ago", async () => {
    const clock = new WallClock();
    const poll = scriptedPoll(clock, [running(iso(NOW - 300_000)), { ...running(), status: "DONE" }]);
    await waitForComputeOperation(poll, { initial: running(iso(NOW - 300_000)), clock, random: zero });
    // 0.14 of the age (300 s less the 10 s skew allowance), not the 1 s first poll of a fresh operation.
    const age = 300_000 - OPERATION_AGE_SKEW_ALLOWANCE_MS;
    assert.deepEqual(clock.sleeps, [Math.round(0.14 * age), Math.round(0.14 * (age + Math.round(0.14 * age)))]);
  });

  it("starts from the first-poll delay for a fresh operation, a small skew, a future or an implausible start", async () => {
    for (const insertTime of [
      iso(NOW),
      iso(NOW - OPERATION_AGE_SKEW_ALLOWANCE_MS + 1),
      iso(NOW + 30_000),
      iso(NOW - MAX_PLAUSIBLE_OPERATION_AGE_MS - 1),
      "not a time",
      undefined,
    ]) {
      const clock = new WallClock();
      const poll = scriptedPoll(clock, [{ ...running(), status: "DONE" }]);
      await waitForComputeOperation(poll, { initial: running(insertTime), clock, random: zero });
      assert.deepEqual(clock.sleeps, [1000], String(insertTime));
    }
  });

  it("measures the age from the start of the wait when the clock has no wall time", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [{ ...running(), status: "DONE" }]);
    await waitForComputeOperation(poll, { initial: running("2020-01-01T00:00:00Z"), clock, random: zero });
    assert.deepEqual(clock.sleeps, [1000]);
  });

  it("reads a long-running operation's metadata.createTime", async () => {
    const clock = new WallClock();
    const name = "folders/1/locations/global/operations/op";
    const op = { name, metadata: { createTime: iso(NOW - 110_000) } };
    const poll = scriptedPoll(clock, [{ ...op, done: true, response: {} }]);
    await waitForLongRunningOperation(poll, { initial: op, clock, random: zero });
    assert.deepEqual(clock.sleeps, [Math.round(0.14 * 100_000)]);
  });

  it("computes the age at the start of the wait from the wall clock", () => {
    assert.equal(operationAgeAtStartMs(iso(NOW - 70_000), NOW, 20_000), 40_000);
    assert.equal(operationAgeAtStartMs(iso(NOW - 70_000), undefined, 0), 0);
    assert.equal(operationAgeAtStartMs(undefined, NOW, 0), 0);
  });
});
