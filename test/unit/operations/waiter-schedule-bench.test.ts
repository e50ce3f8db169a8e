import assert from "node:assert/strict";
import {
  DEFAULT_BENCH_OPERATIONS,
  DURATION_BANDS,
  MAX_DURATION_MS,
  MAX_MEAN_DELAY_PCT,
  MAX_TOTAL_POLL_RATIO,
  MAX_WORST_DELAY_PCT,
  MIN_DURATION_MS,
  benchWaiterSchedule,
  logUniformDurationsMs,
  pollOurs,
  pollTerraform,
  seededRandom,
} from "../../../bench/waiter-schedule";
import { waitForComputeOperation } from "../../../provider/operations/compute-operation-waiter";
import { DEFAULT_POLL_SCHEDULE } from "../../../provider/operations/schedule";
import type { ComputeOperation } from "../../../provider/operations/operation-types";
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
    for (const durationMs of [1000, 2500, 10_000, 60_000, 300_000, 1_800_000]) {
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
          timeoutMs: Infinity,
        });
        assert.deepEqual(
          { polls, delayMs: clock.nowMs - durationMs },
          pollOurs(durationMs, seededRandom(seed)),
          `${durationMs} ms, seed ${seed}`,
        );
      }
    }
  });

  it("spreads at least 200 durations log-uniformly over 1 s to 1 h, every band of the curve populated", () => {
    const durations = logUniformDurationsMs(DEFAULT_BENCH_OPERATIONS, 13);
    assert.ok(durations.length >= 200);
    assert.ok(durations.every((d) => d >= MIN_DURATION_MS && d <= MAX_DURATION_MS));
    const { rows, total } = benchWaiterSchedule();
    assert.deepEqual(
      rows.map((r) => r.band),
      DURATION_BANDS.map(([band]) => band),
    );
    assert.ok(rows.every((r) => r.operations > 0));
    assert.equal(
      rows.reduce((n, r) => n + r.operations, 0),
      total.operations,
    );
    // Log-uniform: the share below 1 minute is ln(60) / ln(3600), about 50%.
    const underAMinute = durations.filter((d) => d < 60_000).length / durations.length;
    assert.ok(underAMinute > 0.4 && underAMinute < 0.6, `${underAMinute} below a minute`);
  });

  it("meets the goal with the default schedule at several seeds: mean <= 7%, worst <= 15%, polls <= Terraform's", () => {
    for (const seed of [13, 1, 2, 3, 42]) {
      const { total } = benchWaiterSchedule({ seed });
      assert.ok(total.meanDelayPct <= MAX_MEAN_DELAY_PCT, `seed ${seed}: mean ${total.meanDelayPct.toFixed(2)}%`);
      assert.ok(total.worstDelayPct <= MAX_WORST_DELAY_PCT, `seed ${seed}: worst ${total.worstDelayPct.toFixed(2)}%`);
      assert.ok(
        total.polls <= MAX_TOTAL_POLL_RATIO * total.terraformPolls,
        `seed ${seed}: ${total.polls} polls vs Terraform's ${total.terraformPolls}`,
      );
    }
  });

  it("tells schedules apart: Terraform's own schedule misses the delay goal, a coarser step misses the worst case", () => {
    const terraformLike = { initialDelayMs: 2000, relativeStep: 10, minDelayMs: 2000, maxDelayMs: 10_000, jitter: 0 };
    const terraform = benchWaiterSchedule({ schedule: terraformLike }).total;
    assert.ok(terraform.meanDelayPct > MAX_MEAN_DELAY_PCT, `${terraform.meanDelayPct}%`);
    const coarse = benchWaiterSchedule({ schedule: { ...DEFAULT_POLL_SCHEDULE, relativeStep: 0.3 } }).total;
    assert.ok(coarse.worstDelayPct > MAX_WORST_DELAY_PCT, `${coarse.worstDelayPct}%`);
  });

  it("is deterministic: the same seed gives the same rows", () => {
    assert.deepEqual(benchWaiterSchedule({ seed: 5 }), benchWaiterSchedule({ seed: 5 }));
    const random = seededRandom(42);
    const values = [random(), random(), random()];
    assert.ok(values.every((v) => v >= 0 && v < 1));
    assert.notEqual(values[0], values[1]);
  });
});
