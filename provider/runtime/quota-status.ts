/**
 * Tells the user why a resource waits for a Google rate quota: an ephemeral status on the resource's own row for every
 * wait ("waiting 42 s for the compute.googleapis.com/write_requests quota (WriteRequestsPerMinutePerProject, 600 per
 * minute): pacing to the quota"), and once per quota and process a diagnostic on the first resource that waits, which
 * stays in the output after the run.
 */
import { describeQuota } from "../google";
import type { QuotaWaitEvent } from "../google";
import { log, status } from "./context";

const announced = new Set<string>();

/** A CallOptions.onQuotaWait for calls made on behalf of the resource `urn`. */
export function quotaWaitReporter(urn: string): (event: QuotaWaitEvent) => void {
  return (event) => {
    const quota = describeQuota(event);
    status(urn, `waiting ${Math.ceil(event.waitMs / 1000)} s for ${quota}: pacing requests to the quota`);
    const key = `${event.quotaMetric ?? ""}|${event.quotaLimit ?? ""}`;
    if (announced.has(key)) return;
    announced.add(key);
    log(
      "info",
      `${quota} is used up for now: the provider holds further requests of this quota until it refills and then sends them at its rate, instead of failing them`,
      urn,
    );
  };
}
