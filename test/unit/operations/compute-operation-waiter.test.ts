import assert from "node:assert/strict";
import { DeadlineError, OpsLedgerError, ValidationError } from "../../../provider/errors";
import { waitForComputeOperation } from "../../../provider/operations/compute-operation-waiter";
import { OperationError } from "../../../provider/errors/operations/operation-error";
import type { ComputeOperation } from "../../../provider/operations/operation-types";
import { op, TARGET, zero } from "./compute-fakes";
import { FakeClock, recorder, scriptedPoll } from "./fakes";

/** A DONE operation that failed with every kind of error detail. */
const FAILED: ComputeOperation = op("DONE", 100, {
  httpErrorStatusCode: 403,
  httpErrorMessage: "FORBIDDEN",
  error: {
    errors: [
      {
        code: "QUOTA_EXCEEDED",
        message: "Quota 'FIREWALL_POLICY_MOVES' exceeded. Limit: 10 globally.",
        errorDetails: [
          {
            errorInfo: {
              reason: "QUOTA_EXCEEDED",
              domain: "compute.googleapis.com",
              metadatas: { quota_limit: "FIREWALL-POLICY-MOVES-per-project", quota_limit_value: "10" },
            },
          },
          {
            quotaInfo: {
              metricName: "compute.googleapis.com/firewall_policy_moves",
              limitName: "FIREWALL-POLICY-MOVES-per-project",
              limit: 10,
              futureLimit: 20,
              rolloutStatus: "IN_PROGRESS",
              dimensions: { global: "global" },
            },
          },
          {
            help: {
              links: [
                {
                  description: "Request a higher quota limit.",
                  url: "https://cloud.google.com/docs/quotas/help/request_increase",
                },
              ],
            },
          },
          { localizedMessage: { locale: "en-US", message: "Quota exceeded for firewall policy moves." } },
        ],
      },
      {
        code: "INVALID_FIELD_VALUE",
        location: "parentId",
        message: "Invalid value for field 'parentId': 'folders/abc'.",
      },
    ],
  },
  warnings: [
    {
      code: "NOT_CRITICAL_ERROR",
      message: "Some regions are unreachable.",
      data: [{ key: "scope", value: "regions/us-east1" }],
    },
  ],
});

describe("waitForComputeOperation", () => {
  it("reports PENDING, RUNNING 10/40/80 and DONE once each, and stops at DONE", async () => {
    const clock = new FakeClock();
    const done = op("DONE", 100, { endTime: "2026-10-01T00:00:20Z" });
    const sequence = [op("PENDING", 0), op("RUNNING", 10), op("RUNNING", 10), op("RUNNING", 40), op("RUNNING", 80)];
    const poll = scriptedPoll(clock, [...sequence, op("RUNNING", 80), done]);
    const seen = recorder();

    const result = await waitForComputeOperation(poll, { target: TARGET, clock, random: zero, ...seen });

    assert.deepEqual(result, done);
    assert.deepEqual(
      seen.events.map((e) => [e.status, e.progress, e.elapsedMs]),
      [
        ["PENDING", 0, 0],
        ["RUNNING", 10, 1000],
        ["RUNNING", 40, 1300],
        ["RUNNING", 80, 1482],
        ["DONE", 100, 1925],
      ],
    );
    assert.deepEqual(poll.calls, [0, 1000, 1140, 1300, 1482, 1689, 1925]);
    assert.deepEqual(clock.sleeps, [1000, 140, 160, 182, 207, 236]);
    assert.deepEqual(seen.warnings, []);
  });

  it("returns an initial operation that is already DONE without polling", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING")]);
    const seen = recorder();
    const initial = op("DONE", 100);

    assert.equal(await waitForComputeOperation(poll, { initial, clock, ...seen }), initial);
    assert.deepEqual(poll.calls, []);
    assert.deepEqual(clock.sleeps, []);
    assert.deepEqual(seen.events, [{ status: "DONE", progress: 100, elapsedMs: 0 }]);
  });

  it("takes a running initial operation as the first observation and waits before the first poll", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("DONE")]);
    await waitForComputeOperation(poll, { initial: op("PENDING"), clock, random: zero });
    assert.deepEqual(poll.calls, [1000]);
    assert.deepEqual(clock.sleeps, [1000]);
  });

  it("throws an OperationError that renders every error detail and keeps the data", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING", 50), FAILED]);
    const seen = recorder();

    const error = await waitForComputeOperation(poll, { target: TARGET, clock, random: zero, ...seen }).then(
      () => assert.fail("expected an OperationError"),
      (e: unknown) => e,
    );

    assert.ok(error instanceof OperationError);
    assert.ok(error instanceof OpsLedgerError);
    assert.equal(error.name, "OperationError");
    assert.equal(
      error.message,
      [
        "Operation operation-123 (move of firewall policy 300000000001) failed: HTTP 403 FORBIDDEN",
        "  QUOTA_EXCEEDED: Quota 'FIREWALL_POLICY_MOVES' exceeded. Limit: 10 globally.",
        "    reason QUOTA_EXCEEDED (compute.googleapis.com) {quota_limit=FIREWALL-POLICY-MOVES-per-project, quota_limit_value=10}",
        "    quota metric compute.googleapis.com/firewall_policy_moves, limit 10 (FIREWALL-POLICY-MOVES-per-project), future limit 20, rollout IN_PROGRESS, dimensions {global=global}",
        "    help: Request a higher quota limit. <https://cloud.google.com/docs/quotas/help/request_increase>",
        "    message (en-US): Quota exceeded for firewall policy moves.",
        "  INVALID_FIELD_VALUE (at parentId): Invalid value for field 'parentId': 'folders/abc'.",
        "  warning NOT_CRITICAL_ERROR: Some regions are unreachable. {scope=regions/us-east1}",
      ].join("\n"),
    );
    assert.equal(error.kind, "compute");
    assert.equal(error.operationName, "operation-123");
    assert.equal(error.target, TARGET);
    assert.equal(error.httpErrorStatusCode, 403);
    assert.equal(error.httpErrorMessage, "FORBIDDEN");
    assert.deepEqual(error.errors, FAILED.error?.errors);
    assert.deepEqual(error.warnings, FAILED.warnings);
    assert.equal(error.status, undefined);
    assert.deepEqual(seen.warnings, [], "warnings of a failed operation belong to the error, not onWarning");
    assert.equal(poll.calls.length, 2);
  });

  it("fails when DONE with httpErrorStatusCode 400 or more even without errors", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("DONE", 100, { httpErrorStatusCode: 404, httpErrorMessage: "NOT FOUND" })]);
    await assert.rejects(waitForComputeOperation(poll, { clock }), {
      name: "OperationError",
      message: "Operation operation-123 failed: HTTP 404 NOT FOUND",
    });
  });

  it("passes the warnings of a successful operation to onWarning, with code, message and data", async () => {
    const clock = new FakeClock();
    const warnings = [
      {
        code: "DEPRECATED_RESOURCE_USED",
        message: "The resource 'x' is deprecated.",
        data: [
          { key: "resource", value: "x" },
          { key: "replacement", value: "y" },
        ],
      },
      { code: "NO_RESULTS_ON_PAGE", message: "No results." },
    ];
    const poll = scriptedPoll(clock, [op("DONE", 100, { warnings })]);
    const seen = recorder();
    await waitForComputeOperation(poll, { target: TARGET, clock, ...seen });
    assert.deepEqual(seen.warnings, [
      "Operation operation-123 (move of firewall policy 300000000001): warning DEPRECATED_RESOURCE_USED: The resource 'x' is deprecated. {resource=x, replacement=y}",
      "Operation operation-123 (move of firewall policy 300000000001): warning NO_RESULTS_ON_PAGE: No results.",
    ]);
  });

  it("reports an unknown status once and keeps polling until DONE", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("CANCELLING"), op("CANCELLING"), op("DONE")]);
    const seen = recorder();
    await waitForComputeOperation(poll, { clock, random: zero, ...seen });
    assert.deepEqual(seen.warnings, [
      'Operation operation-123: unknown status "CANCELLING" (expected PENDING, RUNNING or DONE); treating it as not done',
    ]);
    assert.deepEqual(
      seen.events.map((e) => e.status),
      ["CANCELLING", "DONE"],
    );
    assert.equal(poll.calls.length, 3);
  });

  it("lets poll errors propagate unchanged", async () => {
    const clock = new FakeClock();
    const failure = new Error("HTTP 500 from the operations endpoint");
    let calls = 0;
    const poll = (): Promise<never> => {
      calls++;
      return Promise.reject(failure);
    };
    await assert.rejects(
      waitForComputeOperation(poll, { initial: op("RUNNING"), clock }),
      (e: unknown) => e === failure,
    );
    assert.equal(calls, 1);
  });

  it("keeps the highest progress when the server's progress goes down, with one warning", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [
      op("RUNNING", 10),
      op("RUNNING", 50),
      op("RUNNING", 30),
      op("RUNNING", 30),
      op("RUNNING", 60),
      op("DONE", 100),
    ]);
    const seen = recorder();
    await waitForComputeOperation(poll, { clock, ...seen });
    assert.deepEqual(
      seen.events.map((e) => e.progress),
      [10, 50, 60, 100],
    );
    assert.deepEqual(seen.warnings, [
      "Operation operation-123: progress went down from 50 to 30, but it must never decrease; still reporting 50",
    ]);
  });

  it("ignores progress outside 0..100, with one warning per value", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [
      op("RUNNING", 20),
      op("RUNNING", 150),
      op("RUNNING", 150),
      op("RUNNING", -1),
      op("DONE"),
    ]);
    const seen = recorder();
    await waitForComputeOperation(poll, { clock, ...seen });
    assert.deepEqual(
      seen.events.map((e) => [e.status, e.progress]),
      [
        ["RUNNING", 20],
        ["DONE", 20],
      ],
    );
    assert.deepEqual(seen.warnings, [
      "Operation operation-123: progress 150 is out of spec: it must be a number from 0 to 100; ignoring it",
      "Operation operation-123: progress -1 is out of spec: it must be a number from 0 to 100; ignoring it",
    ]);
  });

  it("warns about an errorInfo reason and metadatas keys that break the limits, and still fails", async () => {
    const clock = new FakeClock();
    const longReason = "R".repeat(64);
    const longKey = `k${"x".repeat(64)}`;
    const failed = op("DONE", 100, {
      error: {
        errors: [
          {
            code: "X",
            errorDetails: [
              { errorInfo: { reason: longReason, domain: "d" } },
              { errorInfo: { reason: "quotaExceeded", metadatas: { "Bad Key": "1", [longKey]: "2", goodKey: "3" } } },
            ],
          },
        ],
      },
    });
    const seen = recorder();
    await assert.rejects(waitForComputeOperation(scriptedPoll(clock, [failed]), { clock, ...seen }), OperationError);
    assert.deepEqual(seen.warnings, [
      `Operation operation-123: error.errors[0].errorDetails[0].errorInfo.reason "${longReason}" is out of spec: it must be at most 63 characters of A-Z, 0-9 and _ (it has 64)`,
      'Operation operation-123: error.errors[0].errorDetails[1].errorInfo.reason "quotaExceeded" is out of spec: it must be at most 63 characters of A-Z, 0-9 and _ (it has 13)',
      'Operation operation-123: error.errors[0].errorDetails[1].errorInfo.metadatas key "Bad Key" is out of spec: it must match /^[a-z][a-zA-Z0-9-_]+$/ and be at most 64 characters',
      `Operation operation-123: error.errors[0].errorDetails[1].errorInfo.metadatas key "${longKey}" is out of spec: it must match /^[a-z][a-zA-Z0-9-_]+$/ and be at most 64 characters`,
    ]);
  });

  it("honours recommendedDelayMs as the floor of the next wait, clamped to the deadline", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [
      { operation: op("RUNNING"), recommendedDelayMs: 9000 },
      { operation: op("RUNNING"), recommendedDelayMs: 100 },
      { operation: op("RUNNING"), recommendedDelayMs: 60_000 },
    ]);
    await assert.rejects(waitForComputeOperation(poll, { timeoutMs: 30_000, clock, random: zero }), DeadlineError);
    assert.deepEqual(clock.sleeps, [9000, 1260, 19_740]);
    assert.deepEqual(poll.calls, [0, 9000, 10_260, 30_000]);
  });

  it("rejects bad options with a ValidationError before polling", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [op("RUNNING")]);
    await assert.rejects(
      waitForComputeOperation(poll, {
        timeoutMs: 0,
        schedule: { jitter: 2, minDelayMs: 5000, maxDelayMs: 1000 },
        clock,
      }),
      (e: unknown) =>
        e instanceof ValidationError &&
        e.message ===
          "WaitOptions: invalid input: timeoutMs: 0 must be a number above 0 (or Infinity); " +
            "schedule.maxDelayMs: 1000 must be a number of at least minDelayMs (5000); " +
            "schedule.jitter: 2 must be a number from 0 up to (not including) 1",
    );
    assert.deepEqual(poll.calls, []);
  });

  it("does not mutate the caller's options or schedule", async () => {
    const clock = new FakeClock();
    const schedule = Object.freeze({ initialDelayMs: 3000 });
    const options = Object.freeze({ schedule, clock, random: zero, target: TARGET });
    await waitForComputeOperation(scriptedPoll(clock, [op("RUNNING"), op("DONE")]), options);
    assert.deepEqual(clock.sleeps, [3000]);
    assert.deepEqual(options, { schedule: { initialDelayMs: 3000 }, clock, random: zero, target: TARGET });
  });

  it("reports a poll that returns no operation and keeps polling", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [
      { operation: undefined as unknown as ComputeOperation },
      { operation: "" as unknown as ComputeOperation },
      op("DONE"),
    ]);
    const seen = recorder();
    assert.deepEqual(await waitForComputeOperation(poll, { target: TARGET, clock, random: zero, ...seen }), op("DONE"));
    assert.deepEqual(seen.warnings, [
      "Unnamed operation (move of firewall policy 300000000001): a poll returned undefined instead of an operation; polling again",
      "Unnamed operation (move of firewall policy 300000000001): a poll returned an empty body instead of an operation; polling again",
    ]);
    assert.deepEqual(poll.calls, [0, 1000, 1140]);
  });
});
