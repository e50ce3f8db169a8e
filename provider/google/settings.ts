/**
 * Client settings, resolved once at the edge by one pure function. Keys and environment variables mirror pulumi-gcp /
 * Terraform (reference google-apis.md §10) so users can reuse what they already export.
 */
import { ConfigError } from "../errors";
import type { DisplayVideoApiVersion, ServiceName } from "./endpoint-types";
import { DEFAULT_WORKSPACE_EVENTS_SCOPES, WORKSPACE_EVENTS_GET_SCOPES, expandScope } from "./scopes";

/** Per-attempt HTTP timeout when requestTimeout is not set (Terraform's request_timeout default is 0 = none). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
/** Concurrent in-flight requests per service root. */
export const DEFAULT_MAX_CONCURRENT_REQUESTS = 8;

/** Every service root the client knows: the six API services plus the two token services. */
export type EndpointRootName = ServiceName | "iamCredentials" | "oauth2";

/** The Google hosts of reference §10, as service roots (the API path is appended by the endpoint table). */
export const DEFAULT_ENDPOINT_ROOTS: Readonly<Record<EndpointRootName, string>> = Object.freeze({
  iam: "https://iam.googleapis.com",
  compute: "https://compute.googleapis.com",
  deploymentManager: "https://deploymentmanager.googleapis.com",
  workspaceEvents: "https://workspaceevents.googleapis.com",
  displayVideo: "https://displayvideo.googleapis.com",
  kms: "https://cloudkms.googleapis.com",
  iamCredentials: "https://iamcredentials.googleapis.com",
  oauth2: "https://oauth2.googleapis.com",
});

/** The raw, unparsed settings (all strings except where a list or number is natural). */
export interface GoogleSettingsInput {
  /** A credential file path or its JSON contents (service_account, authorized_user, external_account, ...). */
  credentials: string;
  /** A ready OAuth 2.0 access token. */
  accessToken: string;
  /** A service account email to impersonate through IAM Credentials. */
  impersonateServiceAccount: string;
  /** The delegation chain: a JSON array or a comma-separated list of service account emails. */
  impersonateServiceAccountDelegates: string | readonly string[];
  /** The default Google Cloud project. */
  project: string;
  /** Sent as x-goog-user-project: the project billed for quota. */
  billingProject: string;
  /** A per-attempt timeout such as "60s", "1m30s" or "500ms". */
  requestTimeout: string;
  /** v1..v4; unset means each DV360 endpoint's default (v1 for inventory source groups, v3 for creatives). */
  displayVideoApiVersion: string;
  /** In-flight requests per service root (default 8). */
  maxConcurrentRequests: string | number;
  /** Scopes requested for workspaceevents.subscriptions.get: a JSON array or comma list, short names or URIs. */
  workspaceEventsScopes: string | readonly string[];
  /** The IAM service root URL, instead of Google's (a sandbox, a private endpoint). */
  iamCustomEndpoint: string;
  /** The Compute Engine service root URL, instead of Google's. */
  computeCustomEndpoint: string;
  /** The Deployment Manager service root URL, instead of Google's. */
  deploymentManagerCustomEndpoint: string;
  /** The Workspace Events service root URL, instead of Google's. */
  workspaceEventsCustomEndpoint: string;
  /** The Display & Video 360 service root URL, instead of Google's. */
  displayVideoCustomEndpoint: string;
  /** The Cloud KMS service root URL (ledger signing), instead of Google's. */
  kmsCustomEndpoint: string;
  /** The IAM Credentials service root URL (impersonation), instead of Google's. */
  iamCredentialsCustomEndpoint: string;
  /** The OAuth 2.0 token service root URL, instead of Google's. */
  oauth2CustomEndpoint: string;
}

export interface GoogleSettingsSources {
  explicit?: Partial<GoogleSettingsInput>;
  /** Stack config lookup; the key has no "opsledger:" prefix. */
  config?: (key: string) => string | undefined;
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Resolved settings. `credentials` and `accessToken` are non-enumerable, so serializing or logging the object never
 * prints them; do not copy settings with object spread (resolve again instead).
 */
export interface GoogleSettings {
  readonly credentials?: string;
  readonly accessToken?: string;
  readonly impersonateServiceAccount?: string;
  readonly impersonateServiceAccountDelegates: readonly string[];
  readonly project?: string;
  readonly billingProject?: string;
  readonly requestTimeoutMs: number;
  readonly displayVideoApiVersion?: DisplayVideoApiVersion;
  readonly maxConcurrentRequests: number;
  /** Full scope URIs. */
  readonly workspaceEventsScopes: readonly string[];
  /** Service roots, without a trailing slash. */
  readonly endpoints: Readonly<Record<EndpointRootName, string>>;
  /** Application Default Credentials inputs taken from the environment (file path, gcloud config directory). */
  readonly applicationDefault: { readonly credentialsFile?: string; readonly gcloudConfigDir?: string };
  /** Where each set value came from: "explicit:credentials", "opsledger:project", "env:GOOGLE_PROJECT". */
  readonly origins: Readonly<Partial<Record<keyof GoogleSettingsInput, string>>>;
}

type Key = keyof GoogleSettingsInput;

const ENV_NAMES: Readonly<Partial<Record<Key, readonly string[]>>> = {
  credentials: ["GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON"],
  accessToken: ["GOOGLE_OAUTH_ACCESS_TOKEN"],
  impersonateServiceAccount: ["GOOGLE_IMPERSONATE_SERVICE_ACCOUNT"],
  project: ["GOOGLE_PROJECT", "GOOGLE_CLOUD_PROJECT", "GCLOUD_PROJECT", "CLOUDSDK_CORE_PROJECT"],
  billingProject: ["GOOGLE_BILLING_PROJECT"],
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

/** Version paths a pulumi-gcp / Terraform style base URL ends in; stripped to get the service root. */
const VERSION_SUFFIXES: Readonly<Record<EndpointRootName, RegExp>> = {
  iam: /\/(?:v1|v2|v2beta|v3|v3beta)$/,
  compute: /\/compute\/(?:v1|beta|alpha)$/,
  deploymentManager: /\/deploymentmanager\/(?:v2|v2beta|alpha)$/,
  workspaceEvents: /\/(?:v1|v1beta)$/,
  displayVideo: /\/v[1-4]$/,
  kms: /\/v1$/,
  iamCredentials: /\/v1$/,
  oauth2: /\/token$/,
};

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
  readonly value: string | number | readonly string[];
  /** How to name the setting in messages: "credentials", "opsledger:credentials" or "GOOGLE_CREDENTIALS". */
  readonly name: string;
  readonly origin: string;
}

type Level = "explicit" | "config" | "env";

function isSet(value: unknown): value is string | number | readonly string[] {
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

/** A JSON array of strings or a comma-separated list. */
function asList(found: Found): string[] {
  if (typeof found.value === "number") {
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

/**
 * A custom endpoint as a service root: http(s), no credentials, query or fragment, no trailing slash, and without a
 * pulumi-gcp style version path (`https://compute.googleapis.com/compute/v1/` -> `https://compute.googleapis.com`).
 */
export function normalizeEndpointRoot(service: EndpointRootName, value: string, settingName: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  const hasUserInfo = url !== undefined && (url.username !== "" || url.password !== "");
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || hasUserInfo) {
    const shown = hasUserInfo ? "(a URL with user credentials)" : `'${value.trim().slice(0, 200)}'`;
    throw new ConfigError({
      setting: settingName,
      message:
        `${settingName} ${shown} is not a usable endpoint: it must be an http(s) service root without user ` +
        `credentials, such as ${DEFAULT_ENDPOINT_ROOTS[service]}`,
    });
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ConfigError({
      setting: settingName,
      message: `${settingName} must not have a query string or fragment: give the service root, such as ${DEFAULT_ENDPOINT_ROOTS[service]}`,
    });
  }
  const path = url.pathname.replace(/\/+$/, "").replace(VERSION_SUFFIXES[service], "");
  return `${url.origin}${path}`;
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
 * ConfigError. A custom endpoint is a service root; a pasted pulumi-gcp base URL has its version path stripped.
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

  const endpoints = { ...DEFAULT_ENDPOINT_ROOTS };
  for (const service of Object.keys(ENDPOINT_KEYS) as EndpointRootName[]) {
    const found = take(ENDPOINT_KEYS[service]);
    if (found !== undefined) endpoints[service] = normalizeEndpointRoot(service, asString(found), found.name);
  }

  const project = take("project");
  const billingProject = take("billingProject");
  const env = sources.env ?? {};
  const credentialsFile = env["GOOGLE_APPLICATION_CREDENTIALS"] ?? env["google_application_credentials"];
  const gcloudConfigDir =
    env["CLOUDSDK_CONFIG"] ??
    (env["APPDATA"] !== undefined && env["HOME"] === undefined ? `${env["APPDATA"]}/gcloud` : undefined) ??
    (env["HOME"] !== undefined ? `${env["HOME"]}/.config/gcloud` : undefined);

  const settings: GoogleSettings = {
    ...(impersonateServiceAccount === undefined ? {} : { impersonateServiceAccount }),
    impersonateServiceAccountDelegates: Object.freeze(delegates),
    ...(project === undefined ? {} : { project: asString(project) }),
    ...(billingProject === undefined ? {} : { billingProject: asString(billingProject) }),
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
