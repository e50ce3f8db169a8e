/**
 * Per-minute rate quotas, enforced the way Google's front end does for Compute: requests of a quota group are counted
 * per project in synchronized windows (aligned to whole minutes of the sandbox clock: a project that reaches its limit
 * at 10:00:15 is refilled at 10:01:00), and the rest are rejected with RATE_LIMIT_EXCEEDED before they reach the
 * API. A rejected request does not count. The error names the quota in ErrorInfo metadata as Google reports it
 * (`service`, `consumer`, `quota_metric`, `quota_limit`, `quota_limit_value`, `quota_location`, `quota_unit`), with a
 * Help link, a RetryInfo detail and a Retry-After header giving the time to the refill.
 */
import { errorInfo, googleError, retryInfo } from "./google-errors";
import type { GoogleFailure } from "./results";
import type { Route } from "./route-table";
import { SandboxInputError } from "./sandbox-input-error";
import type { RateQuota } from "./types";

/** The window of a rate quota without one: Google counts Compute's rate quotas per minute. */
export const DEFAULT_RATE_QUOTA_WINDOW_MS = 60_000;
/** The consumer the sandbox's errors name (the project of every sandbox request). */
export const RATE_QUOTA_CONSUMER_PROJECT_NUMBER = "123456789012";

interface QuotaGroup {
  readonly service: string;
  readonly metric: string;
  readonly metricName: string;
  readonly limitName: string;
  readonly limitDisplayName: string;
  readonly matches: (route: Route, method: string) => boolean;
}

const GROUPS: Readonly<Record<RateQuota["group"], QuotaGroup>> = {
  computeWrites: {
    service: "compute.googleapis.com",
    metric: "compute.googleapis.com/write_requests",
    metricName: "Write requests",
    limitName: "WriteRequestsPerMinutePerProject",
    limitDisplayName: "Write requests per minute",
    matches: (route, method) => route.service === "compute" && method !== "GET",
  },
};

export function validateRateQuota(quota: RateQuota, index: number): void {
  const fail = (message: string): never => {
    throw new SandboxInputError({ operation: "setRateQuotas", message: `quota ${index}: ${message}` });
  };
  const group: string = quota.group; // quotas also arrive as JSON on the control plane
  if (!(group in GROUPS)) fail(`group must be one of ${Object.keys(GROUPS).join(", ")}`);
  if (!(Number.isInteger(quota.limit) && quota.limit >= 0)) fail("limit must be an integer >= 0");
  if (quota.windowMs !== undefined && !(Number.isInteger(quota.windowMs) && quota.windowMs >= 1000)) {
    fail("windowMs must be an integer of at least 1000");
  }
  const status: number | undefined = quota.httpStatus;
  if (status !== undefined && status !== 429 && status !== 403) fail("httpStatus must be 429 or 403");
}

function windowUnit(windowMs: number): string {
  return windowMs === 60_000 ? "1/min/{project}" : `1/${windowMs / 1000}s/{project}`;
}

/** The rejection of a request over `quota`, `refillMs` before the window ends. */
export function rateLimitExceeded(quota: RateQuota, refillMs: number): GoogleFailure {
  const group = GROUPS[quota.group];
  const windowMs = quota.windowMs ?? DEFAULT_RATE_QUOTA_WINDOW_MS;
  const status = quota.httpStatus ?? 429;
  const message =
    `Quota exceeded for quota metric '${group.metricName}' and limit '${group.limitDisplayName}' of service ` +
    `'${group.service}' for consumer 'project_number:${RATE_QUOTA_CONSUMER_PROJECT_NUMBER}'.`;
  const seconds = Math.max(0, refillMs) / 1000;
  const failure = googleError({
    httpStatus: status,
    message,
    reason: "rateLimitExceeded",
    errors: [{ message, domain: "usageLimits", reason: "rateLimitExceeded" }],
    details: [
      errorInfo("RATE_LIMIT_EXCEEDED", "googleapis.com", {
        service: group.service,
        consumer: `projects/${RATE_QUOTA_CONSUMER_PROJECT_NUMBER}`,
        quota_metric: group.metric,
        quota_limit: group.limitName,
        quota_limit_value: String(quota.limit),
        quota_location: "global",
        quota_unit: windowUnit(windowMs),
      }),
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [
          {
            description: "Request a higher quota limit.",
            url: "https://cloud.google.com/docs/quotas/help/request_increase",
          },
        ],
      },
      retryInfo(`${seconds.toFixed(3).replace(/\.?0+$/, "")}s`),
    ],
    headers: { "retry-after": String(Math.ceil(seconds)) },
  });
  return failure;
}

/** Counts requests per quota and window; `admit` answers the rejection of a request over its quota. */
export class RateQuotaEnforcer {
  private quotas: { quota: RateQuota; counts: Map<number, number> }[] = [];

  set(quotas: readonly RateQuota[]): void {
    quotas.forEach(validateRateQuota);
    this.quotas = quotas.map((quota) => ({ quota: { ...quota }, counts: new Map() }));
  }

  clear(): void {
    this.quotas = [];
  }

  /** Undefined when the request may go on (it is then counted), else its rejection. */
  admit(route: Route, method: string, nowMs: number): GoogleFailure | undefined {
    const applicable = this.quotas.filter((q) => GROUPS[q.quota.group].matches(route, method));
    for (const { quota, counts } of applicable) {
      const windowMs = quota.windowMs ?? DEFAULT_RATE_QUOTA_WINDOW_MS;
      const window = Math.floor(nowMs / windowMs);
      if ((counts.get(window) ?? 0) >= quota.limit) return rateLimitExceeded(quota, (window + 1) * windowMs - nowMs);
    }
    for (const { quota, counts } of applicable) {
      const window = Math.floor(nowMs / (quota.windowMs ?? DEFAULT_RATE_QUOTA_WINDOW_MS));
      counts.set(window, (counts.get(window) ?? 0) + 1);
      for (const old of counts.keys()) if (old < window) counts.delete(old);
    }
    return undefined;
  }
}
