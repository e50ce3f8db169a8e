/**
 * Compute's per-minute write quota as Google reports a rejection of it (the samples of
 * https://cloud.google.com/apis/design/errors): the message and the ErrorInfo metadata keys of real responses. Tests
 * that fake Google, and tests that check the sandbox's answer, take them from here.
 */
export const COMPUTE_WRITE_QUOTA_MESSAGE =
  "Quota exceeded for quota metric 'Write requests' and limit 'Write requests per minute' of service " +
  "'compute.googleapis.com' for consumer 'project_number:123456789012'.";

/** ErrorInfo metadata of a RATE_LIMIT_EXCEEDED on compute write requests, `limit` per minute and project. */
export function computeWriteQuotaMetadata(limit: number): Record<string, string> {
  return {
    service: "compute.googleapis.com",
    consumer: "projects/123456789012",
    quota_metric: "compute.googleapis.com/write_requests",
    quota_limit: "WriteRequestsPerMinutePerProject",
    quota_limit_value: String(limit),
    quota_location: "global",
    quota_unit: "1/min/{project}",
  };
}
