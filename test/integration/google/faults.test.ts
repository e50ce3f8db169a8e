import { strict as assert } from "node:assert";
import { isApiError } from "../../../provider/errors/google/api-error";
import { fixture } from "../../../sandbox/google";
import { DEPLOYER, tokenClient, useSandbox } from "./helpers";

const ROUTE = "compute.firewallPolicies.move";
const POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.engineeringIngress;
const TARGET = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const UUID = "1b4e28ba-2fa1-41d2-883f-0016d3cca427";
const MOVE = { firewallPolicy: POLICY, parentId: TARGET, requestId: UUID };

describe("Google client against the sandbox: faults on the move", () => {
  const sandbox = useSandbox({ moveDurationMs: 0 });

  function assertOneMove(): void {
    const audit = sandbox().audit();
    assert.deepEqual(
      audit.map((e) => [e.kind, e.target, e.details.requestId]),
      [["firewallPolicies.move", `firewallPolicies/${POLICY}`, UUID]],
    );
  }

  it("retries two 503s and moves once", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "status", status: 503, times: 2 }]);
    const { client, retries } = tokenClient(sandbox(), DEPLOYER);
    const operation = await client.call(ROUTE, MOVE);
    assert.equal(operation.clientOperationId, UUID);
    assert.deepEqual(
      sandbox()
        .requests()
        .map((r) => [r.status, r.fault]),
      [
        [503, "status:503:before"],
        [503, "status:503:before"],
        [200, undefined],
      ],
    );
    assert.deepEqual(
      retries.map((r) => r.httpStatus),
      [503, 503],
    );
    assertOneMove();
  });

  it("waits out a 429 with Retry-After and moves once", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "status", status: 429, times: 1, retryAfterSeconds: 2 }]);
    const { client, delays, retries } = tokenClient(sandbox(), DEPLOYER, undefined, { manualClock: true });
    await client.call(ROUTE, MOVE);
    assert.equal(delays.length, 1);
    assert.ok(delays[0]! >= 2000, String(delays[0]));
    assert.equal(retries[0]?.serverDelayMs, 2000);
    assert.equal(sandbox().requests().length, 2);
    assertOneMove();
  });

  it("waits out a 429 with a RetryInfo detail and moves once", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "status", status: 429, times: 1, retryInfoDelay: "3s" }]);
    const { client, delays } = tokenClient(sandbox(), DEPLOYER, undefined, { manualClock: true });
    await client.call(ROUTE, MOVE);
    assert.equal(delays.length, 1);
    assert.ok(delays[0]! >= 3000, String(delays[0]));
    assertOneMove();
  });

  it("recovers from a connection dropped before the move and moves once", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "drop", phase: "before", times: 1 }]);
    const { client, retries } = tokenClient(sandbox(), DEPLOYER);
    await client.call(ROUTE, MOVE);
    assert.deepEqual(
      sandbox()
        .requests()
        .map((r) => [r.status, r.fault]),
      [
        [0, "drop:before"],
        [200, undefined],
      ],
    );
    assert.equal(retries[0]?.httpStatus, 0);
    assertOneMove();
  });

  it("recovers from a connection dropped after the move took effect: same operation, one audit entry", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "drop", phase: "after", times: 1 }]);
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const operation = await client.call(ROUTE, MOVE);
    assert.equal(sandbox().requests().length, 2);
    assert.equal(sandbox().requests()[0]?.fault, "drop:after");
    assertOneMove();
    assert.equal(sandbox().audit()[0]?.details.operation, operation.name);
  });

  it("recovers from a 503 sent after the move took effect", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "status", status: 503, phase: "after", times: 1 }]);
    const { client } = tokenClient(sandbox(), DEPLOYER);
    await client.call(ROUTE, MOVE);
    assertOneMove();
  });

  it("does not retry a 429 without rate-limit markers", async () => {
    sandbox().setFaults([{ route: ROUTE, kind: "status", status: 429, times: 1, reason: "QUOTA_EXCEEDED" }]);
    const { client } = tokenClient(sandbox(), DEPLOYER);
    await assert.rejects(client.call(ROUTE, MOVE), (error: unknown) => {
      assert.ok(isApiError(error));
      assert.equal(error.httpStatus, 429);
      assert.equal(error.reason, "QUOTA_EXCEEDED");
      return true;
    });
    assert.equal(sandbox().requests().length, 1);
    assert.deepEqual(sandbox().audit(), []);
  });

  it("times out a slow attempt and retries it", async () => {
    sandbox().setFaults([{ route: "compute.firewallPolicies.get", kind: "latency", latencyMs: 1500, times: 1 }]);
    const { client, retries } = tokenClient(sandbox(), DEPLOYER);
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }, { timeoutMs: 300 });
    assert.equal(policy.id, POLICY);
    assert.deepEqual(
      retries.map((r) => r.reason),
      ["timeout"],
    );
  });
});
