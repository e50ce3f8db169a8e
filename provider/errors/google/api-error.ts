import { OpsLedgerError } from "../opsledger-error";
import type { GoogleErrorDetails, LegacyErrorItem } from "./google-error-details";
import { redactText, redactUrl } from "./redact";

export interface ApiErrorProperties {
  /** The service: "iam", "compute", ..., or "auth" when obtaining the access token failed. */
  readonly service: string;
  /** The endpoint id of the call, e.g. "compute.firewallPolicies.move". */
  readonly endpoint: string;
  readonly method: string;
  /** The request URL; secret query parameters and user credentials are stripped by the constructor. */
  readonly url: string;
  /** The HTTP status, or 0 when no response arrived (connection failure, timeout). */
  readonly httpStatus: number;
  /** The google.rpc.Code name, e.g. "PERMISSION_DENIED". */
  readonly rpcStatus?: string | undefined;
  /** ErrorInfo.reason, the legacy errors[].reason, an OAuth error code, or a network error code (ECONNRESET). */
  readonly reason?: string | undefined;
  readonly domain?: string | undefined;
  readonly errorMetadata?: Readonly<Record<string, string>> | undefined;
  readonly errorDetails?: GoogleErrorDetails | undefined;
  readonly errors?: readonly LegacyErrorItem[] | undefined;
  /** The server's (or transport's) message. Secrets are redacted by the constructor. */
  readonly serverMessage?: string | undefined;
  /** The resource the call addressed, e.g. "firewall policy 123". */
  readonly resource?: string | undefined;
  /** What a person can do about it. */
  readonly hint?: string | undefined;
  /** How many attempts were made. */
  readonly attempts?: number | undefined;
  /** A sanitized cause (never a transport error carrying request headers). */
  readonly cause?: unknown;
}

/**
 * A Google API call failed. The message reads
 * `<endpoint id> <resource>: <HTTP status> <rpcStatus> <reason>: <message>. <hint>` (absent parts left out).
 */
export class ApiError extends OpsLedgerError {
  static override readonly kind: string = "ApiError";
  readonly service: string;
  readonly endpoint: string;
  readonly method: string;
  readonly url: string;
  readonly httpStatus: number;
  readonly rpcStatus: string | undefined;
  readonly reason: string | undefined;
  readonly domain: string | undefined;
  // Named errorMetadata / errorDetails, not metadata / details: Pulumi's hosts pass a thrown error to grpc-js as a call
  // status, and grpc-js treats `metadata` as a grpc Metadata object (it calls .clone()) and `details` as the message.
  readonly errorMetadata: Readonly<Record<string, string>>;
  readonly errorDetails: GoogleErrorDetails;
  readonly errors: readonly LegacyErrorItem[];
  readonly serverMessage: string;
  readonly resource: string | undefined;
  readonly hint: string | undefined;
  readonly attempts: number;

  constructor(properties: ApiErrorProperties) {
    const serverMessage = redactText(properties.serverMessage ?? "");
    super({ message: formatApiErrorMessage({ ...properties, serverMessage }), cause: properties.cause });
    this.service = properties.service;
    this.endpoint = properties.endpoint;
    this.method = properties.method;
    this.url = redactUrl(properties.url);
    this.httpStatus = properties.httpStatus;
    this.rpcStatus = properties.rpcStatus;
    this.reason = properties.reason;
    this.domain = properties.domain;
    this.errorMetadata = properties.errorMetadata ?? {};
    this.errorDetails = properties.errorDetails ?? { other: [] };
    this.errors = properties.errors ?? [];
    this.serverMessage = serverMessage;
    this.resource = properties.resource;
    this.hint = properties.hint === undefined ? undefined : redactText(properties.hint);
    this.attempts = properties.attempts ?? 1;
  }
}

function sentence(text: string): string {
  const trimmed = text.trim();
  return trimmed === "" || /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The ApiError message of a set of properties (exported for tests and for callers wrapping their own failures). */
export function formatApiErrorMessage(properties: ApiErrorProperties): string {
  const subject = [properties.endpoint, properties.resource].filter((s) => s !== undefined && s !== "").join(" ");
  const status = [
    properties.httpStatus === 0 ? "no HTTP response" : String(properties.httpStatus),
    properties.rpcStatus,
    properties.reason,
  ]
    .filter((s) => s !== undefined && s !== "")
    .join(" ");
  const message = sentence(redactText(properties.serverMessage ?? ""));
  const hint = properties.hint === undefined ? "" : sentence(redactText(properties.hint));
  const requestId = properties.errorDetails?.requestInfo?.requestId;
  return [
    `${subject}: ${status}${message === "" ? "." : `: ${message}`}`,
    hint,
    requestId === undefined ? "" : `(Request id ${requestId}.)`,
  ]
    .filter((s) => s !== "")
    .join(" ");
}

/** True for an ApiError from any copy of this package. */
export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}
