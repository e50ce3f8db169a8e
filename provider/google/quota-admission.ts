/**
 * The client's side of quota pacing: reserving a place with the pacers that govern an endpoint, the event that tells
 * the caller why it waits, and the error of a call whose wait would exceed its budget.
 */
import type { ParsedGoogleError } from "./parse-error";
import { pacersFor } from "./quota-pacer";
import type { RateLimitNotice } from "./quota-pacer";
import type { QuotaWaitEvent } from "./quota-wait-event";

export interface Admission {
  /** How long the request must wait before it is sent. */
  readonly waitMs: number;
  /** What the pacer that holds it knows of the quota. */
  readonly notice: RateLimitNotice;
}

/**
 * Takes one place with every pacer that governs `endpointId` at `serviceRoot`: undefined when none does, else the wait
 * until the latest of them admits the request (0 when none holds it).
 */
export function reserveAdmission(serviceRoot: string, endpointId: string, nowMs: number): Admission | undefined {
  const pacers = pacersFor(serviceRoot, endpointId);
  if (pacers.length === 0) return undefined;
  let waitMs = 0;
  let notice: RateLimitNotice = pacers[0]?.notice ?? {};
  for (const pacer of pacers) {
    const pacerWaitMs = pacer.reserve() - nowMs;
    if (pacerWaitMs > waitMs) {
      waitMs = pacerWaitMs;
      notice = pacer.notice;
    }
  }
  return { waitMs, notice };
}

/** The event a caller hears before its request waits for a quota. */
export function quotaWaitEvent(endpoint: string, resource: string, admission: Admission): QuotaWaitEvent {
  const { notice } = admission;
  return {
    endpoint,
    resource,
    waitMs: admission.waitMs,
    ...(notice.quotaMetric === undefined ? {} : { quotaMetric: notice.quotaMetric }),
    ...(notice.quotaLimit === undefined ? {} : { quotaLimit: notice.quotaLimit }),
    ...(notice.limitPerWindow === undefined ? {} : { limitPerWindow: notice.limitPerWindow }),
    ...(notice.windowMs === undefined ? {} : { windowMs: notice.windowMs }),
  };
}

/**
 * A rate-limit error as the server would have sent it, for a call the pacer holds back without a rejection of its
 * own (its error then names the quota the same way).
 */
export function pacedRateLimitError(notice: RateLimitNotice): ParsedGoogleError {
  const metadata: Record<string, string> = {};
  if (notice.quotaMetric !== undefined) metadata["quota_metric"] = notice.quotaMetric;
  if (notice.quotaLimit !== undefined) metadata["quota_limit"] = notice.quotaLimit;
  if (notice.limitPerWindow !== undefined) metadata["quota_limit_value"] = String(notice.limitPerWindow);
  return {
    httpStatus: 429,
    rpcStatus: "RESOURCE_EXHAUSTED",
    reason: "RATE_LIMIT_EXCEEDED",
    message: `Rate quota ${notice.quotaMetric ?? ""} exhausted for this window (held back by the client's pacing)`,
    metadata,
    details: { errorInfo: { reason: "RATE_LIMIT_EXCEEDED", metadata }, other: [] },
    errors: [],
    structured: true,
  };
}
