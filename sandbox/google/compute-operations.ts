/**
 * The compute#operation of a firewall policy move, computed from the clock whenever it is read: PENDING at the
 * instant it is accepted, RUNNING with rising progress until `durationMs` has passed, then DONE with the outcome
 * fixed when the move was accepted.
 */
import { randomBytes } from "node:crypto";
import { computeTimestamp } from "./clock";
import type { MoveOperationRecord } from "./state";
import type { ComputeErrorItem, ComputeOperation } from "./wire";

/** Where in a move (as a fraction of its duration) an out-of-spec operation reports lower progress. */
const OUT_OF_SPEC_DIP_START = 0.5;
const OUT_OF_SPEC_DIP_END = 0.75;
const OUT_OF_SPEC_DIP_POINTS = 30;

/** A compute operation name like the real ones: operation-<ms>-<hex>-<hex>-<hex>. */
export function newComputeOperationName(nowMs: number): string {
  const hex = randomBytes(15).toString("hex");
  return `operation-${nowMs}-${hex.slice(0, 13)}-${hex.slice(13, 21)}-${hex.slice(21, 29)}`;
}

/**
 * Progress (0..99) at `fraction` (0..1) of the run: fast at first, then slower (1 - (1-t)^2), never decreasing,
 * except that an out-of-spec operation drops by 30 points once, between 50% and 75% of its duration.
 */
export function runningProgress(fraction: number, outOfSpec: boolean): number {
  const t = Math.min(Math.max(fraction, 0), 1);
  const base = Math.min(99, Math.floor(100 * (1 - (1 - t) ** 2)));
  if (outOfSpec && t >= OUT_OF_SPEC_DIP_START && t < OUT_OF_SPEC_DIP_END) {
    return Math.max(0, base - OUT_OF_SPEC_DIP_POINTS);
  }
  return base;
}

function quotaExceededError(policyId: string, to: string): ComputeErrorItem {
  const message = `Quota 'FIREWALL_POLICIES_PER_CONTAINER' exceeded.  Limit: 10.0 in ${to}.`;
  return {
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
            container: to,
            firewallPolicy: policyId,
          },
        },
      },
      {
        quotaInfo: {
          metricName: "compute.googleapis.com/firewall_policies_per_container",
          limitName: "FIREWALL-POLICIES-PER-CONTAINER",
          limit: 10,
          dimensions: { container: to },
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
  };
}

function outOfSpecError(): ComputeErrorItem {
  return {
    code: "INTERNAL_ERROR",
    message: "The move could not be completed (sandbox outOfSpec outcome).",
    errorDetails: [
      {
        errorInfo: {
          // 87 characters: longer than the 63 that AIP-193 allows.
          reason: "FIREWALL_POLICY_MOVE_FAILED_BECAUSE_THE_DESTINATION_CONTAINER_WAS_BEING_REORGANIZED_NOW",
          domain: "compute.googleapis.com",
          // Keys violating /[a-z][a-zA-Z0-9-_]+/.
          metadatas: { "Bad Key!": "upper case and a space", "9lives": "starts with a digit" },
        },
      },
    ],
  };
}

/** The operation as GET (or the move itself) returns it at `nowMs`. */
export function moveOperationView(op: MoveOperationRecord, nowMs: number, computeRoot: string): ComputeOperation {
  const base = `${computeRoot}/compute/v1/locations/global`;
  const view: ComputeOperation = {
    kind: "compute#operation",
    id: op.id,
    name: op.name,
    operationType: "move",
    targetLink: `${base}/firewallPolicies/${op.policyId}`,
    targetId: op.policyId,
    status: "PENDING",
    user: op.principal,
    progress: 0,
    insertTime: computeTimestamp(op.insertMs),
    selfLink: `${base}/operations/${op.name}`,
  };
  if (op.requestId !== undefined) view.clientOperationId = op.requestId;
  const elapsedMs = nowMs - op.insertMs;
  if (elapsedMs >= op.durationMs) {
    view.status = "DONE";
    view.progress = 100;
    view.startTime = computeTimestamp(op.insertMs);
    view.endTime = computeTimestamp(op.insertMs + op.durationMs);
    switch (op.outcome.kind) {
      case "success":
        if (op.outcome.warnings !== undefined && op.outcome.warnings.length > 0) {
          view.warnings = structuredClone([...op.outcome.warnings]);
        }
        break;
      case "quotaExceeded":
        view.httpErrorStatusCode = 403;
        view.httpErrorMessage = "FORBIDDEN";
        view.error = { errors: [quotaExceededError(op.policyId, op.to)] };
        break;
      case "outOfSpec":
        view.httpErrorStatusCode = 500;
        view.httpErrorMessage = "INTERNAL_SERVER_ERROR";
        view.error = { errors: [outOfSpecError()] };
        break;
    }
  } else if (elapsedMs > 0) {
    view.status = "RUNNING";
    view.startTime = computeTimestamp(op.insertMs);
    view.progress = runningProgress(elapsedMs / op.durationMs, op.outcome.kind === "outOfSpec");
  }
  return view;
}
