/**
 * The operation waiter: a plain library (no Pulumi, no HTTP) that polls through a function it is given. This index
 * holds what other rooms import; tests import the module they test by its path (test/unit/boundaries.test.ts).
 */
export { waitForComputeOperation } from "./compute-operation-waiter";
export { waitForLongRunningOperation } from "./long-running-operation-waiter";
export { DEFAULT_POLL_SCHEDULE, nextPollDelayMs } from "./schedule";
export { DEFAULT_OPERATION_TIMEOUT_MS } from "./waiter-options";
export type { PollSchedule } from "./schedule";
