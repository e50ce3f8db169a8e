/**
 * Waits for a google.longrunning.Operation (IAM v3beta operations, endpoint 2): done when `done` is true; then
 * `error` is a failure, `response` a success, and neither is a failure too (never a hang).
 */
import { rpcStatusAnomalies } from "./anomalies";
import { OperationError } from "../errors/operations/operation-error";
import type { LongRunningOperation } from "./operation-types";
import { waitForOperation } from "./waiter";
import type { OperationAdapter } from "./waiter";
import type { Poll, WaitOptions } from "./waiter-options";

const longRunningAdapter: OperationAdapter<LongRunningOperation> = {
  name: (operation) => operation.name,
  observe(operation) {
    const done: unknown = operation.done;
    const anomalies: string[] = [];
    if (done !== undefined && typeof done !== "boolean") {
      anomalies.push(`done is ${JSON.stringify(done)}, not a boolean; treating the operation as not done`);
    }
    if (done !== true && (operation.error !== undefined || operation.response !== undefined)) {
      anomalies.push("the operation carries an error or a response but done is not true; waiting for done");
    }
    const statusMessage = operation.metadata?.["statusMessage"];
    const createTime = operation.metadata?.["createTime"];
    return {
      status: done === true ? "DONE" : "RUNNING",
      statusMessage: typeof statusMessage === "string" ? statusMessage : undefined,
      done: done === true,
      anomalies,
      startedAt: typeof createTime === "string" ? createTime : undefined,
    };
  },
  finish(operation, { target, warn }) {
    const { error } = operation;
    if (typeof error === "object") {
      if (operation.response !== undefined)
        warn("the operation carries both an error and a response; reporting the error");
      rpcStatusAnomalies(error).forEach(warn);
      throw new OperationError({ kind: "longrunning", operationName: operation.name, target, status: error });
    }
    if (operation.response !== undefined) return operation;
    throw new OperationError({ kind: "longrunning", operationName: operation.name, target });
  },
};

/**
 * Polls a long-running operation until `done` and returns it (with its `response`); throws OperationError for an
 * `error` or for a done operation with neither, DeadlineError when `timeoutMs` passes or `signal` aborts.
 * When `initial` is already done, no poll happens.
 */
export function waitForLongRunningOperation(
  poll: Poll<LongRunningOperation>,
  options?: WaitOptions & { initial?: LongRunningOperation },
): Promise<LongRunningOperation> {
  return waitForOperation(longRunningAdapter, poll, options);
}
