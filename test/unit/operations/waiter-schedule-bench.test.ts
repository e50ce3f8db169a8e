import assert from "node:assert/strict";
import {
  MAX_DELAY_PCT,
  MAX_POLL_RATIO,
  benchWaiterSchedule,
  pollOurs,
  pollTerraform,
  seededRandom,
} from "../../../bench/waiter-schedule";
import { waitForComputeOperation } from "../../../provider/operations";
import type { ComputeOperation } from "../../../provider/operations";
import { FakeClock } from "./fakes";

describe("benchWaiterSchedule", () => {
  it("reproduces Terraform's poll times: at once, then 2 s, 4 s, 8 s and every 10 s", () => {
    assert.deepEqual(pollTerraform(2000), { polls: 2, delayMs: 0 });
    assert.deepEqual(pollTerraform(2001), { polls: 3, delayMs: 3999 });
    assert.deepEqual(pollTerraform(10_000), { polls: 4, delayMs: 4000 });
    assert.deepEqual(pollTerraform(60_000), { polls: 9, delayMs: 4000 });
    assert.deepEqual(pollTerraform(300_000), { polls: 33, delayMs: 4000 });
  });

  it("simulates exactly what the waiter does on a fake clock", async () => {
    for (const durationMs of [2000, 10_000, 60_000, 300_000]) {
      for (const seed of [1, 2, 3]) {
        const clock = new FakeClock();
        let polls = 0;
        const poll = (): Promise<{ operation: ComputeOperation }> => {
          polls++;
          return Promise.resolve({ operation: { name: "op", status: clock.now() >= durationMs ? "DONE" : "RUNNING" } });
        };
        await waitForComputeOperation(poll, {
          initial: { name: "op", status: "PENDING" },
          clock,
          random: seededRandom(seed),
        });
        assert.deepEqual(
          { polls, delayMs: clock.nowMs - durationMs },
          pollOurs(durationMs, seededRandom(seed)),
          `${durationMs} ms, seed ${seed}`,
        );
      }
    }
  });

  it("meets the goal with the default schedule: delay within 10% using at most 1.5x Terraform's polls", () => {
    const rows = benchWaiterSchedule();
    assert.deepEqual(
      rows.map((r) => r.durationS),
      [2, 10, 60, 300],
    );
    for (const row of rows) {
      assert.ok(row.pollRatio <= MAX_POLL_RATIO, `${row.durationS} s: ${row.pollRatio.toFixed(2)}x Terraform's polls`);
      assert.ok(row.delayPct <= MAX_DELAY_PCT, `${row.durationS} s: detection delay ${row.delayPct.toFixed(1)}%`);
      assert.equal(row.pollRatio, row.ours.polls / row.terraform.polls);
      assert.equal(row.delayPct, (100 * row.ours.delayMs) / (row.durationS * 1000));
    }
  });

  it("shows Terraform's schedule missing the goal, so the bench can tell schedules apart", () => {
    const terraformLike = {
      initialDelayMs: 2000,
      multiplier: 2,
      minCapMs: 10_000,
      maxCapMs: 10_000,
      capFraction: 0,
      jitter: 0,
    };
    const tenSeconds = benchWaiterSchedule({ durationsS: [10], seeds: 1, schedule: terraformLike })[0]!;
    assert.deepEqual(tenSeconds.ours, { polls: 3, delayMs: 4000 });
    assert.equal(tenSeconds.delayPct, 40);
  });

  it("is deterministic: the same seeds give the same rows", () => {
    assert.deepEqual(benchWaiterSchedule({ seeds: 5 }), benchWaiterSchedule({ seeds: 5 }));
    const random = seededRandom(42);
    const values = [random(), random(), random()];
    assert.ok(values.every((v) => v >= 0 && v < 1));
    assert.notEqual(values[0], values[1]);
  });
});
