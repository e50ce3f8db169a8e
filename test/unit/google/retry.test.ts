import { strict as assert } from "node:assert";
import { DeadlineError } from "../../../provider/errors";
import { ApiError } from "../../../provider/errors/google/api-error";
import { clearQuotaPacers } from "../../../provider/google/quota-pacer";
import {
  DEFAULT_RETRY_INITIAL_DELAY_MS,
  DEFAULT_RETRY_MAX_ATTEMPTS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_RETRY_MULTIPLIER,
  backoffDelayMs,
  isRetrySafe,
} from "../../../provider/google/retry";
import { countingTokens, googleError, seededRandom } from "./helpers";
import { harness } from "./client-harness";

const UUID = "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f";
const UNAVAILABLE = googleError(503, "UNAVAILABLE", "The service is currently unavailable.", {
  errors: [{ message: "The service is currently unavailable.", domain: "global", reason: "backendError" }],
});
const GET = { firewallPolicy: "1" } as const;

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  assert.fail("expected an ApiError");
}

describe("retries", () => {
  beforeEach(clearQuotaPacers);

  it("documents its defaults as DEFAULT_* constants", () => {
    assert.deepEqual(
      [
        DEFAULT_RETRY_MAX_ATTEMPTS,
        DEFAULT_RETRY_INITIAL_DELAY_MS,
        DEFAULT_RETRY_MAX_DELAY_MS,
        DEFAULT_RETRY_MULTIPLIER,
      ],
      [5, 1000, 32000, 2],
    );
  });

  it("retries 503 twice with full-jitter exponential delays, then returns the 200", async () => {
    const h = harness([
      { status: 503, body: UNAVAILABLE },
      { status: 503, body: UNAVAILABLE },
      { status: 200, body: { id: "1" } },
    ]);
    assert.deepEqual(await h.client.call("compute.firewallPolicies.get", GET), { id: "1" });
    const random = seededRandom(7);
    const expected = [Math.floor(random() * 1000), Math.floor(random() * 2000)];
    assert.deepEqual(h.delays, expected);
    assert.equal(h.requests.length, 3);
    assert.deepEqual(
      h.retries.map((r) => [r.attempt, r.httpStatus, r.reason, r.delayMs]),
      [
        [1, 503, "503 UNAVAILABLE backendError", expected[0]],
        [2, 503, "503 UNAVAILABLE backendError", expected[1]],
      ],
    );
  });

  it("gives up after maxAttempts with caps 1, 2, 4, 8 s and says so", async () => {
    const h = harness([{ status: 503, body: UNAVAILABLE }]);
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    const random = seededRandom(7);
    assert.deepEqual(
      h.delays,
      [1000, 2000, 4000, 8000].map((cap) => Math.floor(random() * cap)),
    );
    assert.equal(h.requests.length, 5);
    assert.equal(error.attempts, 5);
    assert.equal(
      error.message,
      "compute.firewallPolicies.get firewall policy 1: 503 UNAVAILABLE backendError: The service is currently unavailable. Gave up after 5 attempts.",
    );
  });

  it("waits at least the RetryInfo delay of a rate-limited 429", async () => {
    const body = googleError(429, "RESOURCE_EXHAUSTED", "Rate limit exceeded.", {
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "RATE_LIMIT_EXCEEDED",
          domain: "googleapis.com",
        },
        { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" },
      ],
    });
    const h = harness([
      { status: 429, body },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    assert.equal(h.delays.length, 1);
    assert.ok(h.delays[0]! >= 3000);
    assert.equal(h.delays[0], 3000);
    assert.equal(h.retries[0]!.serverDelayMs, 3000);
  });

  it("does not retry a 429 for exhausted quota without rate-limit markers", async () => {
    const body = googleError(
      429,
      "RESOURCE_EXHAUSTED",
      "Quota exceeded for quota metric 'Moves' and limit 'Moves per day'.",
      {
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.QuotaFailure",
            violations: [{ subject: "project:123", description: "Daily limit of 10 moves reached" }],
          },
        ],
      },
    );
    const h = harness([
      { status: 429, body },
      { status: 200, body: {} },
    ]);
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(h.requests.length, 1);
    assert.deepEqual(h.delays, []);
    assert.equal(
      error.message,
      "compute.firewallPolicies.get firewall policy 1: 429 RESOURCE_EXHAUSTED: Quota exceeded for quota metric 'Moves' " +
        "and limit 'Moves per day'. A quota is exhausted (Daily limit of 10 moves reached): wait for it to refill or request more quota.",
    );
  });

  it("trusts ErrorInfo over the legacy errors[] reason: QUOTA_EXCEEDED is not retried", async () => {
    const body = googleError(429, "RESOURCE_EXHAUSTED", "Quota exceeded.", {
      errors: [{ message: "Quota exceeded.", domain: "global", reason: "rateLimitExceeded" }],
      details: [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "QUOTA_EXCEEDED", domain: "googleapis.com" },
      ],
    });
    const h = harness([
      { status: 429, body },
      { status: 200, body: {} },
    ]);
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(h.requests.length, 1);
    assert.equal(error.reason, "QUOTA_EXCEEDED");
    assert.equal(error.hint, "A quota is exhausted: wait for it to refill or request more quota");
  });

  it("retries a 429 with a rateLimitExceeded legacy reason or a Retry-After header", async () => {
    const legacy = googleError(429, "RESOURCE_EXHAUSTED", "Rate Limit Exceeded", {
      errors: [{ message: "Rate Limit Exceeded", domain: "usageLimits", reason: "rateLimitExceeded" }],
    });
    const h = harness([
      { status: 429, body: legacy },
      { status: 429, body: "", headers: { "retry-after": "2" } },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    const random = seededRandom(7);
    assert.deepEqual(h.delays, [Math.floor(random() * 1000), Math.max(Math.floor(random() * 2000), 2000)]);
    assert.equal(h.requests.length, 3);
  });

  it("honours a Retry-After HTTP date as the minimum wait", async () => {
    const h = harness([
      { status: 503, body: UNAVAILABLE, headers: { "retry-after": "Thu, 01 Jan 2026 00:00:07 GMT" } },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    assert.deepEqual(h.delays, [7000]);
  });

  it("does not wait for a server delay longer than maxServerDelayMs", async () => {
    const body = googleError(429, "RESOURCE_EXHAUSTED", "Slow down.", {
      details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "120s" }],
    });
    const h = harness([{ status: 429, body }]);
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(h.requests.length, 1);
    assert.equal(
      error.hint,
      "The service is rate limiting these calls: lower opsledger:maxConcurrentRequests or try again later. The server " +
        "asked to wait 120 s before retrying, longer than retry.maxServerDelayMs",
    );
    assert.equal(error.errorDetails.retryInfo?.retryDelayMs, 120_000);
  });

  it("never retries a mutation whose requestId is missing", () => {
    assert.equal(isRetrySafe("requestId", {}), false);
    assert.equal(isRetrySafe("requestId", { requestId: "" }), false);
    assert.equal(isRetrySafe("none", { requestId: UUID }), false);
    assert.equal(isRetrySafe("requestId", { requestId: UUID }), true);
    assert.equal(isRetrySafe("idempotent", {}), true);
  });

  it("retries the move only because it carries a requestId", async () => {
    const h = harness([
      { status: 503, body: UNAVAILABLE },
      { status: 200, body: { name: "operation-1" } },
    ]);
    const result = await h.client.call("compute.firewallPolicies.move", {
      firewallPolicy: "1",
      parentId: "folders/2",
      requestId: UUID,
    });
    assert.deepEqual(result, { name: "operation-1" });
    assert.equal(h.requests.length, 2);
    assert.equal(h.requests[0]!.url, h.requests[1]!.url);
    assert.ok(h.requests[1]!.url.endsWith(`requestId=${UUID}`));
  });

  it("retries the read-only getIamPolicy POST", async () => {
    const h = harness([
      { status: 502, body: "<html><title>Error 502 (Server Error)!!1</title></html>" },
      { status: 200, body: { etag: "ACAB" } },
    ]);
    assert.deepEqual(
      await h.client.call("iam.workforcePools.getIamPolicy", { resource: "locations/global/workforcePools/p" }),
      {
        etag: "ACAB",
      },
    );
    assert.equal(h.requests.length, 2);
  });

  it("retries connection resets, refusals, broken pipes and hang-ups", async () => {
    const h = harness([
      { networkError: "ECONNRESET" },
      { networkError: "ECONNREFUSED" },
      { networkError: "EPIPE" },
      { networkError: "ERR_SOMETHING", message: "socket hang up" },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    assert.deepEqual(
      h.retries.map((r) => [r.httpStatus, r.reason]),
      [
        [0, "ECONNRESET"],
        [0, "ECONNREFUSED"],
        [0, "EPIPE"],
        [0, "ECONNRESET"],
      ],
    );
  });

  it("turns exhausted connection failures into an ApiError with httpStatus 0 and a cause", async () => {
    const h = harness([{ networkError: "ECONNREFUSED", message: "connect ECONNREFUSED 127.0.0.1:9" }], {
      retry: { maxAttempts: 2 },
    });
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(error.httpStatus, 0);
    assert.equal(error.reason, "ECONNREFUSED");
    assert.equal(
      error.message,
      "compute.firewallPolicies.get firewall policy 1: no HTTP response ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9. " +
        "Check that https://svc.test/compute is reachable. Gave up after 2 attempts.",
    );
    assert.ok(error.cause instanceof Error);
    assert.equal(error.cause.message, "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9");
  });

  it("treats an axios timeout as a retryable timeout", async () => {
    const h = harness([
      { networkError: "ECONNABORTED", message: "timeout of 60000ms exceeded" },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    assert.deepEqual(
      h.retries.map((r) => r.reason),
      ["timeout"],
    );
  });

  it("does not retry a non-transient error such as 404", async () => {
    const h = harness([
      { status: 404, body: googleError(404, "NOT_FOUND", "The resource 'firewallPolicies/1' was not found") },
    ]);
    const error = await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(h.requests.length, 1);
    assert.equal(
      error.message,
      "compute.firewallPolicies.get firewall policy 1: 404 NOT_FOUND: The resource 'firewallPolicies/1' was not found. " +
        "Check that firewall policy 1 exists and that the caller can see it.",
    );
  });

  it("refreshes the token once on 401 and retries without waiting", async () => {
    const unauthenticated = googleError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.");
    const h = harness([
      { status: 401, body: unauthenticated },
      { status: 200, body: {} },
    ]);
    await h.client.call("compute.firewallPolicies.get", GET);
    assert.deepEqual(
      h.requests.map((r) => r.headers["Authorization"]),
      ["Bearer token-number-1", "Bearer token-number-2"],
    );
    assert.equal(h.tokens.calls[1]!.rejected, "token-number-1");
    assert.deepEqual(h.delays, []);
    const twice = harness([{ status: 401, body: unauthenticated }]);
    const error = await apiError(twice.client.call("compute.firewallPolicies.get", GET));
    assert.equal(twice.requests.length, 2);
    assert.ok(
      error.message.endsWith(
        "Provide valid credentials: set opsledger:credentials (a key file path or its JSON), opsledger:accessToken, or GOOGLE_APPLICATION_CREDENTIALS, or run 'gcloud auth application-default login'; an access token may have expired or been revoked.",
      ),
      error.message,
    );
  });

  it("does not refresh a fixed access token", async () => {
    const h = harness([{ status: 401, body: googleError(401, "UNAUTHENTICATED", "Expired.") }], {
      tokenSource: countingTokens(false),
    });
    await apiError(h.client.call("compute.firewallPolicies.get", GET));
    assert.equal(h.requests.length, 1);
  });

  it("stops a retry wait when the caller aborts, with a DeadlineError", async () => {
    const controller = new AbortController();
    const h = harness([{ status: 503, body: UNAVAILABLE }], {
      sleep: (_ms, signal) => {
        controller.abort();
        return signal?.aborted === true ? Promise.reject(new Error("aborted")) : Promise.resolve();
      },
    });
    await assert.rejects(
      h.client.call("compute.firewallPolicies.get", GET, { signal: controller.signal }),
      (error: unknown) => {
        assert.ok(error instanceof DeadlineError);
        assert.equal(error.aborted, true);
        assert.equal(error.target, "compute.firewallPolicies.get firewall policy 1");
        return true;
      },
    );
    assert.equal(h.requests.length, 1);
  });

  it("computes the jittered backoff within [0, cap) and caps it at maxDelayMs", () => {
    const options = {
      maxAttempts: 5,
      initialDelayMs: 1000,
      maxDelayMs: 32000,
      multiplier: 2,
      maxServerDelayMs: 60000,
      maxQuotaWaitMs: 600_000,
    };
    assert.equal(
      backoffDelayMs(1, options, () => 0),
      0,
    );
    assert.equal(
      backoffDelayMs(1, options, () => 0.999999),
      999,
    );
    assert.equal(
      backoffDelayMs(3, options, () => 0.5),
      2000,
    );
    assert.equal(
      backoffDelayMs(20, options, () => 0.5),
      16000,
    );
  });
});
