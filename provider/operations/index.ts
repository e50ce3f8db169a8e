/** The operation waiter: a plain library (no Pulumi, no HTTP) that polls through a function it is given. */
export { waitForComputeOperation } from "./compute-operation-waiter";
export { waitForLongRunningOperation } from "./long-running-operation-waiter";
export { DEFAULT_OPERATION_TIMEOUT_MS } from "./waiter-options";
export type { Poll, PollResult, ProgressEvent, WaitOptions } from "./waiter-options";
export {
  DEFAULT_INITIAL_POLL_DELAY_MS,
  DEFAULT_MAX_POLL_DELAY_MS,
  DEFAULT_MIN_POLL_DELAY_MS,
  DEFAULT_POLL_JITTER,
  DEFAULT_POLL_RELATIVE_STEP,
  DEFAULT_POLL_SCHEDULE,
  nextPollDelayMs,
} from "./schedule";
export { MAX_PLAUSIBLE_OPERATION_AGE_MS, OPERATION_AGE_SKEW_ALLOWANCE_MS, operationAgeAtStartMs } from "./waiter";
export type { PollSchedule, ScheduleState } from "./schedule";
export { systemClock } from "./clock";
export type { Clock } from "./clock";
export { OperationError } from "./operation-error";
export type { OperationErrorProperties } from "./operation-error";
export { formatComputeWarning, formatDuration } from "./format";
export type {
  ComputeErrorDetail,
  ComputeOperation,
  ComputeOperationErrorItem,
  ComputeOperationWarning,
  LongRunningOperation,
  RpcStatus,
} from "./operation-types";
