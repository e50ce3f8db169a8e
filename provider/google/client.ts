/**
 * The Google REST client: validates a call against the endpoint table, gets a token for the endpoint's scope, sends
 * the request through the per-service limiter with a per-attempt timeout, retries transient failures, and turns
 * failures into ApiErrors with hints.
 */
import { strict as assert } from "node:assert";
import axios from "axios";
import type { AxiosInstance, AxiosResponse } from "axios";
import { ConfigError, DeadlineError, OpsLedgerError } from "../errors";
import { ApiError } from "../errors/google/api-error";
import { abortedCall, httpCallError, networkCallError } from "./call-errors";
import type { CallState } from "./call-errors";
import { AuthError } from "../errors/google/auth-error";
import { createGoogleTokenSource } from "./auth";
import type { TokenSource } from "./auth";
import { delay } from "./delay";
import { warnDisplayVideoVersionOnce } from "./deprecations";
import type { EndpointDefinition, EndpointId, EndpointParams, EndpointResult } from "./endpoint-types";
import { buildRequest, getEndpoint, resolveApiVersion } from "./endpoints";
import type { BuiltRequest } from "./endpoints";
import { CREDENTIALS_HINT } from "./hints";
import type { HintContext } from "./hints";
import { sharedLimiter } from "./limiter";
import { pacedRateLimitError, quotaWaitEvent, reserveAdmission } from "./quota-admission";
import { rateLimitNotice, sharedQuotaPacer } from "./quota-pacer";
import type { QuotaWaitEvent } from "./quota-wait-event";
import { parseGoogleError } from "./parse-error";
import type { ParsedGoogleError } from "./parse-error";
import { redactDeep, redactText } from "../errors/google/redact";
import {
  backoffDelayMs,
  classifyHttpFailure,
  classifyNetworkFailure,
  isRetrySafe,
  networkErrorCode,
  resolveRetryOptions,
} from "./retry";
import type { FailureClassification, RetryInfoEvent, RetryOptions } from "./retry";
import type { GoogleSettings } from "./settings";
import { validateEndpointParams } from "./validation";
import { userAgent } from "./version";

export interface GoogleClientOptions {
  /** Resolved settings (resolveGoogleSettings). */
  settings: GoogleSettings;
  /** The HTTP transport. @default a shared axios.create() instance */
  axios?: AxiosInstance;
  /** Waits between retries; must reject when `signal` aborts. @default delay (setTimeout) */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Jitter source in [0, 1). @default Math.random */
  random?: () => number;
  /** Clock for Retry-After dates and elapsed times. @default Date.now */
  now?: () => number;
  /** Retry tuning; missing fields take the DEFAULT_RETRY_* values. */
  retry?: Partial<RetryOptions>;
  /** Called before every retry. Carries no secrets. */
  onRetry?: (info: RetryInfoEvent) => void;
  /** Deprecations and other advisories (e.g. a sunset DV360 version), each once per process. */
  onWarning?: (message: string) => void;
  /** Replaces the google-auth-library token source (tests). */
  tokenSource?: TokenSource;
}

export interface CallOptions {
  /** Aborts the call, including retry waits; the call then rejects with a DeadlineError (aborted = true). */
  signal?: AbortSignal;
  /** Per-attempt timeout, overriding the requestTimeout setting. */
  timeoutMs?: number;
  /** Called before the call waits for a rate quota to refill (so the caller can say why it waits). No secrets. */
  onQuotaWait?: (event: QuotaWaitEvent) => void;
}

export interface GoogleClient {
  /** Calls one endpoint of the table: validated first (ValidationError, nothing sent), then retried as its entry allows. */
  call<E extends EndpointId>(id: E, params: EndpointParams<E>, options?: CallOptions): Promise<EndpointResult<E>>;
}

/** The scopes the client asks for on an endpoint: the table's, or the workspaceEventsScopes setting for Workspace Events. */
export function requestedScopesFor(definition: EndpointDefinition, settings: GoogleSettings): readonly string[] {
  return definition.service === "workspaceEvents" ? settings.workspaceEventsScopes : definition.requestedScopes;
}

let sharedAxios: AxiosInstance | undefined;

type Outcome =
  | { readonly kind: "response"; readonly status: number; readonly body: unknown; readonly retryAfter?: string }
  | { readonly kind: "failure"; readonly error: unknown; readonly timedOut: boolean };

function header(response: AxiosResponse, name: string): string | undefined {
  const value: unknown = (response.headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : undefined;
}

/** A function, not an inline test, so TypeScript does not keep a narrowed `aborted` across awaits. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

class GoogleRestClient implements GoogleClient {
  readonly #settings: GoogleSettings;
  readonly #axios: AxiosInstance;
  readonly #sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #retry: RetryOptions;
  readonly #onRetry: ((info: RetryInfoEvent) => void) | undefined;
  readonly #onWarning: ((message: string) => void) | undefined;
  readonly #tokens: TokenSource;
  readonly #userAgent = userAgent();

  constructor(options: GoogleClientOptions) {
    this.#settings = options.settings;
    this.#axios = options.axios ?? (sharedAxios ??= axios.create());
    this.#sleep = options.sleep ?? delay;
    this.#random = options.random ?? Math.random;
    this.#now = options.now ?? Date.now;
    this.#retry = resolveRetryOptions(options.retry);
    this.#onRetry = options.onRetry;
    this.#onWarning = options.onWarning;
    this.#tokens = options.tokenSource ?? createGoogleTokenSource({ settings: options.settings, now: this.#now });
  }

  async call<E extends EndpointId>(
    id: E,
    params: EndpointParams<E>,
    options: CallOptions = {},
  ): Promise<EndpointResult<E>> {
    const definition = getEndpoint(id);
    const validated = validateEndpointParams(definition, params);
    const version = resolveApiVersion(definition, validated, this.#settings.displayVideoApiVersion);
    const values = version === undefined ? validated : { ...validated, apiVersion: version };
    if (version !== undefined) warnDisplayVideoVersionOnce(version, this.#onWarning);
    const request = buildRequest(definition, values, this.#settings.endpoints[definition.service]);
    const context: HintContext = {
      definition,
      values,
      requestedScopes: requestedScopesFor(definition, this.#settings),
    };
    const timeoutMs = options.timeoutMs ?? this.#settings.requestTimeoutMs;
    if (!(timeoutMs > 0)) throw new RangeError(`${id}: timeoutMs must be positive, got ${timeoutMs}`);
    const state: CallState = {
      context,
      request,
      resource: definition.describe(values),
      started: this.#now(),
      signal: options.signal,
    };
    return (await this.#execute(state, timeoutMs, options.onQuotaWait)) as EndpointResult<E>;
  }

  /** Sleeps before a paced request; an abort ends the call. */
  async #holdFor(state: CallState, waitMs: number): Promise<void> {
    try {
      await this.#sleep(waitMs, state.signal);
    } catch (error) {
      if (isAborted(state.signal)) throw abortedCall(state, this.#now());
      throw error;
    }
  }

  async #execute(state: CallState, timeoutMs: number, onQuotaWait?: (event: QuotaWaitEvent) => void): Promise<unknown> {
    const { definition } = state.context;
    const { request, signal } = state;
    const retrySafe = isRetrySafe(definition.idempotency, request.query);
    const maxAttempts = retrySafe ? this.#retry.maxAttempts : 1;
    // The invariant: a mutation that the server cannot de-duplicate (no requestId on the request) is sent once.
    if (definition.idempotency !== "idempotent" && request.query["requestId"] === undefined) {
      assert.equal(maxAttempts, 1, `${definition.id} without a requestId must never be retried`);
    }
    const serviceRoot = this.#settings.endpoints[definition.service];
    const limiter = sharedLimiter(serviceRoot, this.#settings.maxConcurrentRequests);
    let attempts = 0;
    let failures = 0;
    let refreshed = false;
    let rejectedToken: string | undefined;
    let quotaWaitStarted: number | undefined;
    let rateLimited: ParsedGoogleError | undefined;
    for (;;) {
      attempts++;
      if (isAborted(signal)) throw abortedCall(state, this.#now());
      const admission = reserveAdmission(serviceRoot, definition.id, this.#now());
      if (admission !== undefined && admission.waitMs > 0) {
        // Held back by a rate quota's pacer: wait for the place it gave, within the call's quota budget.
        quotaWaitStarted ??= this.#now();
        if (this.#now() + admission.waitMs - quotaWaitStarted > this.#retry.maxQuotaWaitMs) {
          const waitS = Math.round(admission.waitMs / 1000);
          throw httpCallError(
            state,
            rateLimited ?? pacedRateLimitError(admission.notice),
            attempts,
            `The quota would hold this request for another ${waitS} s, longer than retry.maxQuotaWaitMs allows`,
          );
        }
        onQuotaWait?.(quotaWaitEvent(definition.id, state.resource, admission));
        await this.#holdFor(state, admission.waitMs);
      }
      const token = await this.#token(state, rejectedToken, attempts);
      rejectedToken = undefined;
      let outcome: Outcome;
      try {
        outcome = await limiter.run(() => this.#send(request, token, timeoutMs, signal), signal);
      } catch (error) {
        if (isAborted(signal)) throw abortedCall(state, this.#now());
        throw error;
      }
      if (isAborted(signal)) throw abortedCall(state, this.#now());
      let decision: FailureClassification;
      let parsed: ParsedGoogleError | undefined;
      if (outcome.kind === "response") {
        if (outcome.status >= 200 && outcome.status < 300) return this.#success(state, outcome.body, token, attempts);
        parsed = redactDeep(parseGoogleError(outcome.status, outcome.body), [token]);
        if (outcome.status === 401 && !refreshed && this.#tokens.refreshable) {
          refreshed = true;
          rejectedToken = token;
          this.#report(state, attempts, 0, { retryable: true, reason: "401 UNAUTHENTICATED: token refresh" }, 401);
          continue;
        }
        decision = classifyHttpFailure(parsed, outcome.retryAfter, this.#now());
      } else {
        decision = classifyNetworkFailure(outcome.error, outcome.timedOut);
      }
      const serverDelayMs = decision.serverDelayMs ?? 0;
      const tooLong = serverDelayMs > this.#retry.maxServerDelayMs;
      if (decision.quota === true && parsed !== undefined && !tooLong) {
        // A rate quota: this call and every other call of the quota group wait for the refill in the shared pacer
        // (above), then go on without counting a failed attempt. A call that cannot be repeated fails as before.
        // RetryInfo is to the millisecond; Retry-After (whole seconds) only when there is none.
        const notice = rateLimitNotice(
          parsed.metadata,
          parsed.details.retryInfo?.retryDelayMs ?? decision.serverDelayMs,
        );
        const pacer = sharedQuotaPacer(serviceRoot, definition.id, notice, { now: this.#now });
        pacer.reject(notice);
        if (!retrySafe) throw httpCallError(state, parsed, attempts, undefined);
        rateLimited = parsed;
        quotaWaitStarted ??= this.#now();
        const waitedMs = this.#now() - quotaWaitStarted;
        if (waitedMs > this.#retry.maxQuotaWaitMs) {
          const note = `Waited ${Math.round(waitedMs / 1000)} s for the quota, longer than retry.maxQuotaWaitMs allows`;
          throw httpCallError(state, parsed, attempts, note);
        }
        this.#report(state, attempts, Math.max(0, pacer.refillsAt - this.#now()), decision, parsed.httpStatus);
        continue;
      }
      if (!decision.retryable || failures + 1 >= maxAttempts || tooLong) {
        const note = tooLong
          ? `The server asked to wait ${Math.ceil(serverDelayMs / 1000)} s before retrying, longer than retry.maxServerDelayMs`
          : decision.retryable && attempts > 1
            ? `Gave up after ${attempts} attempts`
            : undefined;
        throw parsed === undefined
          ? networkCallError(
              state,
              outcome.kind === "failure" ? outcome.error : undefined,
              decision,
              token,
              attempts,
              note,
              this.#settings.endpoints[definition.service],
            )
          : httpCallError(state, parsed, attempts, note);
      }
      failures++;
      const delayMs = Math.max(backoffDelayMs(failures, this.#retry, this.#random), serverDelayMs);
      this.#report(state, attempts, delayMs, decision, outcome.kind === "response" ? outcome.status : 0);
      try {
        await this.#sleep(delayMs, signal);
      } catch (error) {
        if (isAborted(signal)) throw abortedCall(state, this.#now());
        throw error;
      }
    }
  }

  async #token(state: CallState, rejectedToken: string | undefined, attempts: number): Promise<string> {
    const scopes = state.context.requestedScopes;
    try {
      return await this.#tokens.getAccessToken(scopes, {
        ...(rejectedToken === undefined ? {} : { rejectedToken }),
        ...(state.signal === undefined ? {} : { signal: state.signal }),
      });
    } catch (error) {
      if (isAborted(state.signal)) throw abortedCall(state, this.#now());
      if (error instanceof ConfigError || error instanceof DeadlineError) throw error;
      const auth =
        error instanceof AuthError
          ? error
          : new AuthError({
              tokenUrl: "",
              httpStatus: 0,
              serverMessage: error instanceof Error ? error.message : "the token source failed",
            });
      const target = this.#settings.impersonateServiceAccount;
      const hint =
        target !== undefined && auth.httpStatus === 403
          ? `The source credential needs iam.serviceAccounts.getAccessToken on ${target} (roles/iam.serviceAccountTokenCreator)`
          : CREDENTIALS_HINT;
      throw new ApiError({
        service: "auth",
        endpoint: state.context.definition.id,
        method: state.request.method,
        url: auth.tokenUrl,
        httpStatus: auth.httpStatus,
        rpcStatus: auth.rpcStatus,
        reason: auth.reason,
        serverMessage: `could not obtain an access token${auth.tokenUrl === "" ? "" : ` from ${auth.tokenUrl}`}: ${auth.serverMessage}`,
        resource: state.resource,
        hint,
        attempts,
        ...(error instanceof OpsLedgerError ? { cause: error } : {}),
      });
    }
  }

  async #send(
    request: BuiltRequest,
    token: string,
    timeoutMs: number,
    signal: AbortSignal | undefined,
  ): Promise<Outcome> {
    const timeout = AbortSignal.timeout(timeoutMs);
    const headers: Record<string, string> = {
      Authorization: `Bearer ${token}`,
      "User-Agent": this.#userAgent,
      Accept: "application/json",
    };
    if (this.#settings.quotaProject !== undefined) headers["x-goog-user-project"] = this.#settings.quotaProject;
    if (this.#settings.requestReason !== undefined) headers["X-Goog-Request-Reason"] = this.#settings.requestReason;
    if (request.body !== undefined) headers["Content-Type"] = "application/json";
    try {
      const response = await this.#axios.request<unknown>({
        method: request.method,
        url: request.url,
        headers,
        ...(request.body === undefined ? {} : { data: JSON.stringify(request.body) }),
        responseType: "text",
        transformResponse: [(data: unknown) => data],
        validateStatus: () => true,
        // Never follow a redirect: the bearer token must only go to the configured service root.
        maxRedirects: 0,
        timeout: timeoutMs,
        signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
      });
      const retryAfter = header(response, "retry-after");
      return {
        kind: "response",
        status: response.status,
        body: response.data,
        ...(retryAfter === undefined ? {} : { retryAfter }),
      };
    } catch (error) {
      const code = networkErrorCode(error);
      return { kind: "failure", error, timedOut: timeout.aborted || code === "ECONNABORTED" || code === "ETIMEDOUT" };
    }
  }

  #success(state: CallState, body: unknown, token: string, attempts: number): unknown {
    if (typeof body !== "string") return body ?? {};
    if (body.trim() === "") return {};
    try {
      return JSON.parse(body) as unknown;
    } catch {
      throw new ApiError({
        service: state.context.definition.service,
        endpoint: state.context.definition.id,
        method: state.request.method,
        url: state.request.url,
        httpStatus: 200,
        serverMessage: `the response is not JSON: ${redactText(body.slice(0, 120), [token])}`,
        resource: state.resource,
        hint: "Check that the service root setting points at the Google API, not at a proxy or web page",
        attempts,
      });
    }
  }

  #report(
    state: CallState,
    attempt: number,
    delayMs: number,
    decision: FailureClassification,
    httpStatus: number,
  ): void {
    this.#onRetry?.({
      endpoint: state.context.definition.id,
      resource: state.resource,
      attempt,
      delayMs,
      httpStatus,
      reason: decision.reason,
      ...(decision.serverDelayMs === undefined ? {} : { serverDelayMs: decision.serverDelayMs }),
    });
  }
}

/** A client for the endpoints of the endpoint table. */
export function createGoogleClient(options: GoogleClientOptions): GoogleClient {
  return new GoogleRestClient(options);
}
