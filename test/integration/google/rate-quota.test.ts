import { strict as assert } from "node:assert";
import { createGoogleClient } from "../../../provider/google/client";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import type { QuotaWaitEvent } from "../../../provider/google/quota-wait-event";
import type { RetryInfoEvent } from "../../../provider/google/retry";
import { createManualClock, fixture } from "../../../sandbox/google";
import type { ManualClock } from "../../../sandbox/google";
import { ALL_REQUESTED_SCOPES, DEPLOYER, sandboxEndpoints, useSandbox } from "./helpers";

const ROUTE = "compute.firewallPolicies.move";
const POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.engineeringIngress;
const TARGET = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const LIMIT = 4;
const WINDOW_MS = 1000;
const MOVES = 20;
const uuid = (i: number): string => `1b4e28ba-2fa1-41d2-883f-${String(i).padStart(12, "0")}`;

/**
 * Virtual time shared by the sandbox and a client making `calls` concurrent calls: it stands still while any call is
 * on the wire or between waits, and moves to the earliest wake-up once every unfinished call is waiting. The pacing is
 * then checked exactly, whatever the machine's load does to the wall clock (a 1 s window on a loaded machine let a
 * paced request reach the sandbox in the next window).
 */
function virtualTime(
  clock: ManualClock,
  calls: number,
): { sleep: (ms: number) => Promise<void>; finished: () => void } {
  const sleepers: { at: number; wake: () => void }[] = [];
  let finished = 0;
  const step = (): void => {
    if (sleepers.length === 0 || sleepers.length + finished < calls) return;
    const at = Math.min(...sleepers.map((s) => s.at));
    clock.set(Math.max(clock.now(), at));
    for (const due of sleepers.filter((s) => s.at <= at)) {
      sleepers.splice(sleepers.indexOf(due), 1);
      due.wake();
    }
  };
  return {
    sleep: (ms) =>
      new Promise<void>((wake) => {
        sleepers.push({ at: clock.now() + ms, wake });
        step();
      }),
    finished: () => {
      finished += 1;
      step();
    },
  };
}

describe("Google client against the sandbox: a rate quota on compute writes", function () {
  this.timeout(60_000);
  const clock = createManualClock();
  const sandbox = useSandbox({
    clock,
    moveDurationMs: 0,
    rateQuotas: [{ group: "computeWrites", limit: LIMIT, windowMs: WINDOW_MS }],
  });

  it("paces twenty concurrent moves to four a second: every move made once, rejections only before the first refill", async () => {
    const answered: { at: number; status: number }[] = [];
    const stop = sandbox().onRequest((e) => {
      if (e.phase === "answered" && e.entry.route === ROUTE) answered.push({ at: clock.now(), status: e.entry.status });
    });
    const retries: RetryInfoEvent[] = [];
    const waits: QuotaWaitEvent[] = [];
    const time = virtualTime(clock, MOVES);
    const client = createGoogleClient({
      now: () => clock.now(),
      sleep: time.sleep,
      settings: resolveGoogleSettings({
        explicit: {
          ...sandboxEndpoints(sandbox()),
          accessToken: sandbox().mintToken({ principal: DEPLOYER, scopes: ALL_REQUESTED_SCOPES }),
        },
      }),
      onRetry: (info) => retries.push(info),
    });
    const started = clock.now();
    const operations = await Promise.all(
      Array.from({ length: MOVES }, (_, i) =>
        client
          .call(
            ROUTE,
            { firewallPolicy: POLICY, parentId: TARGET, requestId: uuid(i) },
            { onQuotaWait: (e) => waits.push(e) },
          )
          .finally(time.finished),
      ),
    );
    stop();

    assert.deepEqual(
      operations.map((op) => op.clientOperationId).sort(),
      Array.from({ length: MOVES }, (_, i) => uuid(i)).sort(),
    );
    assert.equal(sandbox().audit().length, MOVES, "each move took effect once");
    const rejected = answered.filter((a) => a.status === 429);
    assert.ok(rejected.length > 0, "the quota was hit");
    const firstRefill = Math.min(...answered.filter((a) => a.status === 200).map((a) => a.at)) + WINDOW_MS;
    assert.ok(
      rejected.every((r) => r.at < firstRefill),
      `rejections after the pacer learned the quota: ${JSON.stringify(rejected.map((r) => r.at - started))}`,
    );
    assert.equal(answered.filter((a) => a.status === 200).length, MOVES);
    assert.ok(retries.every((r) => r.httpStatus === 429 && r.reason === "429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED"));
    assert.ok(waits.length >= MOVES - LIMIT * 2, `${waits.length} calls told why they wait`);
    assert.ok(
      waits.every(
        (w) =>
          w.quotaMetric === "compute.googleapis.com/write_requests" &&
          w.limitPerWindow === LIMIT &&
          w.windowMs === WINDOW_MS,
      ),
    );
    // Four per window: the sixteen moves left after the first window go at the next refill and three more after it.
    assert.ok(clock.now() - started >= 3 * WINDOW_MS, `${clock.now() - started} ms`);
  });
});
