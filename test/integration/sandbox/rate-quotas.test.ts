import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { call, DEPLOYER, moveUrl } from "./helpers";
import { COMPUTE_WRITE_QUOTA_MESSAGE, computeWriteQuotaMetadata } from "../../helpers/google-rate-limit";

const MOVE = "compute.firewallPolicies.move";
const uuid = (i: number): string => `0b7d4f3e-2c1a-4b9d-8e7f-${String(i).padStart(12, "0")}`;

const MESSAGE = COMPUTE_WRITE_QUOTA_MESSAGE;

/** The rejection as Google's front end words it (ErrorInfo metadata as in Google's error samples). */
function rateLimitBody(code: number, status: string, limit: number, retryDelay: string): unknown {
  return {
    error: {
      code,
      message: MESSAGE,
      errors: [{ message: MESSAGE, domain: "usageLimits", reason: "rateLimitExceeded" }],
      status,
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "RATE_LIMIT_EXCEEDED",
          domain: "googleapis.com",
          metadata: computeWriteQuotaMetadata(limit),
        },
        {
          "@type": "type.googleapis.com/google.rpc.Help",
          links: [
            {
              description: "Request a higher quota limit.",
              url: "https://cloud.google.com/docs/quotas/help/request_increase",
            },
          ],
        },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
      ],
    },
  };
}

describe("Google sandbox rate quotas", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  let t: string;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({
      clock,
      moveDurationMs: 0,
      rateQuotas: [{ group: "computeWrites", limit: 2 }],
    });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(DEFAULT_MANUAL_CLOCK_START_MS);
    sandbox.reset();
    t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["cloud-platform"] });
  });

  const move = (i: number) =>
    call(moveUrl(sandbox, "700000000002", `parentId=folders/200000000002&requestId=${uuid(i)}`), {
      method: "POST",
      token: t,
    });

  it("accepts the limit per minute, then answers 429 RATE_LIMIT_EXCEEDED naming the quota until the next minute", async () => {
    assert.deepEqual([(await move(1)).status, (await move(2)).status], [200, 200]);
    clock.advance(15_250);
    const rejected = await move(3);
    assert.equal(rejected.status, 429);
    assert.deepEqual(rejected.body, rateLimitBody(429, "RESOURCE_EXHAUSTED", 2, "44.75s"));
    assert.equal(rejected.headers.get("retry-after"), "45");
    clock.advance(44_749);
    assert.equal((await move(4)).status, 429, "still the same minute");
    clock.advance(1);
    assert.deepEqual([(await move(5)).status, (await move(6)).status, (await move(7)).status], [200, 200, 429]);
    assert.deepEqual(
      sandbox.requests().map((r) => [r.route, r.status]),
      [200, 200, 429, 429, 200, 200, 429].map((status) => [MOVE, status]),
    );
    assert.equal(sandbox.audit().length, 4, "rejected moves have no effect");
  });

  it("counts only compute writes: reads and other services pass", async () => {
    await move(1);
    await move(2);
    const get = await call(`${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000002`, {
      token: t,
    });
    assert.equal(get.status, 200);
    assert.equal((await move(3)).status, 429);
  });

  it("answers Compute's 403 when configured so, and takes new quotas from the control plane until reset", async () => {
    const set = await call(`${sandbox.url}/_sandbox/rate-quotas`, {
      method: "POST",
      body: JSON.stringify({ quotas: [{ group: "computeWrites", limit: 1, httpStatus: 403 }] }),
    });
    assert.equal(set.status, 200);
    assert.equal((await move(1)).status, 200);
    const rejected = await move(2);
    assert.equal(rejected.status, 403);
    assert.deepEqual(rejected.body, rateLimitBody(403, "PERMISSION_DENIED", 1, "60s"));
    sandbox.reset();
    t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["cloud-platform"] });
    assert.deepEqual([(await move(3)).status, (await move(4)).status, (await move(5)).status], [200, 200, 429]);
  });

  it("refuses a quota it cannot enforce, naming the field", async () => {
    assert.throws(() => {
      sandbox.setRateQuotas([{ group: "computeWrites", limit: -1 }]);
    }, /quota 0: limit must be an integer >= 0/);
    const bad = await call(`${sandbox.url}/_sandbox/rate-quotas`, {
      method: "POST",
      body: JSON.stringify([{ group: "everything", limit: 5 }]),
    });
    assert.equal(bad.status, 400);
    assert.match(JSON.stringify(bad.body), /quota 0: group must be one of computeWrites/);
  });

  it("reports the requests in flight per service and the most at once", async () => {
    sandbox.setFaults([{ route: "compute.firewallPolicies.get", kind: "latency", latencyMs: 200 }]);
    const url = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000002`;
    await Promise.all(Array.from({ length: 5 }, () => call(url, { token: t })));
    const { inFlight, maxInFlight } = sandbox.concurrency();
    assert.equal(inFlight["compute"], 0);
    assert.equal(maxInFlight["compute"], 5);
    const control = await call(`${sandbox.url}/_sandbox/concurrency`);
    assert.deepEqual(control.body, { inFlight: { compute: 0 }, maxInFlight: { compute: 5 } });
  });
});
