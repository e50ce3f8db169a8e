import { strict as assert } from "node:assert";
import axios, { AxiosHeaders } from "axios";
import type { AxiosResponse, InternalAxiosRequestConfig } from "axios";
import { createGoogleClient } from "../../../provider/google/client";
import { delay } from "../../../provider/google/delay";
import { createLimiter, sharedLimiter } from "../../../provider/google/limiter";
import { countingTokens, testSettings } from "./helpers";

/** A promise with its resolver, to hold a task open until the test lets it finish. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Lets pending promise callbacks run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}

describe("limiter", () => {
  it("never runs more than its limit at once and runs the rest in order", async () => {
    const limiter = createLimiter(2);
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const runs = gates.map((g, i) =>
      limiter.run(async () => {
        started.push(i);
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await g.promise;
        inFlight--;
        return i;
      }),
    );
    await settle();
    assert.deepEqual(started, [0, 1]);
    assert.equal(limiter.inFlight, 2);
    assert.equal(limiter.queued, 3);
    gates[1]!.open();
    await settle();
    assert.deepEqual(started, [0, 1, 2]);
    for (const g of gates) g.open();
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4]);
    assert.equal(maxInFlight, 2);
    assert.equal(limiter.inFlight, 0);
  });

  it("frees a slot when the task throws", async () => {
    const limiter = createLimiter(1);
    await assert.rejects(
      limiter.run(() => Promise.reject(new Error("boom"))),
      /boom/,
    );
    assert.equal(await limiter.run(() => Promise.resolve("next")), "next");
  });

  it("drops an aborted waiter from the queue", async () => {
    const limiter = createLimiter(1);
    const hold = gate();
    const first = limiter.run(() => hold.promise);
    const controller = new AbortController();
    const waiting = limiter.run(() => Promise.resolve("never"), controller.signal);
    await settle();
    assert.equal(limiter.queued, 1);
    controller.abort(new Error("caller gave up"));
    await assert.rejects(waiting, /caller gave up/);
    assert.equal(limiter.queued, 0);
    hold.open();
    await first;
  });

  it("shares one limiter per service root and applies the latest limit", () => {
    const a = sharedLimiter("https://limiter-test.example/compute", 3);
    const b = sharedLimiter("https://limiter-test.example/compute", 5);
    const c = sharedLimiter("https://limiter-test.example/iam", 3);
    assert.equal(a, b);
    assert.equal(a.limit, 5);
    assert.notEqual(a, c);
  });

  it("bounds the client's concurrent requests per service with maxConcurrentRequests", async () => {
    const gates: (() => void)[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const instance = axios.create({
      adapter: async (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        const g = gate();
        gates.push(g.open);
        await g.promise;
        inFlight--;
        return { data: "{}", status: 200, statusText: "OK", headers: new AxiosHeaders(), config };
      },
    });
    const client = createGoogleClient({
      settings: testSettings({ maxConcurrentRequests: 3, computeCustomEndpoint: "https://limited.example/compute" }),
      axios: instance,
      tokenSource: countingTokens(),
    });
    const calls = Array.from({ length: 10 }, (_, i) =>
      client.call("compute.firewallPolicies.get", { firewallPolicy: String(i + 1) }),
    );
    for (let released = 0; released < 10;) {
      await settle();
      await new Promise((resolve) => setImmediate(resolve));
      assert.ok(inFlight <= 3, `in flight ${inFlight}`);
      const open = gates.splice(0);
      released += open.length;
      for (const o of open) o();
    }
    await Promise.all(calls);
    assert.equal(maxInFlight, 3);
  });
});

describe("delay", () => {
  it("resolves after the wait and rejects at once with the reason when aborted", async () => {
    await delay(0);
    const controller = new AbortController();
    const waiting = delay(600_000, controller.signal);
    controller.abort(new Error("stop waiting"));
    await assert.rejects(waiting, /stop waiting/);
    await assert.rejects(delay(10, AbortSignal.abort()), { name: "AbortError" });
  });
});
