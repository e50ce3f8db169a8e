/**
 * Waits for a compute#operation: done at status DONE, failed when DONE with error.errors[] or
 * httpErrorStatusCode >= 400. PENDING and RUNNING keep polling; any other status is reported and treated as not done.
 */
import { computeErrorAnomalies } from "./anomalies";
import { formatComputeWarning } from "../errors/operations/operation-format";
import { OperationError } from "../errors/operations/operation-error";
import type { ComputeOperation } from "./operation-types";
import { waitForOperation } from "./waiter";
import type { OperationAdapter } from "./waiter";
import type { Poll, WaitOptions } from "./waiter-options";

const KNOWN_STATUSES: readonly string[] = ["PENDING", "RUNNING", "DONE"];

const computeAdapter: OperationAdapter<ComputeOperation> = {
  name: (operation) => operation.name,
  observe(operation) {
    const status: unknown = operation.status;
    const anomalies: string[] = [];
    if (status === undefined) {
      anomalies.push("the operation has no status; treating it as not done");
    } else if (typeof status !== "string" || !KNOWN_STATUSES.includes(status)) {
      anomalies.push(
        `unknown status ${JSON.stringify(status)} (expected PENDING, RUNNING or DONE); treating it as not done`,
      );
    }
    return {
      status: typeof status === "string" ? status : "UNKNOWN",
      progress: operation.progress,
      statusMessage: operation.statusMessage,
      done: status === "DONE",
      anomalies,
      startedAt: typeof operation.insertTime === "string" ? operation.insertTime : undefined,
    };
  },
  finish(operation, { target, warn }) {
    const errors = Array.isArray(operation.error?.errors) ? operation.error.errors : [];
    const httpStatus = operation.httpErrorStatusCode;
    const warnings = Array.isArray(operation.warnings) ? operation.warnings : [];
    if (errors.length > 0 || (typeof httpStatus === "number" && httpStatus >= 400)) {
      computeErrorAnomalies(errors).forEach(warn);
      throw new OperationError({
        kind: "compute",
        operationName: operation.name,
        target,
        httpErrorStatusCode: httpStatus,
        httpErrorMessage: operation.httpErrorMessage,
        errors,
        warnings,
      });
    }
    for (const warning of warnings) warn(formatComputeWarning(warning));
    return operation;
  },
};

/**
 * Polls a compute operation until it is DONE and returns it; throws OperationError when it failed, DeadlineError
 * when `timeoutMs` passes or `signal` aborts. Pass the operation returned by the mutating call as `initial`: it is
 * the first observation, and when it is already DONE no poll happens.
 */
export function waitForComputeOperation(
  poll: Poll<ComputeOperation>,
  options?: WaitOptions & { initial?: ComputeOperation },
): Promise<ComputeOperation> {
  return waitForOperation(computeAdapter, poll, options);
}
