export { OpsLedgerError, isOpsLedgerError } from "./opsledger-error";
export type { OpsLedgerErrorProperties } from "./opsledger-error";
export { ValidationError } from "./validation-error";
export type { FieldFailure } from "./validation-error";
export { ConfigError } from "./config-error";
export { DeadlineError } from "./deadline-error";
