/** The shapes of the Google client settings: what users set (raw), where it comes from, and what is resolved. */
import type { EndpointRootName } from "./endpoint-roots";
import type { DisplayVideoApiVersion } from "./endpoint-types";

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
  /** The quota project (x-goog-user-project): always sent unless userProjectOverride is false. */
  billingProject: string;
  /**
   * Terraform's user_project_override: true sends billingProject (else project) as the quota project, false sends
   * none; unset keeps the 0.1 behaviour (billingProject when set). "true"/"false"/"1"/"0" or a boolean.
   */
  userProjectOverride: string | boolean;
  /** Text for the audit log, sent as the X-Goog-Request-Reason header of every API request. */
  requestReason: string;
  /** The universe every API and token host is in (`https://<service>.<universe>`). @default "googleapis.com" */
  universeDomain: string;
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
  /** userProjectOverride as set; undefined when not set. */
  readonly userProjectOverride?: boolean;
  /** The x-goog-user-project header every API request carries (decision 0031), when there is one. */
  readonly quotaProject?: string;
  /** The X-Goog-Request-Reason header every API request carries, when set. */
  readonly requestReason?: string;
  /** The universe of every default host; a credential of another universe is refused before any request. */
  readonly universeDomain: string;
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
