import { strict as assert } from "node:assert";
import axios, { AxiosHeaders } from "axios";
import type { AxiosResponse, InternalAxiosRequestConfig } from "axios";
import { ApiError } from "../../../provider/errors/google/api-error";
import { createGoogleClient } from "../../../provider/google/client";
import { clearQuotaPacers } from "../../../provider/google/quota-pacer";
import { describeQuota } from "../../../provider/google/quota-wait-event";
import type { GoogleClient } from "../../../provider/google/client";
import type { QuotaWaitEvent } from "../../../provider/google/quota-wait-event";
import type { RetryInfoEvent } from "../../../provider/google/retry";
import { countingTokens, googleError, testSettings } from "./helpers";
import { COMPUTE_WRITE_QUOTA_MESSAGE, computeWriteQuotaMetadata } from "../../helpers/google-rate-limit";

const WINDOW_MS = 60_000;

/**
 * Virtual time: sleeps are timers on a simulated clock, and `run` lets every pending promise settle before it jumps
 * to the next timer, so concurrent calls wait for each other exactly as they would in real time, at once.
 */
class VirtualTime {
  now = 0;
  private timers: { at: number; resolve: () => void }[] = [];

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    signal?.aborted === true
      ? Promise.reject(new Error("aborted"))
      : new Promise<void>((resolve) => {
          this.timers.push({ at: this.now + Math.max(0, ms), resolve });
        });

  async run<T>(work: Promise<T>): Promise<T> {
    const state = { settled: false };
    const settled = (): boolean => state.settled;
    work.then(
      () => (state.settled = true),
      () => (state.settled = true),
    );
    for (let turns = 0; !settled(); turns++) {
      assert.ok(turns < 100_000, "virtual time made no progress");
      await new Promise<void>((resolve) => setImmediate(resolve));
      if (settled() || this.timers.length === 0) continue;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift()!;
      this.now = Math.max(this.now, next.at);
      next.resolve();
    }
    return work;
  }
}

/** A compute front end with a per-minute write quota in synchronized windows, answering as Google does. */
function quotaServer(time: VirtualTime, limit: number, status: 403 | 429 = 429) {
  const accepted = new Map<number, number>();
  const log: { at: number; status: number }[] = [];
  const instance = axios.create({
    adapter: (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
      const respond = (code: number, body: unknown, headers: Record<string, string> = {}): Promise<AxiosResponse> => {
        log.push({ at: time.now, status: code });
        return Promise.resolve({
          data: JSON.stringify(body),
          status: code,
          statusText: String(code),
          headers: new AxiosHeaders(headers),
          config,
        });
      };
      if ((config.method ?? "get").toUpperCase() !== "POST") return respond(200, { parent: "folders/1" });
      const window = Math.floor(time.now / WINDOW_MS);
      const used = accepted.get(window) ?? 0;
      if (used < limit) {
        accepted.set(window, used + 1);
        return respond(200, { name: `operation-${log.length}`, status: "DONE" });
      }
      const refillS = ((window + 1) * WINDOW_MS - time.now) / 1000;
      const message = COMPUTE_WRITE_QUOTA_MESSAGE;
      const body = googleError(status, status === 429 ? "RESOURCE_EXHAUSTED" : "PERMISSION_DENIED", message, {
        errors: [{ message, domain: "usageLimits", reason: "rateLimitExceeded" }],
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "RATE_LIMIT_EXCEEDED",
            domain: "googleapis.com",
            metadata: computeWriteQuotaMetadata(limit),
          },
          { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: `${refillS}s` },
        ],
      });
      return respond(status, body, { "retry-after": String(Math.ceil(refillS)) });
    },
  });
  /** Accepted writes per window, and the rejections. */
  const perWindow = (): number[] => [...accepted.values()];
  const rejections = (): number => log.filter((e) => e.status === status).length;
  return { axios: instance, perWindow, rejections, log };
}

function client(
  time: VirtualTime,
  server: ReturnType<typeof quotaServer>,
  retries: RetryInfoEvent[] = [],
): GoogleClient {
  return createGoogleClient({
    settings: testSettings(),
    axios: server.axios,
    sleep: time.sleep,
    now: () => time.now,
    random: () => 0.5,
    tokenSource: countingTokens(),
    onRetry: (info) => retries.push(info),
  });
}

const uuid = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`;

function moves(c: GoogleClient, from: number, count: number, waits: QuotaWaitEvent[]): Promise<unknown[]> {
  return Promise.all(
    Array.from({ length: count }, (_, i) =>
      c.call(
        "compute.firewallPolicies.move",
        { firewallPolicy: String(from + i), parentId: "folders/2", requestId: uuid(from + i) },
        { onQuotaWait: (e) => waits.push(e) },
      ),
    ),
  );
}

describe("pacing to a rate quota", () => {
  beforeEach(clearQuotaPacers);

  it("holds a crowd after the first rejections and sends at most the limit per window, none failing", async () => {
    const time = new VirtualTime();
    const server = quotaServer(time, 10);
    const waits: QuotaWaitEvent[] = [];
    const retries: RetryInfoEvent[] = [];
    const c = client(time, server, retries);

    const results = await time.run(moves(c, 1, 25, waits));
    assert.equal(results.length, 25);
    // All 25 were sent at t = 0 before any rejection: 10 accepted, 15 rejected, then paced into the next windows.
    assert.equal(server.rejections(), 15);
    assert.deepEqual(server.perWindow(), [10, 10, 5]);
    assert.equal(time.now, 2 * WINDOW_MS);
    assert.ok(retries.every((r) => r.httpStatus === 429 && r.serverDelayMs === WINDOW_MS));

    // Later calls of the same process know the limit: they fill the current window and wait, with no rejection.
    const later = await time.run(moves(c, 100, 12, waits));
    assert.equal(later.length, 12);
    assert.equal(server.rejections(), 15, "no further rejection");
    assert.deepEqual(server.perWindow(), [10, 10, 10, 7]);
  });

  it("tells each waiting call which quota holds it and for how long", async () => {
    const time = new VirtualTime();
    const server = quotaServer(time, 2);
    const waits: QuotaWaitEvent[] = [];
    await time.run(moves(c2(time, server), 1, 5, waits));
    assert.deepEqual(
      waits.map((w) => w.waitMs).sort((a, b) => a - b),
      [WINDOW_MS, WINDOW_MS, 2 * WINDOW_MS],
    );
    assert.deepEqual(waits[0], {
      endpoint: "compute.firewallPolicies.move",
      resource: waits[0]!.resource,
      waitMs: waits[0]!.waitMs,
      quotaMetric: "compute.googleapis.com/write_requests",
      quotaLimit: "WriteRequestsPerMinutePerProject",
      limitPerWindow: 2,
      windowMs: WINDOW_MS,
    });
    assert.equal(
      describeQuota(waits[0]),
      "the compute.googleapis.com/write_requests quota (WriteRequestsPerMinutePerProject, 2 per minute)",
    );
  });

  it("paces Compute's 403 rateLimitExceeded the same way", async () => {
    const time = new VirtualTime();
    const server = quotaServer(time, 3, 403);
    const results = await time.run(moves(c2(time, server), 1, 7, []));
    assert.equal(results.length, 7);
    assert.deepEqual(server.perWindow(), [3, 3, 1]);
  });

  it("leaves reads alone: only the endpoint that met the quota is paced", async () => {
    const time = new VirtualTime();
    const server = quotaServer(time, 1);
    const c = c2(time, server);
    await time.run(moves(c, 1, 3, []));
    const before = time.now;
    await time.run(c.call("compute.firewallPolicies.get", { firewallPolicy: "1" }));
    assert.equal(time.now, before, "the GET did not wait");
  });

  it("fails a call the quota would hold longer than retry.maxQuotaWaitMs, naming the quota", async () => {
    const time = new VirtualTime();
    const server = quotaServer(time, 1);
    const c = createGoogleClient({
      settings: testSettings(),
      axios: server.axios,
      sleep: time.sleep,
      now: () => time.now,
      tokenSource: countingTokens(),
      retry: { maxQuotaWaitMs: 90_000 },
    });
    const outcomes = await time.run(
      Promise.allSettled(
        [1, 2, 3, 4].map((i) =>
          c.call("compute.firewallPolicies.move", {
            firewallPolicy: String(i),
            parentId: "folders/2",
            requestId: uuid(i),
          }),
        ),
      ),
    );
    const failed = outcomes.filter((o): o is PromiseRejectedResult => o.status === "rejected");
    assert.equal(outcomes.length - failed.length, 2, "one now, one in the next window");
    assert.equal(failed.length, 2);
    const error: unknown = failed[0]!.reason;
    assert.ok(error instanceof ApiError);
    assert.equal(error.httpStatus, 429);
    assert.equal(error.reason, "RATE_LIMIT_EXCEEDED");
    assert.equal(error.errorMetadata["quota_metric"], "compute.googleapis.com/write_requests");
    assert.match(error.message, /longer than retry\.maxQuotaWaitMs allows/);
  });

  it("does not spin on a Retry-After of 0: it holds a second each time and gives up after retry.maxQuotaWaitMs", async () => {
    const time = new VirtualTime();
    let requests = 0;
    const instance = axios.create({
      adapter: (config: InternalAxiosRequestConfig): Promise<AxiosResponse> => {
        requests++;
        const body = googleError(429, "RESOURCE_EXHAUSTED", "Slow down.", {
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "RATE_LIMIT_EXCEEDED",
              domain: "googleapis.com",
            },
          ],
        });
        return Promise.resolve({
          data: JSON.stringify(body),
          status: 429,
          statusText: "429",
          headers: new AxiosHeaders({ "retry-after": "0" }),
          config,
        });
      },
    });
    const c = createGoogleClient({
      settings: testSettings(),
      axios: instance,
      sleep: time.sleep,
      now: () => time.now,
      tokenSource: countingTokens(),
      retry: { maxQuotaWaitMs: 5000 },
    });
    const error = await time
      .run(c.call("compute.firewallPolicies.get", { firewallPolicy: "1" }))
      .catch((e: unknown) => e);
    assert.ok(error instanceof ApiError);
    assert.match(error.message, /longer than retry\.maxQuotaWaitMs allows/);
    assert.equal(requests, 6, "one request a second for five seconds, then the error");
    assert.equal(time.now, 5000);
  });
});

function c2(time: VirtualTime, server: ReturnType<typeof quotaServer>): GoogleClient {
  return client(time, server);
}
