/**
 * Building google-auth-library clients from settings and credential files, with type-specific constructors (11.x
 * deprecates `fromJSON`): service_account (JWT), authorized_user (UserRefreshClient), external_account (identity pool,
 * AWS, executable), external_account_authorized_user and impersonated_service_account; otherwise Application Default
 * Credentials; then optional impersonation. Custom oauth2 / iamCredentials endpoints are applied here.
 */
import { join } from "node:path";
import {
  AwsClient,
  Compute,
  ExternalAccountAuthorizedUserClient,
  IdentityPoolClient,
  Impersonated,
  JWT,
  OAuth2Client,
  PluggableAuthClient,
  UserRefreshClient,
  gaxios,
} from "google-auth-library";
import type {
  AuthClient,
  AwsClientOptions,
  ExternalAccountAuthorizedUserClientOptions,
  IdentityPoolClientOptions,
  PluggableAuthClientOptions,
} from "google-auth-library";
import { ConfigError } from "../errors";
import { checkCredentialUniverse } from "./request-settings";
import type { UniverseInForce } from "./request-settings";
import { networkErrorCode } from "./retry";
import { SCOPES } from "./scopes";
import type { GoogleSettings } from "./settings";
import { DEFAULT_ENDPOINT_ROOTS } from "./settings";

/**
 * The token URL google-auth-library hard-codes for the service-account JWT flow (google-auth-library 11.3.4's
 * `GOOGLE_TOKEN_URL`).
 */
export const GOOGLE_TOKEN_URL = "https://oauth2.googleapis.com/token";

/** File system and metadata-server access, injectable for tests. */
export interface AuthClientDeps {
  readonly readFile: (path: string) => Promise<string>;
  readonly fileExists: (path: string) => Promise<boolean>;
  readonly metadataAvailable: () => Promise<boolean>;
  readonly now: () => number;
}

type Json = Readonly<Record<string, unknown>>;

function settingName(settings: GoogleSettings): string {
  const origin = settings.origins.credentials ?? "explicit:credentials";
  return origin.replace(/^(explicit|env):/, "");
}

function universeOf(settings: GoogleSettings): UniverseInForce {
  const origin = settings.origins.universeDomain;
  return { universeDomain: settings.universeDomain, ...(origin === undefined ? {} : { origin }) };
}

async function loadJson(value: string, name: string, deps: AuthClientDeps, isPath: boolean): Promise<Json> {
  let text = value;
  if (isPath) {
    try {
      text = await deps.readFile(value);
    } catch (error) {
      const code = networkErrorCode(error) ?? "unreadable";
      throw new ConfigError({
        setting: name,
        message: `${name}: cannot read the credential file '${value}' (${code})`,
      });
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    const what = isPath ? `the credential file '${value}'` : "the credential JSON";
    throw new ConfigError({ setting: name, message: `${name}: ${what} is not a JSON object` });
  }
  return parsed as Json;
}

function requireString(json: Json, field: string, name: string, type: string): string {
  const value = json[field];
  if (typeof value !== "string" || value === "") {
    throw new ConfigError({ setting: name, message: `${name}: the ${type} credential has no '${field}' field` });
  }
  return value;
}

/** Token URLs from a credential file must be https (plain http only to a loopback host, e.g. a local sandbox). */
function checkCredentialUrl(json: Json, field: string, name: string): void {
  const value = json[field];
  if (value === undefined) return;
  let url: URL | undefined;
  try {
    url = typeof value === "string" ? new URL(value) : undefined;
  } catch {
    url = undefined;
  }
  const loopback = url !== undefined && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
  if (url === undefined || !(url.protocol === "https:" || (url.protocol === "http:" && loopback))) {
    throw new ConfigError({
      setting: name,
      message: `${name}: the credential's ${field} must be an https URL (http only for a loopback host)`,
    });
  }
}

/** A transporter that sends the hard-coded Google token URL to the oauth2 custom endpoint instead. */
function oauth2Transporter(oauth2Root: string): gaxios.Gaxios | undefined {
  if (oauth2Root === DEFAULT_ENDPOINT_ROOTS.oauth2) return undefined;
  const target = `${oauth2Root}/token`;
  const transporter = new gaxios.Gaxios();
  transporter.interceptors.request.add({
    resolved: (config) => {
      if (config.url.href === GOOGLE_TOKEN_URL) config.url = new URL(target);
      return Promise.resolve(config);
    },
  });
  return transporter;
}

interface GalUtil {
  suppressAdcWarning?: <T>(build: () => T) => T;
}

/**
 * Builds an Impersonated client without the console warning its constructor prints about unvalidated credential
 * configurations: our inputs are validated (the target is an email from settings or a checked file, the endpoint a
 * validated setting). The helper is internal to google-auth-library, so its absence only brings the warning back.
 */
function quietly<T>(build: () => T): T {
  let util: GalUtil | undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- internal helper, not in the package's typings
    util = require("google-auth-library/build/src/util") as GalUtil;
  } catch {
    util = undefined;
  }
  return typeof util?.suppressAdcWarning === "function" ? util.suppressAdcWarning(build) : build();
}

function impersonate(
  source: AuthClient,
  target: string,
  delegates: readonly string[],
  scopes: readonly string[],
  settings: GoogleSettings,
): Impersonated {
  return quietly(
    () =>
      new Impersonated({
        sourceClient: source,
        targetPrincipal: target,
        delegates: delegates.map((d) => (d.startsWith("projects/") ? d : `projects/-/serviceAccounts/${d}`)),
        targetScopes: [...scopes],
        endpoint: settings.endpoints.iamCredentials,
        universeDomain: settings.universeDomain,
      }),
  );
}

function fromCredentialJson(
  json: Json,
  scopes: readonly string[],
  settings: GoogleSettings,
  name: string,
  depth: number,
): AuthClient {
  const type = json["type"];
  // Before anything is built or sent: a credential of another universe would send its token to the wrong hosts.
  checkCredentialUniverse(json["universe_domain"], universeOf(settings), name);
  const universeDomain = settings.universeDomain;
  const transporter = oauth2Transporter(settings.endpoints.oauth2);
  const quotaProjectId =
    typeof json["quota_project_id"] === "string" ? { quotaProjectId: json["quota_project_id"] } : {};
  switch (type) {
    case "service_account":
      return new JWT({
        email: requireString(json, "client_email", name, type),
        key: requireString(json, "private_key", name, type),
        ...(typeof json["private_key_id"] === "string" ? { keyId: json["private_key_id"] } : {}),
        scopes: [...scopes],
        universeDomain,
        ...quotaProjectId,
        ...(transporter === undefined ? {} : { transporter }),
      });
    case "authorized_user":
      return new UserRefreshClient({
        clientId: requireString(json, "client_id", name, type),
        clientSecret: requireString(json, "client_secret", name, type),
        refreshToken: requireString(json, "refresh_token", name, type),
        endpoints: { oauth2TokenUrl: `${settings.endpoints.oauth2}/token` },
        universeDomain,
        ...quotaProjectId,
        ...(transporter === undefined ? {} : { transporter }),
      });
    case "external_account": {
      checkCredentialUrl(json, "token_url", name);
      checkCredentialUrl(json, "service_account_impersonation_url", name);
      const source = json["credential_source"];
      const options = { ...json, scopes: [...scopes] };
      if (typeof source === "object" && source !== null && "environment_id" in source) {
        return new AwsClient(options as unknown as AwsClientOptions);
      }
      if (typeof source === "object" && source !== null && "executable" in source) {
        return new PluggableAuthClient(options as unknown as PluggableAuthClientOptions);
      }
      return new IdentityPoolClient(options as unknown as IdentityPoolClientOptions);
    }
    case "external_account_authorized_user":
      checkCredentialUrl(json, "token_url", name);
      return new ExternalAccountAuthorizedUserClient(json as unknown as ExternalAccountAuthorizedUserClientOptions);
    case "impersonated_service_account": {
      const sourceJson = json["source_credentials"];
      if (depth > 0 || typeof sourceJson !== "object" || sourceJson === null || Array.isArray(sourceJson)) {
        throw new ConfigError({
          setting: name,
          message: `${name}: an impersonated_service_account credential needs a non-impersonated source_credentials object`,
        });
      }
      const url = requireString(json, "service_account_impersonation_url", name, type);
      const target = /(?<target>[^/]+):generateAccessToken$/.exec(url)?.groups?.["target"];
      if (target === undefined || url.length > 256) {
        throw new ConfigError({
          setting: name,
          message: `${name}: service_account_impersonation_url must end in '/serviceAccounts/<email>:generateAccessToken'`,
        });
      }
      const source = fromCredentialJson(sourceJson as Json, [SCOPES.cloudPlatform], settings, name, depth + 1);
      const delegates = Array.isArray(json["delegates"]) ? json["delegates"].filter((d) => typeof d === "string") : [];
      return impersonate(source, decodeURIComponent(target), delegates, scopes, settings);
    }
    default:
      throw new ConfigError({
        setting: name,
        message:
          `${name}: unsupported credential type ${typeof type === "string" ? `'${type.slice(0, 60)}'` : "(missing)"}; ` +
          `expected service_account, authorized_user, external_account, external_account_authorized_user or ` +
          `impersonated_service_account`,
      });
  }
}

async function baseClient(
  settings: GoogleSettings,
  scopes: readonly string[],
  deps: AuthClientDeps,
): Promise<AuthClient> {
  if (settings.accessToken !== undefined) {
    const client = new OAuth2Client({ universeDomain: settings.universeDomain });
    client.setCredentials({ access_token: settings.accessToken });
    return client;
  }
  if (settings.credentials !== undefined) {
    const name = settingName(settings);
    const isPath = !settings.credentials.trimStart().startsWith("{");
    return fromCredentialJson(await loadJson(settings.credentials, name, deps, isPath), scopes, settings, name, 0);
  }
  const file = settings.applicationDefault.credentialsFile;
  if (file !== undefined) {
    const name = "GOOGLE_APPLICATION_CREDENTIALS";
    return fromCredentialJson(await loadJson(file, name, deps, true), scopes, settings, name, 0);
  }
  const dir = settings.applicationDefault.gcloudConfigDir;
  const wellKnown = dir === undefined ? undefined : join(dir, "application_default_credentials.json");
  if (wellKnown !== undefined && (await deps.fileExists(wellKnown))) {
    return fromCredentialJson(await loadJson(wellKnown, wellKnown, deps, true), scopes, settings, wellKnown, 0);
  }
  if (await deps.metadataAvailable())
    return new Compute({ scopes: [...scopes], universeDomain: settings.universeDomain });
  throw new ConfigError({
    setting: "credentials",
    message:
      "No Google credentials found: set opsledger:credentials (a key file path or its JSON) or opsledger:accessToken, " +
      "set GOOGLE_APPLICATION_CREDENTIALS, or run 'gcloud auth application-default login'",
  });
}

export async function buildAuthClient(
  settings: GoogleSettings,
  scopes: readonly string[],
  deps: AuthClientDeps,
): Promise<AuthClient> {
  const target = settings.impersonateServiceAccount;
  if (target === undefined) return baseClient(settings, scopes, deps);
  const source = await baseClient(settings, [SCOPES.cloudPlatform], deps);
  return impersonate(source, target, settings.impersonateServiceAccountDelegates, scopes, settings);
}
