/**
 * Parsing of Google error responses (Google's standard JSON error body, https://cloud.google.com/apis/design/errors):
 * the google.rpc.Status JSON envelope with its typed `details[]`, the legacy `errors[]` list, OAuth error bodies
 * (`{error, error_description}`), and bodies that are not JSON at all (an HTML 502 page from a load balancer).
 */

import type { GoogleErrorDetails, LegacyErrorItem } from "../errors/google/google-error-details";

export interface ParsedGoogleError {
  httpStatus: number;
  /** error.code of the body, when present. */
  code?: number;
  /** error.message, an OAuth error_description, or a one-line summary of a non-JSON body. */
  message: string;
  /** The google.rpc.Code name, e.g. "PERMISSION_DENIED". */
  rpcStatus?: string;
  /** ErrorInfo.reason, else the first legacy errors[].reason, else an OAuth `error`. */
  reason?: string;
  domain?: string;
  metadata: Readonly<Record<string, string>>;
  details: GoogleErrorDetails;
  errors: readonly LegacyErrorItem[];
  /** False when the body was not a JSON error (HTML, plain text, empty). */
  structured: boolean;
}

const TYPE_PREFIX = "type.googleapis.com/google.rpc.";
const MAX_SUMMARY_LENGTH = 200;

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Only defined string fields, so results compare cleanly with exactOptionalPropertyTypes. */
function pick<K extends string>(source: Json, keys: readonly K[]): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const key of keys) {
    const value = source[key];
    if (typeof value === "string") out[key] = value;
    else if (typeof value === "number") out[key] = String(value);
  }
  return out;
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isObject(value)) for (const [k, v] of Object.entries(value)) if (typeof v === "string") out[k] = v;
  return out;
}

function objects(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isObject) : [];
}

/** A protobuf Duration string ("3s", "1.5s", "0.250s") in milliseconds. */
export function parseDurationStringMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const match = /^(-?\d+(?:\.\d+)?)s$/.exec(value.trim());
  return match?.[1] === undefined ? undefined : Math.max(0, Math.round(Number(match[1]) * 1000));
}

/** A Retry-After header: delay-seconds or an HTTP-date (relative to `nowMs`), in milliseconds; never negative. */
export function parseRetryAfterMs(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) || !/[A-Za-z]/.test(text) ? undefined : Math.max(0, date - nowMs);
}

function parseDetails(raw: unknown): GoogleErrorDetails {
  const details: GoogleErrorDetails = { other: [] };
  const other: Json[] = [];
  for (const detail of objects(raw)) {
    const type = str(detail["@type"]) ?? "";
    const name = type.startsWith(TYPE_PREFIX) ? type.slice(TYPE_PREFIX.length) : "";
    switch (name) {
      case "ErrorInfo":
        details.errorInfo = { ...pick(detail, ["reason", "domain"]), metadata: stringMap(detail["metadata"]) };
        break;
      case "RetryInfo": {
        const retryDelay = str(detail["retryDelay"]);
        const retryDelayMs = parseDurationStringMs(retryDelay);
        details.retryInfo = {
          ...(retryDelay === undefined ? {} : { retryDelay }),
          ...(retryDelayMs === undefined ? {} : { retryDelayMs }),
        };
        break;
      }
      case "QuotaFailure":
        details.quotaFailure = {
          violations: objects(detail["violations"]).map((v) => ({
            ...pick(v, [
              "subject",
              "description",
              "apiService",
              "quotaMetric",
              "quotaId",
              "quotaValue",
              "futureQuotaValue",
            ]),
            ...(isObject(v["quotaDimensions"]) ? { quotaDimensions: stringMap(v["quotaDimensions"]) } : {}),
          })),
        };
        break;
      case "Help":
        details.help = { links: objects(detail["links"]).map((l) => pick(l, ["description", "url"])) };
        break;
      case "LocalizedMessage":
        details.localizedMessage = pick(detail, ["locale", "message"]);
        break;
      case "BadRequest":
        details.badRequest = {
          fieldViolations: objects(detail["fieldViolations"]).map((v) => ({
            ...pick(v, ["field", "description", "reason"]),
            ...(isObject(v["localizedMessage"])
              ? { localizedMessage: pick(v["localizedMessage"], ["locale", "message"]) }
              : {}),
          })),
        };
        break;
      case "PreconditionFailure":
        details.preconditionFailure = {
          violations: objects(detail["violations"]).map((v) => pick(v, ["type", "subject", "description"])),
        };
        break;
      case "ResourceInfo":
        details.resourceInfo = pick(detail, ["resourceType", "resourceName", "owner", "description"]);
        break;
      case "RequestInfo":
        details.requestInfo = pick(detail, ["requestId", "servingData"]);
        break;
      default:
        other.push(detail);
    }
  }
  return { ...details, other };
}

/** A one-line summary of a body that is not a JSON error: the HTML <title>, else the text without tags. */
function summarize(body: string): string {
  const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(body)?.[1];
  const text = (title ?? body.replace(/<[^>]*>/g, " ")).replace(/\s+/g, " ").trim();
  return text.length > MAX_SUMMARY_LENGTH ? `${text.slice(0, MAX_SUMMARY_LENGTH - 3)}...` : text;
}

function unstructured(httpStatus: number, body: string): ParsedGoogleError {
  return { httpStatus, message: summarize(body), metadata: {}, details: { other: [] }, errors: [], structured: false };
}

/** Parses an error response body (text or already-parsed JSON). Never throws. */
export function parseGoogleError(httpStatus: number, body: unknown): ParsedGoogleError {
  let json: unknown = body;
  if (typeof body === "string") {
    try {
      json = JSON.parse(body);
    } catch {
      return unstructured(httpStatus, body);
    }
  }
  if (Array.isArray(json)) json = json[0]; // some APIs wrap the error in a one-element array
  if (!isObject(json)) return unstructured(httpStatus, typeof body === "string" ? body : "");
  const error = json["error"];
  if (typeof error === "string") {
    // OAuth 2.0 error body (token endpoints): {error, error_description}.
    return {
      httpStatus,
      message: str(json["error_description"]) ?? error,
      reason: error,
      metadata: {},
      details: { other: [] },
      errors: [],
      structured: true,
    };
  }
  if (!isObject(error)) return unstructured(httpStatus, typeof body === "string" ? body : "");
  const details = parseDetails(error["details"]);
  const errors: LegacyErrorItem[] = objects(error["errors"]).map((e) =>
    pick(e, ["message", "domain", "reason", "location", "locationType"]),
  );
  const code = typeof error["code"] === "number" ? error["code"] : undefined;
  const rpcStatus = str(error["status"]);
  const reason = details.errorInfo?.reason ?? errors.find((e) => e.reason !== undefined)?.reason;
  const domain = details.errorInfo?.domain ?? errors.find((e) => e.domain !== undefined)?.domain;
  return {
    httpStatus,
    ...(code === undefined ? {} : { code }),
    message: str(error["message"]) ?? "",
    ...(rpcStatus === undefined ? {} : { rpcStatus }),
    ...(reason === undefined ? {} : { reason }),
    ...(domain === undefined ? {} : { domain }),
    metadata: details.errorInfo?.metadata ?? {},
    details,
    errors,
    structured: true,
  };
}
