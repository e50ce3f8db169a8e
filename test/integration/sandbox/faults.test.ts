import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { call, DEPLOYER, moveUrl } from "./helpers";

const MOVE = "compute.firewallPolicies.move";
const REQUEST_ID = "0b7d4f3e-2c1a-4b9d-8e7f-6a5b4c3d2e1f";
const QUERY = `parentId=folders/200000000002&requestId=${REQUEST_ID}`;
const DURATION_MS = 1000;

describe("Google sandbox faults", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  let t: string;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock, moveDurationMs: DURATION_MS, faultSeed: 42 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(DEFAULT_MANUAL_CLOCK_START_MS);
    sandbox.reset();
    t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["cloud-platform"] });
  });

  const move = () => call(moveUrl(sandbox, "700000000002", QUERY), { method: "POST", token: t });
  const finishAndAudit = () => {
    clock.advance(DURATION_MS);
    return sandbox.audit();
  };

  it("fails a request with 503 UNAVAILABLE before handling it, as often as `times` says", async () => {
    sandbox.setFaults([{ route: MOVE, kind: "status", status: 503, times: 2 }]);
    const first = await move();
    const second = await move();
    const third = await move();
    assert.equal(first.status, 503);
    assert.deepEqual(first.body, {
      error: {
        code: 503,
        message: "The service is currently unavailable.",
        errors: [{ message: "The service is currently unavailable.", domain: "global", reason: "backendError" }],
        status: "UNAVAILABLE",
      },
    });
    assert.deepEqual([second.status, third.status], [503, 200]);
    assert.deepEqual(
      sandbox.requests().map((r) => [r.route, r.status, r.fault]),
      [
        [MOVE, 503, "status:503:before"],
        [MOVE, 503, "status:503:before"],
        [MOVE, 200, undefined],
      ],
    );
    assert.equal(finishAndAudit().length, 1, "only the request that got through had an effect");
  });

  it("sends 429 RESOURCE_EXHAUSTED with a Retry-After header and a RetryInfo detail", async () => {
    sandbox.setFaults([
      { route: MOVE, kind: "status", status: 429, retryAfterSeconds: 7, retryInfoDelay: "2s", times: 1 },
    ]);
    const res = await move();
    const message =
      "Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service 'compute.googleapis.com' for consumer 'project_number:123456789012'.";
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "7");
    assert.deepEqual(res.body, {
      error: {
        code: 429,
        message,
        errors: [{ message, domain: "global", reason: "rateLimitExceeded" }],
        status: "RESOURCE_EXHAUSTED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "RATE_LIMIT_EXCEEDED",
            domain: "googleapis.com",
            metadata: {
              service: "compute.googleapis.com",
              quota_metric: "compute.googleapis.com/queries",
              quota_limit: "QueriesPerMinutePerProject",
              consumer: "projects/123456789012",
            },
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "2s" },
        ],
      },
    });
    assert.equal(sandbox.requests()[0]?.fault, "status:429:before");
  });

  it("drops the connection before handling: no response and no effect", async () => {
    sandbox.setFaults([{ route: MOVE, kind: "drop", times: 1 }]);
    await assert.rejects(move(), (e: unknown) => e instanceof TypeError && e.message === "fetch failed");
    assert.deepEqual(sandbox.requests(), [
      {
        method: "POST",
        path: "/compute/compute/v1/locations/global/firewallPolicies/700000000002/move",
        query: { parentId: "folders/200000000002", requestId: REQUEST_ID },
        status: 0,
        route: MOVE,
        fault: "drop:before",
      },
    ]);
    assert.deepEqual(finishAndAudit(), []);
  });

  it("drops the connection after handling: the move happened and a retry returns the same operation", async () => {
    sandbox.setFaults([{ route: MOVE, kind: "drop", phase: "after", times: 1 }]);
    await assert.rejects(move(), /fetch failed/);
    const retry = await move();
    assert.equal(retry.status, 200);
    assert.deepEqual(
      sandbox.requests().map((r) => [r.status, r.fault, r.principal]),
      [
        [0, "drop:after", DEPLOYER],
        [200, undefined, DEPLOYER],
      ],
    );
    const audit = finishAndAudit();
    assert.equal(audit.length, 1);
    assert.equal(audit[0]?.details.operation, retry.body.name);
  });

  it("answers 503 after handling: the effect happened although the client saw an error", async () => {
    sandbox.setFaults([{ route: MOVE, method: "post", kind: "status", status: 503, phase: "after", times: 1 }]);
    assert.equal((await move()).status, 503);
    assert.equal(sandbox.requests()[0]?.fault, "status:503:after");
    assert.equal(finishAndAudit().length, 1);
  });

  it("delays a response by latencyMs", async () => {
    sandbox.setFaults([{ route: "compute.firewallPolicies.get", kind: "latency", latencyMs: 150 }]);
    const url = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`;
    const started = performance.now();
    const res = await call(url, { token: t });
    const elapsedMs = performance.now() - started;
    assert.equal(res.status, 200);
    assert.ok(elapsedMs >= 145, `took ${elapsedMs} ms`);
    assert.equal(sandbox.requests()[0]?.fault, "latency:150");
  });

  it("fires rate-limited rules from the seeded PRNG, the same way after reset()", async () => {
    const url = `${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`;
    const pattern = async (): Promise<number[]> => {
      const chatToken = sandbox.mintToken({ principal: DEPLOYER, scopes: ["chat.bot"] });
      sandbox.setFaults([{ kind: "status", status: 500, rate: 0.5 }]);
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) statuses.push((await call(url, { token: chatToken })).status);
      return statuses;
    };
    const first = await pattern();
    sandbox.reset();
    const second = await pattern();
    assert.deepEqual(second, first);
    const failures = first.filter((s) => s === 500).length;
    assert.ok(failures > 0 && failures < 16, `${failures} of 16 failed`);
    const other = await startGoogleSandbox({ faultSeed: 7 });
    try {
      const chatToken = other.mintToken({ principal: DEPLOYER, scopes: ["chat.bot"] });
      other.setFaults([{ kind: "status", status: 500, rate: 0.5 }]);
      const statuses: number[] = [];
      for (let i = 0; i < 16; i++) {
        statuses.push(
          (
            await call(`${other.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`, {
              token: chatToken,
            })
          ).status,
        );
      }
      assert.notDeepEqual(statuses, first, "another seed gives another pattern");
    } finally {
      await other.close();
    }
  });

  it("leaves routes and methods a rule does not name alone, and clearFaults() removes every rule", async () => {
    sandbox.setFaults([
      { route: "compute.firewallPolicies.get", kind: "status", status: 503 },
      { route: MOVE, method: "GET", kind: "status", status: 503 },
    ]);
    assert.equal((await move()).status, 200);
    const get = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`;
    assert.equal((await call(get, { token: t })).status, 503);
    sandbox.clearFaults();
    assert.equal((await call(get, { token: t })).status, 200);
  });

  it("rejects rules that cannot work", () => {
    assert.throws(() => {
      sandbox.setFaults([{ kind: "status", rate: 2 }]);
    }, /^SandboxInputError: setFaults: rule 0: rate must be between 0 and 1$/);
    assert.throws(() => {
      sandbox.setFaults([{ kind: "drop" }, { kind: "status", retryInfoDelay: "2 seconds" }]);
    }, /^SandboxInputError: setFaults: rule 1: retryInfoDelay must be a duration such as "2s"$/);
  });
});
