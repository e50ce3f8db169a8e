/**
 * Access tokens for the client, built on google-auth-library 11 with type-specific constructors (its `fromJSON` is
 * deprecated). Source order: accessToken > credentials (service_account, authorized_user, external_account,
 * external_account_authorized_user, impersonated_service_account) > Application Default Credentials
 * (GOOGLE_APPLICATION_CREDENTIALS, the gcloud well-known file, the metadata server); then, optionally, impersonation of
 * `impersonateServiceAccount` through IAM Credentials.
 *
 * One auth client is cached per (credential, scope set) for the life of the process, and concurrent requests for the
 * same token share one in-flight promise. Nothing secret is logged or put into errors.
 */
import { createHash } from "node:crypto";
import { access, readFile } from "node:fs/promises";
import { gcpMetadata } from "google-auth-library";
import type { AuthClient } from "google-auth-library";
import { OpsLedgerError } from "../errors";
import { AuthError } from "../errors/google/auth-error";
import { buildAuthClient } from "./auth-clients";
import type { AuthClientDeps } from "./auth-clients";
import { abortReason } from "./delay";
import { parseGoogleError } from "./parse-error";
import { networkErrorCode } from "./retry";
import type { GoogleSettings } from "./settings";

/** A cached token is reused until this long before it expires. */
export const DEFAULT_TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

export interface TokenRequestOptions {
  /** A token the API just rejected with 401: get a fresh one unless someone already has. */
  readonly rejectedToken?: string;
  readonly signal?: AbortSignal;
}

/** Where the client gets its bearer tokens. Tests inject their own. */
export interface TokenSource {
  /** An access token carrying at least one of `scopes` (the endpoint's requested scopes). */
  getAccessToken(scopes: readonly string[], options?: TokenRequestOptions): Promise<string>;
  /** False for a fixed access token: a 401 cannot be cured by refreshing it. */
  readonly refreshable: boolean;
}

export interface GoogleTokenSourceOptions {
  readonly settings: GoogleSettings;
  /** Reads a credential file. @default fs.promises.readFile(path, "utf8") */
  readonly readFile?: (path: string) => Promise<string>;
  /** @default fs.promises.access */
  readonly fileExists?: (path: string) => Promise<boolean>;
  /** Whether the GCE metadata server answers. @default gcpMetadata.isAvailable */
  readonly metadataAvailable?: () => Promise<boolean>;
  /** @default Date.now */
  readonly now?: () => number;
}

interface CacheEntry {
  client?: Promise<AuthClient> | undefined;
  token?: string | undefined;
  expiresAt?: number | undefined;
  inFlight?: Promise<string> | undefined;
}

const cache = new Map<string, CacheEntry>();

/** Forgets every cached auth client and token (tests; credential rotation). */
export function clearGoogleAuthCache(): void {
  cache.clear();
}

/** A sanitized error for a failed token fetch: never the transport error itself (its config holds credentials). */
function toAuthError(error: unknown): OpsLedgerError {
  if (error instanceof OpsLedgerError) return error;
  const e = (typeof error === "object" && error !== null ? error : {}) as {
    status?: unknown;
    message?: unknown;
    response?: { status?: unknown; data?: unknown };
    config?: { url?: unknown };
  };
  const status =
    typeof e.response?.status === "number" ? e.response.status : typeof e.status === "number" ? e.status : 0;
  const rawUrl = e.config?.url;
  const tokenUrl = rawUrl instanceof URL ? rawUrl.href : typeof rawUrl === "string" ? rawUrl : "";
  const message = typeof e.message === "string" ? e.message : "the token request failed";
  if (e.response?.data !== undefined && status !== 0) {
    const parsed = parseGoogleError(status, e.response.data);
    return new AuthError({
      tokenUrl,
      httpStatus: status,
      reason: parsed.reason,
      rpcStatus: parsed.rpcStatus,
      serverMessage: parsed.message === "" ? message : parsed.message,
    });
  }
  return new AuthError({ tokenUrl, httpStatus: status, reason: networkErrorCode(error), serverMessage: message });
}

function credentialFingerprint(settings: GoogleSettings): string {
  const material = JSON.stringify([
    settings.accessToken ?? null,
    settings.credentials ?? null,
    settings.impersonateServiceAccount ?? null,
    settings.impersonateServiceAccountDelegates,
    settings.endpoints.oauth2,
    settings.endpoints.iamCredentials,
    settings.applicationDefault,
    settings.universeDomain,
  ]);
  return createHash("sha256").update(material).digest("hex");
}

function withAbort<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => {
      reject(abortReason(signal));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** The token source of a set of settings. A fixed accessToken (without impersonation) is returned as is. */
export function createGoogleTokenSource(options: GoogleTokenSourceOptions): TokenSource {
  const { settings } = options;
  const deps: AuthClientDeps = {
    readFile: options.readFile ?? ((path) => readFile(path, "utf8")),
    fileExists:
      options.fileExists ??
      ((path) =>
        access(path).then(
          () => true,
          () => false,
        )),
    metadataAvailable: options.metadataAvailable ?? (() => gcpMetadata.isAvailable()),
    now: options.now ?? Date.now,
  };
  const fixed = settings.impersonateServiceAccount === undefined ? settings.accessToken : undefined;
  if (fixed !== undefined) return { refreshable: false, getAccessToken: () => Promise.resolve(fixed) };
  const fingerprint = credentialFingerprint(settings);

  const fetchToken = async (entry: CacheEntry, scopes: readonly string[]): Promise<string> => {
    try {
      entry.client ??= buildAuthClient(settings, scopes, deps);
      const client = await entry.client;
      const { token } = await client.getAccessToken();
      if (typeof token !== "string" || token === "") {
        throw new AuthError({ tokenUrl: "", httpStatus: 0, serverMessage: "the credential produced no access token" });
      }
      const expiry = client.credentials.expiry_date;
      entry.token = token;
      entry.expiresAt = typeof expiry === "number" ? expiry : undefined;
      return token;
    } catch (error) {
      entry.client = undefined;
      entry.token = undefined;
      throw toAuthError(error);
    }
  };

  return {
    refreshable: true,
    getAccessToken(scopes, request = {}) {
      const key = `${fingerprint}|${[...scopes].sort().join(" ")}`;
      let entry = cache.get(key);
      if (entry === undefined) {
        entry = {};
        cache.set(key, entry);
      }
      if (
        request.rejectedToken !== undefined &&
        entry.token === request.rejectedToken &&
        entry.inFlight === undefined
      ) {
        // Rebuild the client: google-auth-library would otherwise hand back its own cached copy of the rejected token.
        entry.client = undefined;
        entry.token = undefined;
        entry.expiresAt = undefined;
      }
      if (
        entry.token !== undefined &&
        entry.expiresAt !== undefined &&
        entry.expiresAt - deps.now() > DEFAULT_TOKEN_REFRESH_MARGIN_MS
      ) {
        return Promise.resolve(entry.token);
      }
      const current = entry;
      current.inFlight ??= fetchToken(current, scopes).finally(() => {
        current.inFlight = undefined;
      });
      return withAbort(current.inFlight, request.signal);
    },
  };
}
