/**
 * What a handler returns, and the one adapter that turns it into an HTTP response. Handlers never write to the
 * socket: they return a JSON result, a Google error (rendered as `{error:{code,message,status,errors[],details[]}}`,
 * https://cloud.google.com/apis/design/errors) or an OAuth error (`{error, error_description}`, for the token
 * endpoints).
 */

export type RpcCodeName =
  | "CANCELLED"
  | "UNKNOWN"
  | "INVALID_ARGUMENT"
  | "DEADLINE_EXCEEDED"
  | "NOT_FOUND"
  | "ALREADY_EXISTS"
  | "PERMISSION_DENIED"
  | "UNAUTHENTICATED"
  | "RESOURCE_EXHAUSTED"
  | "FAILED_PRECONDITION"
  | "ABORTED"
  | "OUT_OF_RANGE"
  | "UNIMPLEMENTED"
  | "INTERNAL"
  | "UNAVAILABLE"
  | "DATA_LOSS";

/** google.rpc.Code name for an HTTP status (google/rpc/code.proto). */
export function rpcCodeForHttpStatus(httpStatus: number): RpcCodeName {
  switch (httpStatus) {
    case 400:
      return "INVALID_ARGUMENT";
    case 401:
      return "UNAUTHENTICATED";
    case 403:
      return "PERMISSION_DENIED";
    case 404:
      return "NOT_FOUND";
    case 409:
      return "ABORTED";
    case 412:
      return "FAILED_PRECONDITION";
    case 429:
      return "RESOURCE_EXHAUSTED";
    case 499:
      return "CANCELLED";
    case 501:
      return "UNIMPLEMENTED";
    case 503:
      return "UNAVAILABLE";
    case 504:
      return "DEADLINE_EXCEEDED";
    default:
      return httpStatus >= 500 ? "INTERNAL" : "FAILED_PRECONDITION";
  }
}

/** google.rpc.Code number of a code name. */
export const RPC_CODE_NUMBERS: Readonly<Record<RpcCodeName, number>> = {
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
};

/** One entry of the legacy `errors[]` list. */
export interface LegacyErrorItem {
  readonly message: string;
  readonly domain: string;
  readonly reason: string;
  readonly location?: string;
  readonly locationType?: string;
}

/** A `details[]` entry: an Any with its @type. */
export type ErrorDetail = { readonly "@type": string } & Readonly<Record<string, unknown>>;

export interface JsonResult {
  readonly kind: "json";
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface GoogleFailure {
  readonly kind: "googleError";
  readonly httpStatus: number;
  readonly status: RpcCodeName;
  readonly message: string;
  readonly errors: readonly LegacyErrorItem[];
  readonly details: readonly ErrorDetail[];
  readonly headers?: Readonly<Record<string, string>>;
}

export interface OAuthFailure {
  readonly kind: "oauthError";
  readonly httpStatus: number;
  /** RFC 6749 error code, for example "invalid_grant". */
  readonly error: string;
  readonly description: string;
}

export type RouteResult = JsonResult | GoogleFailure | OAuthFailure;

export function ok(body: unknown, status = 200): JsonResult {
  return { kind: "json", status, body };
}

export function oauthFailure(httpStatus: number, error: string, description: string): OAuthFailure {
  return { kind: "oauthError", httpStatus, error, description };
}

/** The HTTP response of a result. */
export interface RenderedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const JSON_CONTENT_TYPE = "application/json; charset=UTF-8";

/** The one adapter from results to HTTP. `pretty` indents JSON, as Google does unless `prettyPrint=false`. */
export function render(result: RouteResult, pretty = true): RenderedResponse {
  const indent = pretty ? 2 : undefined;
  switch (result.kind) {
    case "json":
      return {
        status: result.status,
        headers: { "content-type": JSON_CONTENT_TYPE, ...result.headers },
        body: JSON.stringify(result.body, null, indent),
      };
    case "googleError": {
      const error: Record<string, unknown> = {
        code: result.httpStatus,
        message: result.message,
        errors: result.errors,
        status: result.status,
      };
      if (result.details.length > 0) error["details"] = result.details;
      return {
        status: result.httpStatus,
        headers: { "content-type": JSON_CONTENT_TYPE, ...result.headers },
        body: JSON.stringify({ error }, null, indent),
      };
    }
    case "oauthError":
      return {
        status: result.httpStatus,
        headers: { "content-type": JSON_CONTENT_TYPE, "cache-control": "no-store" },
        body: JSON.stringify({ error: result.error, error_description: result.description }, null, indent),
      };
  }
}
