import assert from "node:assert/strict";
import { waitForLongRunningOperation } from "../../../provider/operations/long-running-operation-waiter";
import { OperationError } from "../../../provider/errors/operations/operation-error";
import type { LongRunningOperation } from "../../../provider/operations/operation-types";
import { FakeClock, recorder, scriptedPoll } from "./fakes";

const NAME = "folders/123/locations/global/operations/op-7";
const METADATA = { "@type": "type.googleapis.com/google.iam.v3beta.OperationMetadata", verb: "create" };

function running(statusMessage?: string): LongRunningOperation {
  return { name: NAME, metadata: { ...METADATA, ...(statusMessage === undefined ? {} : { statusMessage }) } };
}

describe("waitForLongRunningOperation", () => {
  it("returns the operation once it is done with a response", async () => {
    const clock = new FakeClock();
    const done: LongRunningOperation = {
      name: NAME,
      metadata: METADATA,
      done: true,
      response: {
        "@type": "type.googleapis.com/google.iam.v3beta.PolicyBinding",
        name: "folders/123/locations/global/policyBindings/b",
      },
    };
    const poll = scriptedPoll(clock, [running("Creating"), running("Creating"), { ...running(), done: false }, done]);
    const seen = recorder();

    assert.equal(await waitForLongRunningOperation(poll, { clock, random: () => 0, ...seen }), done);
    assert.deepEqual(seen.events, [
      { status: "RUNNING", statusMessage: "Creating", elapsedMs: 0 },
      { status: "DONE", elapsedMs: 1300 },
    ]);
    assert.deepEqual(poll.calls, [0, 1000, 1140, 1300]);
    assert.deepEqual(seen.warnings, []);
  });

  it("throws an OperationError that renders the rpc status and each kind of detail", async () => {
    const clock = new FakeClock();
    const status = {
      code: 7,
      message: "Permission 'iam.policybindings.create' denied on folder 123.",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "IAM_PERMISSION_DENIED",
          domain: "iam.googleapis.com",
          metadata: { permission: "iam.policybindings.create", resource: "folders/123" },
        },
        {
          "@type": "type.googleapis.com/google.rpc.QuotaFailure",
          violations: [
            {
              subject: "project:123",
              description: "Too many bindings",
              quotaMetric: "iam.googleapis.com/policy_bindings",
              quotaId: "PolicyBindingsPerFolder",
              quotaValue: "500",
            },
          ],
        },
        {
          "@type": "type.googleapis.com/google.rpc.Help",
          links: [{ description: "IAM docs", url: "https://cloud.google.com/iam/docs" }],
        },
        { "@type": "type.googleapis.com/google.rpc.LocalizedMessage", locale: "fr-FR", message: "Permission refusée." },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "30s" },
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field: "policy_binding.target", description: "must be set" }],
        },
        {
          "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
          violations: [{ type: "TOS", subject: "folders/123", description: "Terms not accepted" }],
        },
        {
          "@type": "type.googleapis.com/google.rpc.ResourceInfo",
          resourceType: "folder",
          resourceName: "folders/123",
          description: "locked",
        },
        { "@type": "type.googleapis.com/google.rpc.RequestInfo", requestId: "req-1" },
        { "@type": "type.googleapis.com/example.Custom", x: 1 },
      ],
    };
    const poll = scriptedPoll(clock, [{ name: NAME, done: true, error: status }]);

    const error = await waitForLongRunningOperation(poll, { target: "binding of policy pab-1", clock }).then(
      () => assert.fail("expected an OperationError"),
      (e: unknown) => e,
    );

    assert.ok(error instanceof OperationError);
    assert.equal(
      error.message,
      [
        "Operation folders/123/locations/global/operations/op-7 (binding of policy pab-1) failed: PERMISSION_DENIED (code 7, HTTP 403): Permission 'iam.policybindings.create' denied on folder 123.",
        "  reason IAM_PERMISSION_DENIED (iam.googleapis.com) {permission=iam.policybindings.create, resource=folders/123}",
        "  quota project:123: Too many bindings (iam.googleapis.com/policy_bindings, PolicyBindingsPerFolder, 500)",
        "  help: IAM docs <https://cloud.google.com/iam/docs>",
        "  message (fr-FR): Permission refusée.",
        "  retry after 30s",
        "  field policy_binding.target: must be set",
        "  precondition TOS folders/123: Terms not accepted",
        "  resource folder folders/123: locked",
        "  request id req-1",
        "  detail type.googleapis.com/example.Custom",
      ].join("\n"),
    );
    assert.equal(error.kind, "longrunning");
    assert.equal(error.operationName, NAME);
    assert.equal(error.status, status);
    assert.deepEqual(error.errors, []);
    assert.equal(error.httpErrorStatusCode, undefined);
  });

  it("throws an OperationError, not a hang, when done with neither response nor error", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [running(), { name: NAME, done: true }]);
    await assert.rejects(waitForLongRunningOperation(poll, { clock }), {
      name: "OperationError",
      kind: "longrunning",
      status: undefined,
      message:
        "Operation folders/123/locations/global/operations/op-7 finished with neither response nor error (done is true); its outcome is unknown",
    });
    assert.equal(poll.calls.length, 2);
  });

  it("returns an initial operation that is already done without polling", async () => {
    const clock = new FakeClock();
    const poll = scriptedPoll(clock, [running()]);
    const initial = { name: NAME, done: true, response: { "@type": "type.googleapis.com/google.protobuf.Empty" } };
    assert.equal(await waitForLongRunningOperation(poll, { initial, clock }), initial);
    assert.deepEqual(poll.calls, []);
  });

  it("reports out-of-spec values: an outcome before done, a non-boolean done, a bad ErrorInfo", async () => {
    const clock = new FakeClock();
    const early = { name: NAME, response: { "@type": "x" } } as LongRunningOperation;
    const odd = { name: NAME, done: "yes" } as unknown as LongRunningOperation;
    const failed: LongRunningOperation = {
      name: NAME,
      done: true,
      response: { "@type": "x" },
      error: {
        code: 9,
        message: "m",
        details: [
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "Not-Upper", metadata: { "9lives": "x" } },
        ],
      },
    };
    const seen = recorder();
    await assert.rejects(waitForLongRunningOperation(scriptedPoll(clock, [early, odd, failed]), { clock, ...seen }), {
      name: "OperationError",
      message:
        "Operation folders/123/locations/global/operations/op-7 failed: FAILED_PRECONDITION (code 9, HTTP 400): m\n  reason Not-Upper {9lives=x}",
    });
    const prefix = `Operation ${NAME}: `;
    assert.deepEqual(seen.warnings, [
      `${prefix}the operation carries an error or a response but done is not true; waiting for done`,
      `${prefix}done is "yes", not a boolean; treating the operation as not done`,
      `${prefix}the operation carries both an error and a response; reporting the error`,
      `${prefix}error.details[0] (ErrorInfo).reason "Not-Upper" is out of spec: it must be at most 63 characters of A-Z, 0-9 and _ (it has 9)`,
      `${prefix}error.details[0] (ErrorInfo).metadata key "9lives" is out of spec: it must match /^[a-z][a-zA-Z0-9-_]+$/ and be at most 64 characters`,
    ]);
  });
});
