import assert from "node:assert/strict";
import { systemClock } from "../../../provider/operations/clock";

describe("systemClock", () => {
  it("rejects a pending sleep as soon as its signal aborts, with the abort reason", async () => {
    const controller = new AbortController();
    const sleeping = systemClock.sleep(60_000, controller.signal);
    const reason = new Error("stop");
    controller.abort(reason);
    await assert.rejects(sleeping, (e: unknown) => e === reason);
  });

  it("rejects at once when the signal is already aborted", async () => {
    await assert.rejects(systemClock.sleep(60_000, AbortSignal.abort("gone")), { message: "aborted", cause: "gone" });
  });

  it("reads a monotonic clock", () => {
    const first = systemClock.now();
    assert.ok(systemClock.now() >= first);
  });
});
