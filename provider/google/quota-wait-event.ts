/** What a call reports before it waits for a rate quota to refill (CallOptions.onQuotaWait). Carries no secrets. */
export interface QuotaWaitEvent {
  /** The endpoint id, e.g. "compute.firewallPolicies.move". */
  readonly endpoint: string;
  /** The resource the call is about, in words. */
  readonly resource: string;
  /** How long the call waits before it is sent. */
  readonly waitMs: number;
  /** ErrorInfo metadata.quota_metric of the rejection that started the pacing, e.g. "compute.googleapis.com/write_requests". */
  readonly quotaMetric?: string;
  /** ErrorInfo metadata.quota_limit, e.g. "WriteRequestsPerMinutePerProject". */
  readonly quotaLimit?: string;
  /** Requests the quota allows per window (metadata.quota_limit_value), when the server said. */
  readonly limitPerWindow?: number;
  /** The quota's window (metadata.quota_unit), when the server said. */
  readonly windowMs?: number;
}

/** "the compute.googleapis.com/write_requests quota (WriteRequestsPerMinutePerProject, 100 per minute)" */
export function describeQuota(event: QuotaWaitEvent): string {
  const name = event.quotaMetric ?? "rate";
  const limit =
    event.limitPerWindow === undefined
      ? ""
      : `${event.limitPerWindow} per ${event.windowMs === undefined || event.windowMs === 60_000 ? "minute" : `${Math.round(event.windowMs / 1000)} s`}`;
  const details = [event.quotaLimit, limit].filter((s) => s !== undefined && s !== "").join(", ");
  return `the ${name} quota${details === "" ? "" : ` (${details})`}`;
}
