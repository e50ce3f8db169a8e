import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  SandboxInputError,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { call, DEPLOYER, moveUrl, notFoundBody, num, READER, str, token } from "./helpers";

const T0 = DEFAULT_MANUAL_CLOCK_START_MS;
const DURATION_MS = 3000;
const RETENTION_MS = 60_000;
const POLICY = "700000000002";
const FROM = "folders/200000000001";
const TO = "folders/200000000002";
const REQUEST_ID = "3f8e4b2a-9c1d-4e5f-8a7b-6c5d4e3f2a1b";

describe("Google sandbox firewall policy move", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  let deployer: string;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock, moveDurationMs: DURATION_MS, operationRetentionMs: RETENTION_MS });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(T0);
    sandbox.reset();
    deployer = token(sandbox, DEPLOYER, "compute");
  });

  const move = (query: string, who?: string) =>
    call(moveUrl(sandbox, POLICY, query), { method: "POST", token: who ?? deployer });
  const operation = (name: string) =>
    call(`${sandbox.endpoints.compute}/compute/v1/locations/global/operations/${name}`, { token: deployer });
  const parentOf = async (id: string): Promise<string> => {
    const url = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${id}`;
    return str((await call(url, { token: deployer })).body.parent);
  };

  it("denies the move to a principal without compute.firewallPolicies.move", async () => {
    const res = await move(`parentId=${TO}`, token(sandbox, READER, "cloud-platform"));
    const message = `Permission 'compute.firewallPolicies.move' denied on resource 'locations/global/firewallPolicies/${POLICY}' (or it may not exist).`;
    assert.equal(res.status, 403);
    assert.deepEqual(res.body, {
      error: {
        code: 403,
        message,
        errors: [{ message, domain: "global", reason: "forbidden" }],
        status: "PERMISSION_DENIED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "IAM_PERMISSION_DENIED",
            domain: "iam.googleapis.com",
            metadata: { permission: "compute.firewallPolicies.move" },
          },
        ],
      },
    });
    clock.advance(DURATION_MS);
    assert.equal(await parentOf(POLICY), FROM);
    assert.deepEqual(sandbox.audit(), []);
  });

  it("reports monotonic progress and DONE after moveDurationMs, changing the parent only then", async () => {
    const started = await move(`parentId=${TO}`);
    const name = str(started.body.name);
    const seen: [number, string, number][] = [];
    for (let elapsed = 0; elapsed <= DURATION_MS; elapsed += 250) {
      clock.set(T0 + elapsed);
      const op = (await operation(name)).body;
      seen.push([elapsed, str(op.status), num(op.progress)]);
      if (elapsed < DURATION_MS) assert.equal(await parentOf(POLICY), FROM, `parent unchanged at ${elapsed} ms`);
    }
    assert.deepEqual(seen, [
      [0, "PENDING", 0],
      [250, "RUNNING", 15],
      [500, "RUNNING", 30],
      [750, "RUNNING", 43],
      [1000, "RUNNING", 55],
      [1250, "RUNNING", 65],
      [1500, "RUNNING", 75],
      [1750, "RUNNING", 82],
      [2000, "RUNNING", 88],
      [2250, "RUNNING", 93],
      [2500, "RUNNING", 97],
      [2750, "RUNNING", 99],
      [3000, "DONE", 100],
    ]);
    const done = (await operation(name)).body;
    // Compute writes Pacific time with its offset and milliseconds.
    assert.equal(done.startTime, "2025-12-31T16:00:00.000-08:00");
    assert.equal(done.endTime, "2025-12-31T16:00:03.000-08:00");
    assert.equal("error" in done || "httpErrorStatusCode" in done || "warnings" in done, false);
    assert.equal(await parentOf(POLICY), TO);
    assert.deepEqual(sandbox.audit(), [
      {
        seq: 1,
        timeMs: T0 + DURATION_MS,
        source: "api",
        kind: "firewallPolicies.move",
        target: `firewallPolicies/${POLICY}`,
        details: { from: FROM, to: TO, principal: DEPLOYER, operation: name },
      },
    ]);
  });

  it("returns the original operation for a repeated requestId, with one effect and one audit entry", async () => {
    const first = await move(`parentId=${TO}&requestId=${REQUEST_ID}`);
    clock.advance(1000);
    const second = await move(`parentId=${TO}&requestId=${REQUEST_ID}`);
    assert.equal(second.status, 200);
    assert.equal(second.body.name, first.body.name);
    assert.equal(second.body.id, first.body.id);
    assert.equal(second.body.insertTime, first.body.insertTime);
    assert.equal(second.body.status, "RUNNING");
    clock.advance(DURATION_MS);
    const third = await move(`parentId=folders/200000000003&requestId=${REQUEST_ID.toUpperCase()}`);
    assert.deepEqual([third.body.name, third.body.status], [first.body.name, "DONE"]);
    assert.equal(await parentOf(POLICY), TO);
    assert.equal(sandbox.audit().length, 1);
    assert.equal(sandbox.audit()[0]?.details.requestId, REQUEST_ID);
    const other = await move(`parentId=${FROM}&requestId=${REQUEST_ID.replace("3f8e", "4f8e")}`);
    assert.notEqual(other.body.name, first.body.name);
  });

  it("yields a successful operation for a move to the current parent", async () => {
    const res = await move(`parentId=${FROM}`);
    clock.advance(DURATION_MS);
    const done = (await operation(str(res.body.name))).body;
    assert.deepEqual([done.status, done.progress, done.error], ["DONE", 100, undefined]);
    assert.deepEqual(sandbox.audit()[0]?.details, {
      from: FROM,
      to: FROM,
      principal: DEPLOYER,
      operation: res.body.name,
    });
  });

  it("forgets a completed operation after operationRetentionMs", async () => {
    const res = await move(`parentId=${TO}&requestId=${REQUEST_ID}`);
    const name = str(res.body.name);
    clock.advance(DURATION_MS + RETENTION_MS);
    assert.equal((await operation(name)).status, 200);
    clock.advance(1);
    const gone = await operation(name);
    assert.equal(gone.status, 404);
    assert.deepEqual(gone.body, notFoundBody(`The resource 'locations/global/operations/${name}' was not found`));
    const again = await move(`parentId=${TO}&requestId=${REQUEST_ID}`);
    assert.notEqual(again.body.name, name, "the requestId is forgotten with its operation");
  });

  it("ends a quotaExceeded move with the compute error shape and no parent change", async () => {
    sandbox.setMoveOutcome({ kind: "quotaExceeded" });
    const res = await move(`parentId=${TO}`);
    clock.advance(DURATION_MS);
    const op = (await operation(str(res.body.name))).body;
    const message = `Quota 'FIREWALL_POLICIES_PER_CONTAINER' exceeded.  Limit: 10.0 in ${TO}.`;
    assert.equal(op.status, "DONE");
    assert.equal(op.httpErrorStatusCode, 403);
    assert.equal(op.httpErrorMessage, "FORBIDDEN");
    assert.deepEqual(op.error, {
      errors: [
        {
          code: "QUOTA_EXCEEDED",
          message,
          errorDetails: [
            {
              errorInfo: {
                reason: "QUOTA_EXCEEDED",
                domain: "compute.googleapis.com",
                metadatas: {
                  quotaMetric: "compute.googleapis.com/firewall_policies_per_container",
                  limitName: "FIREWALL-POLICIES-PER-CONTAINER",
                  container: TO,
                  firewallPolicy: POLICY,
                },
              },
            },
            {
              quotaInfo: {
                metricName: "compute.googleapis.com/firewall_policies_per_container",
                limitName: "FIREWALL-POLICIES-PER-CONTAINER",
                limit: 10,
                dimensions: { container: TO },
              },
            },
            {
              help: {
                links: [
                  {
                    description: "Requesting more quota",
                    url: "https://cloud.google.com/docs/quotas/help/request_increase",
                  },
                ],
              },
            },
            { localizedMessage: { locale: "en-US", message } },
          ],
        },
      ],
    });
    assert.equal(await parentOf(POLICY), FROM);
    assert.deepEqual(sandbox.audit(), []);
  });

  it("produces an out-of-spec operation: a long reason, a bad metadata key and progress that drops once", async () => {
    sandbox.setMoveOutcome({ kind: "outOfSpec" });
    const res = await move(`parentId=${TO}`);
    const progress: number[] = [];
    for (let elapsed = 250; elapsed < DURATION_MS; elapsed += 250) {
      clock.set(T0 + elapsed);
      progress.push(num((await operation(str(res.body.name))).body.progress));
    }
    const drops = progress.filter((p, i) => i > 0 && p < (progress[i - 1] ?? 0));
    assert.deepEqual(progress, [15, 30, 43, 55, 65, 45, 52, 58, 93, 97, 99]);
    assert.equal(drops.length, 1);
    clock.set(T0 + DURATION_MS);
    const done = (await operation(str(res.body.name))).body;
    const info = done.error?.errors?.[0]?.errorDetails?.[0]?.errorInfo;
    const reason = str(info?.reason);
    assert.ok(reason.length > 63, `reason has ${reason.length} characters`);
    assert.ok(
      Object.keys(info?.metadatas ?? {}).some((k) => !/^[a-z][a-zA-Z0-9-_]+$/.test(k)),
      "a metadatas key violates /[a-z][a-zA-Z0-9-_]+/",
    );
    assert.deepEqual([done.status, done.httpErrorStatusCode], ["DONE", 500]);
    assert.equal(await parentOf(POLICY), FROM);
  });

  it("keeps the outcome for the next moves until changed, and reset() restores success", async () => {
    const warnings = [{ code: "NOT_CRITICAL_ERROR", message: "Association propagation is delayed." }];
    sandbox.setMoveOutcome({ kind: "success", warnings });
    const a = await move(`parentId=${TO}`);
    const b = await move(`parentId=${FROM}`);
    clock.advance(DURATION_MS);
    assert.deepEqual((await operation(str(a.body.name))).body.warnings, warnings);
    assert.deepEqual((await operation(str(b.body.name))).body.warnings, warnings);
    sandbox.reset();
    deployer = token(sandbox, DEPLOYER, "compute");
    const c = await move(`parentId=${TO}`);
    clock.advance(DURATION_MS);
    assert.equal((await operation(str(c.body.name))).body.warnings, undefined);
  });

  it("moves a policy out of band with setParent and audits it as the control plane", async () => {
    sandbox.setParent(POLICY, "organizations/100000000001");
    assert.equal(await parentOf(POLICY), "organizations/100000000001");
    assert.deepEqual(sandbox.audit(), [
      {
        seq: 1,
        timeMs: T0,
        source: "control-plane",
        kind: "firewallPolicies.setParent",
        target: `firewallPolicies/${POLICY}`,
        details: { from: FROM, to: "organizations/100000000001" },
      },
    ]);
    assert.throws(
      () => {
        sandbox.setParent(POLICY, "folders/999");
      },
      new SandboxInputError({ operation: "setParent", message: "parent 'folders/999' does not exist" }),
    );
    assert.throws(() => {
      sandbox.setParent("123", TO);
    }, /^SandboxInputError: setParent: no firewall policy '123'$/);
  });

  it("applies the move at once when moveDurationMs is 0", async () => {
    const instant = await startGoogleSandbox({ clock, moveDurationMs: 0 });
    try {
      const t = token(instant, DEPLOYER, "cloud-platform");
      const res = await call(moveUrl(instant, POLICY, `parentId=${TO}`), { method: "POST", token: t });
      assert.deepEqual([res.body.status, res.body.progress], ["DONE", 100]);
      assert.equal(instant.audit().length, 1);
    } finally {
      await instant.close();
    }
  });
});
