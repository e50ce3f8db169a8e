/**
 * The Google sandbox: a local fake of the Google endpoints this package calls (IAM, Compute, Deployment Manager,
 * Workspace Events, Display & Video 360, Cloud KMS) plus the token services (STS, IAM Credentials, OAuth2) behind
 * real OAuth flows.
 * See sandbox/README.md.
 */
export { startGoogleSandbox, DEFAULT_MOVE_DURATION_MS, DEFAULT_OPERATION_RETENTION_MS } from "./sandbox";
export { createManualClock, DEFAULT_MANUAL_CLOCK_START_MS } from "./clock";
export { DEFAULT_SEED } from "./fixture";
export * as fixture from "./fixture";
export { FIXTURE_CREATIVE_IDS } from "./fixture-creatives";
export { SandboxInputError } from "./sandbox-input-error";
export { DEFAULT_IMPERSONATED_SERVICE_ACCOUNT, DEFAULT_FEDERATED_SUBJECT } from "./core";
export { DEFAULT_FAULT_SEED, DEFAULT_FAULT_LATENCY_MS, DEFAULT_FAULT_STATUS } from "./faults";
export { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./auth/token-store";
export { SCOPE_PREFIX } from "./scopes";
export type * from "./types";
export type * from "./seed-types";
export type * as wire from "./wire";
