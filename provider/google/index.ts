/** The Google REST client: the public surface of provider/google. */
export { createGoogleClient, requestedScopesFor } from "./client";
export type { CallOptions, GoogleClient, GoogleClientOptions } from "./client";
export {
  DEFAULT_ENDPOINT_ROOTS,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  DEFAULT_UNIVERSE_DOMAIN,
  GOOGLE_SETTING_KEYS,
  SECRET_SETTING_KEYS,
  endpointRootsFor,
  normalizeEndpointRoot,
  parseDurationMs,
  resolveGoogleSettings,
  settingEnvNames,
} from "./settings";
export type { EndpointRootName, GoogleSettings, GoogleSettingsInput, GoogleSettingsSources } from "./settings";
export { ENDPOINTS, ENDPOINT_IDS, buildRequest, getEndpoint, resolveApiVersion } from "./endpoints";
export type { BuiltRequest } from "./endpoints";
export type {
  CheckResult,
  DisplayVideoApiVersion,
  DisplayVideoOwner,
  EndpointDefinition,
  EndpointId,
  EndpointParams,
  EndpointParamsMap,
  EndpointResult,
  EndpointResultMap,
  HttpMethod,
  Idempotency,
  NormalizedParams,
  ParamSpec,
  ServiceName,
} from "./endpoint-types";
export type * from "./google-types";
export {
  DEFAULT_WORKSPACE_EVENTS_SCOPES,
  SCOPES,
  SCOPE_PREFIX,
  WORKSPACE_EVENTS_GET_SCOPES,
  expandScope,
} from "./scopes";
export {
  INT64_MAX,
  checkComputeOperationName,
  checkCrc32c,
  checkCryptoKeyVersionName,
  checkDeploymentManagerProject,
  checkDeploymentName,
  checkDisplayVideoApiVersion,
  checkEndpointParams,
  checkExactlyOneOwner,
  checkFirewallPolicy,
  checkIamOperationName,
  checkInt64,
  checkKmsDigest,
  checkParentId,
  checkRequestId,
  checkRequestedPolicyVersion,
  checkSubscriptionName,
  checkWorkforcePoolResource,
  parseComputeOperationRef,
  validateEndpointParams,
} from "./validation";
export { ApiError, formatApiErrorMessage, isApiError } from "./api-error";
export type { ApiErrorProperties } from "./api-error";
export { AuthError } from "./auth-error";
export { DEFAULT_KMS_INTEGRITY_ATTEMPTS, crc32c, kmsAsymmetricSign, kmsPublicKey } from "./kms";
export type { KmsSignInput } from "./kms";
export type { KmsCallOptions, KmsPublicKeyResult } from "./kms";
export { KmsIntegrityError } from "./kms-integrity-error";
export { parseDurationStringMs, parseGoogleError, parseRetryAfterMs } from "./parse-error";
export type {
  ErrorInfoDetail,
  FieldViolation,
  GoogleErrorDetails,
  HelpLink,
  LegacyErrorItem,
  ParsedGoogleError,
  QuotaViolation,
  RetryInfoDetail,
} from "./parse-error";
export {
  DEFAULT_RETRY_INITIAL_DELAY_MS,
  DEFAULT_RETRY_MAX_ATTEMPTS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_RETRY_MAX_QUOTA_WAIT_MS,
  DEFAULT_RETRY_MAX_SERVER_DELAY_MS,
  DEFAULT_RETRY_MULTIPLIER,
  backoffDelayMs,
  classifyHttpFailure,
  classifyNetworkFailure,
  isRetrySafe,
  QUOTA_EXHAUSTED_REASONS,
} from "./retry";
export type { FailureClassification, RetryInfoEvent, RetryOptions } from "./retry";
export { DEFAULT_TOKEN_REFRESH_MARGIN_MS, clearGoogleAuthCache, createGoogleTokenSource } from "./auth";
export { GOOGLE_TOKEN_URL } from "./auth-clients";
export type { GoogleTokenSourceOptions, TokenRequestOptions, TokenSource } from "./auth";
export { createLimiter, sharedLimiter } from "./limiter";
export type { Limiter } from "./limiter";
export {
  DEFAULT_QUOTA_WINDOW_MS,
  MIN_QUOTA_HOLD_MS,
  QuotaPacer,
  clearQuotaPacers,
  pacersFor,
  quotaUnitWindowMs,
  rateLimitNotice,
  sharedQuotaPacer,
} from "./quota-pacer";
export type { QuotaPacerOptions, RateLimitNotice } from "./quota-pacer";
export { describeQuota } from "./quota-wait-event";
export type { QuotaWaitEvent } from "./quota-wait-event";
export { delay } from "./delay";
export { DISPLAY_VIDEO_SUNSET_DATES, displayVideoDeprecation } from "./deprecations";
export { redactText, redactUrl } from "./redact";
