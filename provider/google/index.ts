/**
 * The Google REST client: what the other rooms (provider/resources, provider/plugin, sdk/, scripts/, bench/) import
 * from provider/google, and nothing else. Tests import the module they test by its path
 * (`../../provider/google/retry`); test/unit/boundaries.test.ts keeps this list to the names other rooms use.
 */
export { createGoogleClient } from "./client";
export type { CallOptions, GoogleClient } from "./client";
export {
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  GOOGLE_SETTING_KEYS,
  durationText,
  parseDurationMs,
  resolveGoogleSettings,
  SECRET_SETTING_KEYS,
} from "./settings";
export type { GoogleSettings, GoogleSettingsInput } from "./settings";
export type { EndpointId, EndpointParams, EndpointResult } from "./endpoint-types";
export type { Creative, Deployment, Policy, Subscription } from "./google-types";
export { checkCryptoKeyVersionName } from "./validation";
export { kmsAsymmetricSign, kmsPublicKey } from "./kms";
export type { KmsSignInput } from "./kms";
export { clearGoogleAuthCache } from "./auth";
export { describeQuota } from "./quota-wait-event";
export type { QuotaWaitEvent } from "./quota-wait-event";
