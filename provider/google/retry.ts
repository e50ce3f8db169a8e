/**
 * Retry policy: which failures are transient, which calls may be repeated, and how long to wait.
 *
 * Waits use exponential backoff with FULL jitter (a uniformly random wait between 0 and the exponential cap): when a
 * service hiccups, every client that saw the failure retries, and without jitter they would all come back at the same
 * instants (a thundering herd) and knock the recovering service over again. Full jitter spreads them evenly. A server
 * hint (RetryInfo.retryDelay, Retry-After) is a floor under the jittered wait.
 */
import type { Idempotency } from "./endpoint-types";
import { hasRateLimitReason } from "./hints";
import type { ParsedGoogleError } from "./parse-error";
import { parseRetryAfterMs } from "./parse-error";

/** Attempts in total, including the first. */
export const DEFAULT_RETRY_MAX_ATTEMPTS = 5;
/** The cap of the first backoff wait. */
export const DEFAULT_RETRY_INITIAL_DELAY_MS = 1_000;
/** No backoff wait (before applying a server hint) exceeds this. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 32_000;
/** Growth of the backoff cap per attempt. */
export const DEFAULT_RETRY_MULTIPLIER = 2;
/** A server asking for a longer wait than this is not waited for: the error is returned instead. */
export const DEFAULT_RETRY_MAX_SERVER_DELAY_MS = 60_000;
/** The longest a call waits in total for a rate quota to refill (quota-pacer.ts) before it fails. */
export const DEFAULT_RETRY_MAX_QUOTA_WAIT_MS = 10 * 60_000;

/** The retry options bag (every field documented with its default). */
export interface RetryOptions {
  /** Attempts in total including the first; 1 disables retries. @default DEFAULT_RETRY_MAX_ATTEMPTS (5) */
  maxAttempts: number;
  /** Cap of the first jittered wait. @default DEFAULT_RETRY_INITIAL_DELAY_MS (1000) */
  initialDelayMs: number;
  /** Upper bound of the exponential cap. @default DEFAULT_RETRY_MAX_DELAY_MS (32000) */
  maxDelayMs: number;
  /** Cap growth per attempt. @default DEFAULT_RETRY_MULTIPLIER (2) */
  multiplier: number;
  /** Longest server-requested wait honoured; longer requests end the retries. @default DEFAULT_RETRY_MAX_SERVER_DELAY_MS (60000) */
  maxServerDelayMs: number;
  /**
   * Longest total wait of one call for rate quotas to refill; waits for a quota do not count as failed attempts.
   * @default DEFAULT_RETRY_MAX_QUOTA_WAIT_MS (600000)
   */
  maxQuotaWaitMs: number;
}

/** Fills the defaults in one place; never mutates `options`. */
export function resolveRetryOptions(options: Partial<RetryOptions> = {}): RetryOptions {
  const resolved: RetryOptions = {
    maxAttempts: options.maxAttempts ?? DEFAULT_RETRY_MAX_ATTEMPTS,
    initialDelayMs: options.initialDelayMs ?? DEFAULT_RETRY_INITIAL_DELAY_MS,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY_MAX_DELAY_MS,
    multiplier: options.multiplier ?? DEFAULT_RETRY_MULTIPLIER,
    maxServerDelayMs: options.maxServerDelayMs ?? DEFAULT_RETRY_MAX_SERVER_DELAY_MS,
    maxQuotaWaitMs: options.maxQuotaWaitMs ?? DEFAULT_RETRY_MAX_QUOTA_WAIT_MS,
  };
  if (!Number.isInteger(resolved.maxAttempts) || resolved.maxAttempts < 1) {
    throw new RangeError(`retry.maxAttempts must be a positive integer, got ${resolved.maxAttempts}`);
  }
  return resolved;
}

/** What the client reports before each retry (no secrets: no token, no headers). */
export interface RetryInfoEvent {
  readonly endpoint: string;
  readonly resource: string;
  /** The number of the attempt that failed (1 = the first). */
  readonly attempt: number;
  /** How long the client waits before the next attempt. */
  readonly delayMs: number;
  /** 0 when no response arrived. */
  readonly httpStatus: number;
  /** Why: "503 UNAVAILABLE", "429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED", "ECONNRESET", "timeout", "token refresh". */
  readonly reason: string;
  /** The server's minimum wait (RetryInfo or Retry-After), when it sent one. */
  readonly serverDelayMs?: number;
}

/**
 * The jittered wait after failed attempt number `attempt` (1-based): uniform in [0, min(maxDelayMs, initialDelayMs *
 * multiplier^(attempt-1))).
 */
export function backoffDelayMs(attempt: number, options: RetryOptions, random: () => number): number {
  const cap = Math.min(options.maxDelayMs, options.initialDelayMs * options.multiplier ** Math.max(0, attempt - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 1) * cap);
}

/**
 * Whether a request may be sent again. GET/DELETE and read-only calls are idempotent; a "requestId" endpoint only when
 * a requestId is really on the request (the server de-duplicates by it). Anything else is never retried.
 */
export function isRetrySafe(idempotency: Idempotency, query: Readonly<Record<string, string>>): boolean {
  switch (idempotency) {
    case "idempotent":
      return true;
    case "requestId":
      return typeof query["requestId"] === "string" && query["requestId"] !== "";
    case "none":
      return false;
  }
}

export interface FailureClassification {
  readonly retryable: boolean;
  /** A short description for RetryInfoEvent.reason. */
  readonly reason: string;
  /** The server's minimum wait, if it asked for one. */
  readonly serverDelayMs?: number;
  /**
   * A rate quota that says which quota or when it refills (quota metadata, RetryInfo or Retry-After): the client paces
   * to it (quota-pacer.ts) instead of counting a failed attempt.
   */
  readonly quota?: boolean;
}

/** HTTP statuses that are transient whatever the body says. */
export const RETRYABLE_HTTP_STATUSES: readonly number[] = [502, 503, 504];

/** Reasons that name an exhausted quota (not a rate): waiting seconds will not cure it, so it is never retried. */
export const QUOTA_EXHAUSTED_REASONS: readonly string[] = ["QUOTA_EXCEEDED", "quotaExceeded", "dailyLimitExceeded"];

/**
 * Classifies an HTTP error response. 502/503/504 are transient. A rate limit is retried: a 429 with a RetryInfo
 * detail, a Retry-After header or a rate-limit reason (ErrorInfo RATE_LIMIT_EXCEEDED, or when there is no ErrorInfo a
 * legacy rateLimitExceeded / userRateLimitExceeded), and a 403 with a rate-limit reason (Compute answers its rate
 * quotas with 403 rateLimitExceeded). An exhausted quota is never retried, whatever hints come with it: a 429 without
 * rate-limit markers, or any error whose reason is QUOTA_EXCEEDED (AIP-194: waiting seconds will not cure it).
 */
export function classifyHttpFailure(
  parsed: ParsedGoogleError,
  retryAfterHeader: string | undefined,
  nowMs: number,
): FailureClassification {
  const status = parsed.httpStatus;
  const reason = [String(status), parsed.rpcStatus, parsed.reason].filter((s) => s !== undefined).join(" ");
  const retryInfoMs = parsed.details.retryInfo?.retryDelayMs;
  const retryAfterMs = parseRetryAfterMs(retryAfterHeader, nowMs);
  const hints = [retryInfoMs, retryAfterMs].filter((v): v is number => v !== undefined);
  const serverDelay = hints.length === 0 ? {} : { serverDelayMs: Math.max(...hints) };
  if (RETRYABLE_HTTP_STATUSES.includes(status)) return { retryable: true, reason, ...serverDelay };
  if (parsed.reason !== undefined && QUOTA_EXHAUSTED_REASONS.includes(parsed.reason)) {
    return { retryable: false, reason };
  }
  const rateLimitReason = hasRateLimitReason(parsed);
  const rateLimited =
    (status === 429 && (parsed.details.retryInfo !== undefined || retryAfterMs !== undefined || rateLimitReason)) ||
    (status === 403 && rateLimitReason);
  if (!rateLimited) return { retryable: false, reason };
  const namesQuota = parsed.metadata["quota_metric"] !== undefined || parsed.metadata["quota_limit"] !== undefined;
  return { retryable: true, reason, ...serverDelay, ...(namesQuota || hints.length > 0 ? { quota: true } : {}) };
}

/** Network error codes that mean the request may not have reached the server, or its answer was lost. */
export const RETRYABLE_NETWORK_CODES: readonly string[] = [
  "ECONNRESET",
  "ECONNREFUSED",
  "EPIPE",
  "ETIMEDOUT",
  "ECONNABORTED",
  "ESOCKETTIMEDOUT",
  "EAI_AGAIN",
  "UND_ERR_SOCKET",
];

/** The error code of a transport failure: its `code`, or "socket hang up" mapped to ECONNRESET. */
export function networkErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  const message = (error as { message?: unknown }).message;
  if (typeof message === "string" && /socket hang up/i.test(message)) return "ECONNRESET";
  if (typeof code === "string") return code;
  const cause = (error as { cause?: unknown }).cause;
  return cause === error ? undefined : networkErrorCode(cause);
}

/** Classifies a transport failure (no HTTP response). `timedOut` is true when the client's own timeout fired. */
export function classifyNetworkFailure(error: unknown, timedOut: boolean): FailureClassification {
  if (timedOut) return { retryable: true, reason: "timeout" };
  const code = networkErrorCode(error);
  if (code !== undefined && RETRYABLE_NETWORK_CODES.includes(code)) return { retryable: true, reason: code };
  return { retryable: false, reason: code ?? "network error" };
}
