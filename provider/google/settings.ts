/**
 * Client settings, resolved once at the edge by one pure function. Keys and environment variables mirror pulumi-gcp /
 * Terraform's Google provider so users can reuse what they already export.
 */
import { ConfigError } from "../errors";
import { DEFAULT_UNIVERSE_DOMAIN, endpointRootsFor, normalizeEndpointRoot } from "./endpoint-roots";
import type { EndpointRootName } from "./endpoint-roots";
import type { DisplayVideoApiVersion } from "./endpoint-types";
import type { GoogleSettings, GoogleSettingsInput, GoogleSettingsSources } from "./settings-types";
import { parseBoolean, parseRequestReason, parseUniverseDomain, resolveQuotaProject } from "./request-settings";
import { DEFAULT_WORKSPACE_EVENTS_SCOPES, WORKSPACE_EVENTS_GET_SCOPES, expandScope } from "./scopes";

export {
  DEFAULT_ENDPOINT_ROOTS,
  DEFAULT_UNIVERSE_DOMAIN,
  SERVICE_HOST_NAMES,
  endpointRootsFor,
  normalizeEndpointRoot,
} from "./endpoint-roots";
export type { EndpointRootName } from "./endpoint-roots";
export type { GoogleSettings, GoogleSettingsInput, GoogleSettingsSources } from "./settings-types";

/** Per-attempt HTTP timeout when requestTimeout is not set (Terraform's request_timeout default is 0 = none). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Concurrent in-flight requests per service root. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

type Key = keyof GoogleSettingsInput;

/** Every setting, once: the stack config keys (`opsledger:<key>`) and the explicit arguments of a provider. */
const SETTING_KEYS: Readonly<Record<Key, true>> = {
  credentials: true,
  accessToken: true,
  impersonateServiceAccount: true,
  impersonateServiceAccountDelegates: true,
  project: true,
  billingProject: true,
  userProjectOverride: true,
  requestReason: true,
  universeDomain: true,
  requestTimeout: true,
  displayVideoApiVersion: true,
  maxConcurrentRequests: true,
  workspaceEventsScopes: true,
  iamCustomEndpoint: true,
  computeCustomEndpoint: true,
  deploymentManagerCustomEndpoint: true,
  workspaceEventsCustomEndpoint: true,
  displayVideoCustomEndpoint: true,
  kmsCustomEndpoint: true,
  iamCredentialsCustomEndpoint: true,
  oauth2CustomEndpoint: true,
};

/** The settings' names, in one list (the type makes a setting missing from it a compile error). */
export const GOOGLE_SETTING_KEYS: readonly Key[] = Object.freeze(Object.keys(SETTING_KEYS) as Key[]);

/**
 * Settings whose value is a secret, never printed: the schema marks them secret (scripts/gen-schema.ts), so the engine
 * and every SDK keep them encrypted and the plugin returns them wrapped as secrets.
 */
export const SECRET_SETTING_KEYS: readonly Key[] = Object.freeze(["credentials", "accessToken"] satisfies Key[]);

const ENV_NAMES: Readonly<Partial<Record<Key, readonly string[]>>> = {
  credentials: ["GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON"],
  accessToken: ["GOOGLE_OAUTH_ACCESS_TOKEN"],
  impersonateServiceAccount: ["GOOGLE_IMPERSONATE_SERVICE_ACCOUNT"],
  project: ["GOOGLE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT"],
  billingProject: ["GOOGLE_BILLING_PROJECT", "GOOGLE_CLOUD_QUOTA_PROJECT"],
  userProjectOverride: ["USER_PROJECT_OVERRIDE"],
  requestReason: ["CLOUDSDK_CORE_REQUEST_REASON"],
  universeDomain: ["GOOGLE_CLOUD_UNIVERSE_DOMAIN"],
  displayVideoApiVersion: ["OPSLEDGER_DISPLAY_VIDEO_API_VERSION"],
  iamCustomEndpoint: ["GOOGLE_IAM_CUSTOM_ENDPOINT"],
  computeCustomEndpoint: ["GOOGLE_COMPUTE_CUSTOM_ENDPOINT"],
  deploymentManagerCustomEndpoint: ["GOOGLE_DEPLOYMENT_MANAGER_CUSTOM_ENDPOINT"],
  workspaceEventsCustomEndpoint: ["GOOGLE_WORKSPACE_EVENTS_CUSTOM_ENDPOINT"],
  displayVideoCustomEndpoint: ["GOOGLE_DISPLAY_VIDEO_CUSTOM_ENDPOINT"],
  kmsCustomEndpoint: ["GOOGLE_KMS_CUSTOM_ENDPOINT"],
  iamCredentialsCustomEndpoint: ["GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT"],
  oauth2CustomEndpoint: ["GOOGLE_OAUTH2_CUSTOM_ENDPOINT"],
};

/** The environment variables a setting falls back to, in the order they are read (the README's table). */
export function settingEnvNames(key: Key): readonly string[] {
  return ENV_NAMES[key] ?? [];
}

const ENDPOINT_KEYS: Readonly<Record<EndpointRootName, Key>> = {
  iam: "iamCustomEndpoint",
  compute: "computeCustomEndpoint",
  deploymentManager: "deploymentManagerCustomEndpoint",
  workspaceEvents: "workspaceEventsCustomEndpoint",
  displayVideo: "displayVideoCustomEndpoint",
  kms: "kmsCustomEndpoint",
  iamCredentials: "iamCredentialsCustomEndpoint",
  oauth2: "oauth2CustomEndpoint",
};

const EMAIL = /^[^@\s/]+@[^@\s/]+$/;
const DURATION_PART = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
const DURATION = /^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/;
const UNIT_MS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

interface Found {
  readonly value: string | number | boolean | readonly string[];
  /** How to name the setting in messages: "credentials", "opsledger:credentials" or "GOOGLE_CREDENTIALS". */
  readonly name: string;
  readonly origin: string;
}

type Level = "explicit" | "config" | "env";

function isSet(value: unknown): value is string | number | boolean | readonly string[] {
  return value !== undefined && value !== null && value !== "";
}

function lookupAt(sources: GoogleSettingsSources, key: Key, level: Level): Found | undefined {
  if (level === "explicit") {
    const value = sources.explicit?.[key];
    return isSet(value) ? { value, name: key, origin: `explicit:${key}` } : undefined;
  }
  if (level === "config") {
    const value = sources.config?.(key);
    return isSet(value) ? { value, name: `opsledger:${key}`, origin: `opsledger:${key}` } : undefined;
  }
  for (const envName of ENV_NAMES[key] ?? []) {
    const value = sources.env?.[envName];
    if (isSet(value)) return { value, name: envName, origin: `env:${envName}` };
  }
  return undefined;
}

function lookup(sources: GoogleSettingsSources, key: Key): Found | undefined {
  return lookupAt(sources, key, "explicit") ?? lookupAt(sources, key, "config") ?? lookupAt(sources, key, "env");
}

function asString(found: Found): string {
  if (typeof found.value === "string") return found.value.trim();
  throw new ConfigError({ setting: found.name, message: `${found.name} must be a string` });
}

/** A switch: a boolean as given (explicit arguments), otherwise its text. */
function asFlag(found: Found): string | boolean {
  return typeof found.value === "boolean" ? found.value : asString(found);
}

/** A JSON array of strings or a comma-separated list. */
function asList(found: Found): string[] {
  if (typeof found.value === "number" || typeof found.value === "boolean") {
    throw new ConfigError({ setting: found.name, message: `${found.name} must be a list of strings` });
  }
  if (typeof found.value !== "string") return found.value.map((v) => v.trim()).filter((v) => v !== "");
  const text = found.value.trim();
  if (text.startsWith("[")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === "string")) {
      throw new ConfigError({
        setting: found.name,
        message: `${found.name} must be a JSON array of strings or a comma-separated list`,
      });
    }
    return parsed.map((v) => v.trim()).filter((v) => v !== "");
  }
  return text
    .split(",")
    .map((v) => v.trim())
    .filter((v) => v !== "");
}

/** "60s", "1m30s", "500ms", "1.5s" -> milliseconds. */
export function parseDurationMs(text: string): number | undefined {
  const trimmed = text.trim();
  if (!DURATION.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(DURATION_PART)) {
    total += Number(match[1]) * (UNIT_MS[match[2] ?? "ms"] ?? 1);
  }
  return Math.round(total);
}

/** Milliseconds as parseDurationMs reads them, in the largest whole unit: 1_200_000 -> "20m", 1_500 -> "1500ms". */
export function durationText(ms: number): string {
  const unit = (["h", "m", "s"] as const).find((u) => ms % (UNIT_MS[u] ?? 1) === 0);
  return unit === undefined ? `${ms}ms` : `${ms / (UNIT_MS[unit] ?? 1)}${unit}`;
}

function resolveCredentialSource(sources: GoogleSettingsSources): { credentials?: Found; accessToken?: Found } {
  for (const level of ["explicit", "config", "env"] as const) {
    const credentials = lookupAt(sources, "credentials", level);
    const accessToken = lookupAt(sources, "accessToken", level);
    if (credentials !== undefined && accessToken !== undefined) {
      throw new ConfigError({
        setting: credentials.name,
        message:
          `${credentials.name} and ${accessToken.name} are both set: set only one of them ` +
          `(a credential file or JSON, or a ready access token)`,
      });
    }
    if (credentials !== undefined) return { credentials };
    if (accessToken !== undefined) return { accessToken };
  }
  return {};
}

function positiveInteger(found: Found): number {
  const n = typeof found.value === "number" ? found.value : Number(asString(found));
  if (!Number.isInteger(n) || n < 1 || n > 10_000) {
    throw new ConfigError({
      setting: found.name,
      message: `${found.name} must be a whole number from 1 to 10000, got '${String(found.value)}'`,
    });
  }
  return n;
}

/**
 * Resolves the Google client settings.
 *
 * Precedence, per setting: explicit arguments, then stack config (`opsledger:<key>`), then environment variables (the
 * `GOOGLE_*` names of pulumi-gcp / Terraform, first set one wins in the documented order), then defaults. `credentials`
 * and `accessToken` form one group: the highest level that sets either decides, and setting both at that level is a
 * ConfigError. `universeDomain` moves every default host to `https://<service>.<universe>`; a custom endpoint is a
 * service root used as given; a pasted pulumi-gcp base URL has its version path stripped. The x-goog-user-project
 * header (`quotaProject`) follows billingProject, project and userProjectOverride as resolveQuotaProject says.
 * Malformed values (URLs, durations, unknown DV360 versions, scopes) are ConfigErrors naming the setting; secret
 * values are never put in messages.
 */
export function resolveGoogleSettings(sources: GoogleSettingsSources = {}): GoogleSettings {
  const origins: Partial<Record<Key, string>> = {};
  const take = (key: Key): Found | undefined => {
    const found = lookup(sources, key);
    if (found !== undefined) origins[key] = found.origin;
    return found;
  };

  const { credentials, accessToken } = resolveCredentialSource(sources);
  if (credentials !== undefined) origins.credentials = credentials.origin;
  if (accessToken !== undefined) origins.accessToken = accessToken.origin;

  const impersonate = take("impersonateServiceAccount");
  const impersonateServiceAccount = impersonate === undefined ? undefined : asString(impersonate);
  if (impersonate !== undefined && impersonateServiceAccount !== undefined && !EMAIL.test(impersonateServiceAccount)) {
    throw new ConfigError({
      setting: impersonate.name,
      message: `${impersonate.name} '${impersonateServiceAccount}' must be a service account email`,
    });
  }
  const delegatesFound = take("impersonateServiceAccountDelegates");
  const delegates = delegatesFound === undefined ? [] : asList(delegatesFound);
  if (delegatesFound !== undefined) {
    const bad = delegates.find((d) => !EMAIL.test(d));
    if (bad !== undefined) {
      throw new ConfigError({
        setting: delegatesFound.name,
        message: `${delegatesFound.name} entry '${bad}' must be a service account email`,
      });
    }
    if (impersonateServiceAccount === undefined && delegates.length > 0) {
      throw new ConfigError({
        setting: delegatesFound.name,
        message: `${delegatesFound.name} is set but impersonateServiceAccount is not: set the account to impersonate`,
      });
    }
  }

  const timeoutFound = take("requestTimeout");
  let requestTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS;
  if (timeoutFound !== undefined) {
    const parsed = parseDurationMs(asString(timeoutFound));
    if (parsed === undefined || parsed <= 0) {
      throw new ConfigError({
        setting: timeoutFound.name,
        message: `${timeoutFound.name} '${String(timeoutFound.value)}' must be a positive duration such as "60s", "1m30s" or "500ms"`,
      });
    }
    requestTimeoutMs = parsed;
  }

  const versionFound = take("displayVideoApiVersion");
  let displayVideoApiVersion: DisplayVideoApiVersion | undefined;
  if (versionFound !== undefined) {
    const version = asString(versionFound);
    if (version !== "v1" && version !== "v2" && version !== "v3" && version !== "v4") {
      throw new ConfigError({
        setting: versionFound.name,
        message: `${versionFound.name} '${version}' is not a Display & Video 360 API version: use v4 (v1, v2 and v3 are sunset)`,
      });
    }
    displayVideoApiVersion = version;
  }

  const concurrencyFound = take("maxConcurrentRequests");
  const maxConcurrentRequests =
    concurrencyFound === undefined ? DEFAULT_MAX_CONCURRENT_REQUESTS : positiveInteger(concurrencyFound);

  const scopesFound = take("workspaceEventsScopes");
  let workspaceEventsScopes = DEFAULT_WORKSPACE_EVENTS_SCOPES;
  if (scopesFound !== undefined) {
    const scopes = asList(scopesFound).map(expandScope);
    const bad = scopes.find((s) => !WORKSPACE_EVENTS_GET_SCOPES.includes(s));
    if (bad !== undefined || scopes.length === 0) {
      throw new ConfigError({
        setting: scopesFound.name,
        message:
          `${scopesFound.name} ${bad === undefined ? "is empty" : `has '${bad}'`}, which ` +
          `workspaceevents.subscriptions.get does not accept; use one of: ${WORKSPACE_EVENTS_GET_SCOPES.join(", ")}`,
      });
    }
    workspaceEventsScopes = scopes;
  }

  const universeFound = take("universeDomain");
  const universeDomain =
    universeFound === undefined
      ? DEFAULT_UNIVERSE_DOMAIN
      : parseUniverseDomain(asString(universeFound), universeFound.name);
  // A custom endpoint replaces its root as given, universe or not (Terraform's BaseUrl does the same).
  const endpoints = { ...endpointRootsFor(universeDomain) };
  for (const service of Object.keys(ENDPOINT_KEYS) as EndpointRootName[]) {
    const found = take(ENDPOINT_KEYS[service]);
    if (found !== undefined) endpoints[service] = normalizeEndpointRoot(service, asString(found), found.name);
  }

  const projectFound = take("project");
  const project = projectFound === undefined ? undefined : asString(projectFound);
  const billingFound = take("billingProject");
  const billingProject = billingFound === undefined ? undefined : asString(billingFound);
  const overrideFound = take("userProjectOverride");
  const userProjectOverride =
    overrideFound === undefined ? undefined : parseBoolean(asFlag(overrideFound), overrideFound.name);
  const quotaProject = resolveQuotaProject({
    ...(billingProject === undefined ? {} : { billingProject }),
    ...(project === undefined ? {} : { project }),
    ...(userProjectOverride === undefined ? {} : { userProjectOverride }),
    ...(overrideFound === undefined ? {} : { overrideName: overrideFound.name }),
  });
  const reasonFound = take("requestReason");
  const requestReason =
    reasonFound === undefined ? undefined : parseRequestReason(asString(reasonFound), reasonFound.name);
  const env = sources.env ?? {};
  const credentialsFile = env["GOOGLE_APPLICATION_CREDENTIALS"] ?? env["google_application_credentials"];
  const gcloudConfigDir =
    env["CLOUDSDK_CONFIG"] ??
    (env["APPDATA"] !== undefined && env["HOME"] === undefined ? `${env["APPDATA"]}/gcloud` : undefined) ??
    (env["HOME"] !== undefined ? `${env["HOME"]}/.config/gcloud` : undefined);

  const settings: GoogleSettings = {
    ...(impersonateServiceAccount === undefined ? {} : { impersonateServiceAccount }),
    impersonateServiceAccountDelegates: Object.freeze(delegates),
    ...(project === undefined ? {} : { project }),
    ...(billingProject === undefined ? {} : { billingProject }),
    ...(userProjectOverride === undefined ? {} : { userProjectOverride }),
    ...(quotaProject === undefined ? {} : { quotaProject }),
    ...(requestReason === undefined ? {} : { requestReason }),
    universeDomain,
    requestTimeoutMs,
    ...(displayVideoApiVersion === undefined ? {} : { displayVideoApiVersion }),
    maxConcurrentRequests,
    workspaceEventsScopes: Object.freeze([...workspaceEventsScopes]),
    endpoints: Object.freeze(endpoints),
    applicationDefault: Object.freeze({
      ...(isSet(credentialsFile) ? { credentialsFile } : {}),
      ...(isSet(gcloudConfigDir) ? { gcloudConfigDir } : {}),
    }),
    origins: Object.freeze(origins),
  };
  // Secrets are non-enumerable: JSON.stringify, util.inspect and spreads never show them.
  if (credentials !== undefined) {
    Object.defineProperty(settings, "credentials", { value: asString(credentials), enumerable: false });
  }
  if (accessToken !== undefined) {
    Object.defineProperty(settings, "accessToken", { value: asString(accessToken), enumerable: false });
  }
  return Object.freeze(settings);
}
