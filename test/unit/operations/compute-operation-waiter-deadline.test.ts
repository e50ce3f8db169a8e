/** waitForComputeOperation's deadline and abort: every wait bounded by the time left, and a signal ends it at once. */
import assert from "node:assert/strict";
import { DeadlineError } from "../../../provider/errors";
import { waitForComputeOperation } from "../../../provider/operations/compute-operation-waiter";
import { op, TARGET, zero } from "./compute-fakes";
import { FakeClock, scriptedPoll } from "./fakes";

describe("waitForComputeOperation", () => {
  it("throws a DeadlineError at timeoutMs, with every sleep bounded by the remaining time", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING", 40, { statusMessage: "Moving rules" })]);

    const error = await waitForComputeOperation(poll, { target: TARGET, timeoutMs: 2000, clock, random: zero }).then(
      () => assert.fail("expected a DeadlineError"),
      (e: unknown) => e,
    );

    assert.ok(error instanceof DeadlineError);
    assert.equal(
      error.message,
      "Operation operation-123 (move of firewall policy 300000000001) did not finish within 2 s (waited 2 s); " +
        'last status RUNNING, progress 40% ("Moving rules"). It may still finish on the server: ' +
        "raise timeoutMs or check the operation again later",
    );
    assert.equal(error.target, "operation operation-123 (move of firewall policy 300000000001)");
    assert.equal(error.elapsedMs, 2000);
    assert.equal(error.aborted, false);
    assert.deepEqual(clock.sleeps, [1000, 140, 160, 182, 207, 236, 75]);
    assert.deepEqual(poll.calls, [0, 1000, 1140, 1300, 1482, 1689, 1925, 2000]);
  });

  it("clamps the jittered waits to the deadline", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING")]);
    await assert.rejects(waitForComputeOperation(poll, { timeoutMs: 1500, clock, random: () => 1 }), DeadlineError);
    assert.deepEqual(clock.sleeps, [850, 128, 116, 130, 146, 130]);
    assert.equal(clock.nowMs, 1500);
  });

  it("ends with an aborted DeadlineError when the signal aborts during a sleep", async () => {
    const clock = new FakeClock();
    clock.hold = true;
    const poll = scriptedPoll(clock, [op("RUNNING", 10)]);
    const controller = new AbortController();
    const sleeping = clock.nextSleep();
    const waiting = waitForComputeOperation(poll, { signal: controller.signal, clock, random: zero });
    await sleeping;
    clock.nowMs = 1234;
    const reason = new Error("user pressed Ctrl-C");
    controller.abort(reason);

    const error = await waiting.then(
      () => assert.fail("expected a DeadlineError"),
      (e: unknown) => e,
    );
    assert.ok(error instanceof DeadlineError);
    assert.equal(error.aborted, true);
    assert.equal(error.elapsedMs, 1234);
    assert.equal(error.cause, reason);
    assert.equal(
      error.message,
      "Stopped waiting for operation operation-123 after 1.2 s: the wait was aborted; last status RUNNING, progress 10%",
    );
    assert.deepEqual(clock.sleeps, [1000]);
    assert.equal(poll.calls.length, 1);
  });

  it("does not depend on the clock honouring the signal: a sleep that never ends is abandoned on abort", async () => {
    const clock = new FakeClock();
    clock.hold = true;
    clock.ignoreAbort = true;
    const controller = new AbortController();
    const sleeping = clock.nextSleep();
    const waiting = waitForComputeOperation(scriptedPoll(clock, [op("RUNNING")]), { signal: controller.signal, clock });
    await sleeping;
    controller.abort();
    await assert.rejects(waiting, { name: "DeadlineError", aborted: true });
  });

  it("aborts the poll in flight and ends without waiting for it", async () => {
    const clock = new FakeClock();
    const signals: AbortSignal[] = [];
    let pollStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => {
      pollStarted = resolve;
    });
    const hangingPoll = (signal: AbortSignal): Promise<never> => {
      signals.push(signal);
      pollStarted();
      return new Promise<never>(() => undefined);
    };
    const controller = new AbortController();
    const waiting = waitForComputeOperation(hangingPoll, {
      initial: op("RUNNING"),
      signal: controller.signal,
      clock,
      random: zero,
    });
    await started;
    controller.abort();

    await assert.rejects(waiting, {
      name: "DeadlineError",
      aborted: true,
      message: "Stopped waiting for operation operation-123 after 1 s: the wait was aborted; last status RUNNING",
    });
    assert.equal(signals.length, 1);
    assert.equal(signals[0]?.aborted, true);
  });

  it("ends at once, without polling, when the signal is already aborted", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING")]);
    await assert.rejects(waitForComputeOperation(poll, { signal: AbortSignal.abort(), target: TARGET, clock }), {
      name: "DeadlineError",
      aborted: true,
      message:
        "Stopped waiting for unnamed operation (move of firewall policy 300000000001) after 0 ms: the wait was aborted; no status was seen yet",
    });
    assert.deepEqual(poll.calls, []);
  });
});
