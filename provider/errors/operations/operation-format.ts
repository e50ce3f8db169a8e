/**
 * Renders operation failures, warnings and deadlines as text that fits on one screen: one header line, then one
 * line per error and one indented line per error detail, with long lists cut short.
 */
import type {
  ComputeErrorDetail,
  ComputeOperationErrorItem,
  ComputeOperationWarning,
  RpcStatus,
} from "./operation-failure-types";

/** Errors rendered in full; the rest are counted. */
export const MAX_RENDERED_ERRORS = 10;
/** Map entries rendered per metadata/dimensions map; the rest are counted. */
export const MAX_RENDERED_MAP_ENTRIES = 8;
/** Longest rendered string value; longer ones are cut with "...". */
export const MAX_RENDERED_VALUE_LENGTH = 300;

/** google.rpc.Code names by number (google/rpc/code.proto) with their HTTP mapping. */
const RPC_CODES: readonly (readonly [string, number])[] = [
  ["OK", 200],
  ["CANCELLED", 499],
  ["UNKNOWN", 500],
  ["INVALID_ARGUMENT", 400],
  ["DEADLINE_EXCEEDED", 504],
  ["NOT_FOUND", 404],
  ["ALREADY_EXISTS", 409],
  ["PERMISSION_DENIED", 403],
  ["RESOURCE_EXHAUSTED", 429],
  ["FAILED_PRECONDITION", 400],
  ["ABORTED", 409],
  ["OUT_OF_RANGE", 400],
  ["UNIMPLEMENTED", 501],
  ["INTERNAL", 500],
  ["UNAVAILABLE", 503],
  ["DATA_LOSS", 500],
  ["UNAUTHENTICATED", 401],
];

/** "operation NAME (TARGET)", "operation NAME", the target alone when it already names the operation, or "unnamed operation (TARGET)". */
export function describeOperation(name: string | undefined, target: string | undefined): string {
  if (name !== undefined && name !== "") {
    if (target === undefined || target === "") return `operation ${name}`;
    return target.includes(name) ? target : `operation ${name} (${target})`;
  }
  return target === undefined || target === "" ? "unnamed operation" : `unnamed operation (${target})`;
}

/** "850 ms", "12.5 s", "3 min 5 s", "1 h 2 min". */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return "ever";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${Number((ms / 1000).toFixed(1))} s`;
  const totalSeconds = Math.round(ms / 1000);
  if (totalSeconds < 3600) return `${Math.floor(totalSeconds / 60)} min ${totalSeconds % 60} s`;
  const totalMinutes = Math.round(totalSeconds / 60);
  return `${Math.floor(totalMinutes / 60)} h ${totalMinutes % 60} min`;
}

export interface ComputeFailureText {
  readonly subject: string;
  readonly httpErrorStatusCode?: number | undefined;
  readonly httpErrorMessage?: string | undefined;
  readonly errors: readonly ComputeOperationErrorItem[];
  readonly warnings: readonly ComputeOperationWarning[];
}

/** The message of a failed compute operation. */
export function formatComputeFailure(failure: ComputeFailureText): string {
  const http = [
    failure.httpErrorStatusCode === undefined ? undefined : `HTTP ${failure.httpErrorStatusCode}`,
    failure.httpErrorMessage === undefined || failure.httpErrorMessage === ""
      ? undefined
      : cut(failure.httpErrorMessage),
  ].filter((part) => part !== undefined);
  const lines = [`${capitalize(failure.subject)} failed${http.length === 0 ? "" : `: ${http.join(" ")}`}`];
  for (const item of failure.errors.slice(0, MAX_RENDERED_ERRORS)) {
    const location = item.location === undefined || item.location === "" ? "" : ` (at ${cut(item.location)})`;
    lines.push(`  ${cut(item.code ?? "ERROR")}${location}: ${cut(item.message ?? "(no message)")}`);
    for (const detail of item.errorDetails ?? []) lines.push(...computeDetailLines(detail).map((l) => `    ${l}`));
  }
  const more = failure.errors.length - MAX_RENDERED_ERRORS;
  if (more > 0) lines.push(`  ... and ${more} more error${more === 1 ? "" : "s"}`);
  for (const warning of failure.warnings.slice(0, MAX_RENDERED_ERRORS))
    lines.push(`  ${formatComputeWarning(warning)}`);
  return lines.join("\n");
}

function computeDetailLines(detail: ComputeErrorDetail): string[] {
  const lines: string[] = [];
  if (detail.errorInfo !== undefined) {
    const { reason, domain, metadatas } = detail.errorInfo;
    lines.push(
      `reason ${cut(reason ?? "?")}${domain === undefined ? "" : ` (${cut(domain)})`}${mapText(metadatas, " ")}`,
    );
  }
  if (detail.quotaInfo !== undefined) {
    const q = detail.quotaInfo;
    const parts = [`quota metric ${cut(q.metricName ?? "?")}`];
    if (q.limit !== undefined || q.limitName !== undefined) {
      parts.push(
        `limit ${q.limit === undefined ? "?" : String(q.limit)}${q.limitName === undefined ? "" : ` (${cut(q.limitName)})`}`,
      );
    }
    if (q.futureLimit !== undefined) parts.push(`future limit ${String(q.futureLimit)}`);
    if (q.rolloutStatus !== undefined) parts.push(`rollout ${cut(q.rolloutStatus)}`);
    const dimensions = mapText(q.dimensions, "");
    if (dimensions !== "") parts.push(`dimensions ${dimensions}`);
    lines.push(parts.join(", "));
  }
  for (const link of detail.help?.links ?? []) lines.push(helpLine(link.description, link.url));
  if (detail.localizedMessage !== undefined) {
    const { locale, message } = detail.localizedMessage;
    lines.push(`message (${cut(locale ?? "?")}): ${cut(message ?? "")}`);
  }
  return lines;
}

/** "warning CODE: message {key=value, ...}", as passed to onWarning for a successful operation. */
export function formatComputeWarning(warning: ComputeOperationWarning): string {
  const data: Record<string, string> = {};
  for (const entry of warning.data ?? []) data[entry.key ?? "?"] = entry.value ?? "";
  return `warning ${cut(warning.code ?? "UNKNOWN")}: ${cut(warning.message ?? "(no message)")}${mapText(data, " ")}`;
}

/** The message of a long-running operation that finished with an error. */
export function formatRpcStatusFailure(subject: string, status: RpcStatus): string {
  const code = typeof status.code === "number" ? status.code : undefined;
  const known = code === undefined ? undefined : RPC_CODES[code];
  const codeText =
    code === undefined
      ? "unknown code"
      : known === undefined
        ? `code ${code}`
        : `${known[0]} (code ${code}, HTTP ${known[1]})`;
  const lines = [`${capitalize(subject)} failed: ${codeText}: ${cut(status.message ?? "(no message)")}`];
  for (const detail of (status.details ?? []).slice(0, MAX_RENDERED_ERRORS)) {
    lines.push(...rpcDetailLines(detail).map((l) => `  ${l}`));
  }
  return lines.join("\n");
}

/** The message of a long-running operation that is done with neither `response` nor `error`. */
export function formatNeitherFailure(subject: string): string {
  return `${capitalize(subject)} finished with neither response nor error (done is true); its outcome is unknown`;
}

function rpcDetailLines(detail: Record<string, unknown>): string[] {
  const type = str(detail, "@type") ?? "";
  const kind = type.slice(type.lastIndexOf(".") + 1);
  switch (kind) {
    case "ErrorInfo": {
      const domain = str(detail, "domain");
      const metadata = detail["metadata"];
      return [
        `reason ${str(detail, "reason") ?? "?"}${domain === undefined ? "" : ` (${domain})`}${mapText(metadata, " ")}`,
      ];
    }
    case "QuotaFailure":
      return list(detail, "violations").map((v) => {
        const extra = [str(v, "quotaMetric"), str(v, "quotaId"), str(v, "quotaValue") ?? num(v, "quotaValue")]
          .filter((part) => part !== undefined)
          .join(", ");
        return `quota ${str(v, "subject") ?? "?"}: ${str(v, "description") ?? ""}${extra === "" ? "" : ` (${extra})`}`;
      });
    case "Help":
      return list(detail, "links").map((link) => helpLine(str(link, "description"), str(link, "url")));
    case "LocalizedMessage":
      return [`message (${str(detail, "locale") ?? "?"}): ${str(detail, "message") ?? ""}`];
    case "RetryInfo":
      return [`retry after ${str(detail, "retryDelay") ?? "?"}`];
    case "BadRequest":
      return list(detail, "fieldViolations").map(
        (v) => `field ${str(v, "field") ?? "?"}: ${str(v, "description") ?? ""}`,
      );
    case "PreconditionFailure":
      return list(detail, "violations").map(
        (v) => `precondition ${str(v, "type") ?? "?"} ${str(v, "subject") ?? "?"}: ${str(v, "description") ?? ""}`,
      );
    case "ResourceInfo":
      return [
        `resource ${str(detail, "resourceType") ?? "?"} ${str(detail, "resourceName") ?? "?"}: ${str(detail, "description") ?? ""}`,
      ];
    case "RequestInfo":
      return [`request id ${str(detail, "requestId") ?? "?"}`];
    default:
      return [`detail ${type === "" ? "(no @type)" : cut(type)}`];
  }
}

function helpLine(description: string | undefined, url: string | undefined): string {
  return `help: ${cut(description ?? "")} <${cut(url ?? "?")}>`;
}

/** " {a=1, b=2}" (with `prefix` before it), or "" for an empty or absent map. */
function mapText(map: unknown, prefix: string): string {
  if (typeof map !== "object" || map === null) return "";
  const entries = Object.entries(map as Record<string, unknown>);
  if (entries.length === 0) return "";
  const shown = entries.slice(0, MAX_RENDERED_MAP_ENTRIES).map(([k, v]) => `${cut(k)}=${cut(String(v))}`);
  const more = entries.length - MAX_RENDERED_MAP_ENTRIES;
  if (more > 0) shown.push(`... ${more} more`);
  return `${prefix}{${shown.join(", ")}}`;
}

function str(object: unknown, key: string): string | undefined {
  const value = typeof object === "object" && object !== null ? (object as Record<string, unknown>)[key] : undefined;
  return typeof value === "string" ? cut(value) : undefined;
}

function num(object: unknown, key: string): string | undefined {
  const value = typeof object === "object" && object !== null ? (object as Record<string, unknown>)[key] : undefined;
  return typeof value === "number" ? String(value) : undefined;
}

function list(object: unknown, key: string): unknown[] {
  const value = typeof object === "object" && object !== null ? (object as Record<string, unknown>)[key] : undefined;
  return Array.isArray(value) ? (value as unknown[]).slice(0, MAX_RENDERED_ERRORS) : [];
}

function cut(text: string): string {
  const oneLine = text.replace(/\s*\n\s*/g, " ");
  return oneLine.length > MAX_RENDERED_VALUE_LENGTH ? `${oneLine.slice(0, MAX_RENDERED_VALUE_LENGTH - 3)}...` : oneLine;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export interface DeadlineText {
  readonly subject: string;
  readonly elapsedMs: number;
  readonly timeoutMs: number;
  readonly aborted: boolean;
  /** The last observation, if any. */
  readonly last?: { readonly status: string; readonly progress?: number; readonly statusMessage?: string } | undefined;
}

/** The message of a wait that ran out of time or was aborted; it names the last known state and the way out. */
export function formatDeadline(text: DeadlineText): string {
  const last =
    text.last === undefined
      ? "no status was seen yet"
      : `last status ${text.last.status}` +
        (text.last.progress === undefined ? "" : `, progress ${text.last.progress}%`) +
        (text.last.statusMessage === undefined ? "" : ` (${JSON.stringify(cut(text.last.statusMessage))})`);
  if (text.aborted) {
    return `Stopped waiting for ${text.subject} after ${formatDuration(text.elapsedMs)}: the wait was aborted; ${last}`;
  }
  return (
    `${capitalize(text.subject)} did not finish within ${formatDuration(text.timeoutMs)} ` +
    `(waited ${formatDuration(text.elapsedMs)}); ${last}. It may still finish on the server: ` +
    `raise timeoutMs or check the operation again later`
  );
}
