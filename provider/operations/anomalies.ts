/**
 * Checks for values that break the limits Google documents for operations and error details (google.rpc.ErrorInfo).
 * They are reported through onWarning, never thrown: an out-of-spec detail must not hide the operation's real outcome.
 * Each function returns messages without a subject; the waiter prefixes the operation's name.
 */
import type { ComputeOperationErrorItem, RpcStatus } from "../errors/operations/operation-failure-types";

/** errorInfo.reason: UPPER_SNAKE_CASE, at most 63 characters. */
export const ERROR_INFO_REASON_PATTERN = /^[A-Z0-9_]+$/;
export const MAX_ERROR_INFO_REASON_LENGTH = 63;
/** errorInfo.metadata(s) keys: lowerCamelCase preferred, at most 64 characters. */
export const ERROR_INFO_METADATA_KEY_PATTERN = /^[a-z][a-zA-Z0-9-_]+$/;
export const MAX_ERROR_INFO_METADATA_KEY_LENGTH = 64;

/** Problems with one ErrorInfo: `path` names it, e.g. "error.errors[0].errorDetails[1].errorInfo". */
export function errorInfoAnomalies(info: unknown, path: string, metadataField: "metadatas" | "metadata"): string[] {
  if (typeof info !== "object" || info === null) return [`${path} is ${describe(info)}, not an object`];
  const found: string[] = [];
  const { reason } = info as { reason?: unknown };
  if (reason !== undefined) {
    if (typeof reason !== "string") {
      found.push(`${path}.reason is ${describe(reason)}, not a string`);
    } else if (reason.length > MAX_ERROR_INFO_REASON_LENGTH || !ERROR_INFO_REASON_PATTERN.test(reason)) {
      found.push(
        `${path}.reason ${quote(reason)} is out of spec: it must be at most ${MAX_ERROR_INFO_REASON_LENGTH} ` +
          `characters of A-Z, 0-9 and _ (it has ${reason.length})`,
      );
    }
  }
  const metadata = (info as Record<string, unknown>)[metadataField];
  if (metadata === undefined) return found;
  if (typeof metadata !== "object" || metadata === null || Array.isArray(metadata)) {
    found.push(`${path}.${metadataField} is ${describe(metadata)}, not a map of strings`);
    return found;
  }
  for (const key of Object.keys(metadata)) {
    if (key.length > MAX_ERROR_INFO_METADATA_KEY_LENGTH || !ERROR_INFO_METADATA_KEY_PATTERN.test(key)) {
      found.push(
        `${path}.${metadataField} key ${quote(key)} is out of spec: it must match ` +
          `${String(ERROR_INFO_METADATA_KEY_PATTERN)} and be at most ${MAX_ERROR_INFO_METADATA_KEY_LENGTH} characters`,
      );
    }
  }
  return found;
}

/** Problems in a compute operation's error.errors[] (their errorInfo details). */
export function computeErrorAnomalies(errors: readonly ComputeOperationErrorItem[]): string[] {
  const found: string[] = [];
  errors.forEach((item, i) => {
    (item.errorDetails ?? []).forEach((detail, j) => {
      if (detail.errorInfo !== undefined) {
        const path = `error.errors[${i}].errorDetails[${j}].errorInfo`;
        found.push(...errorInfoAnomalies(detail.errorInfo, path, "metadatas"));
      }
    });
  });
  return found;
}

/** Problems in a long-running operation's error (its google.rpc.ErrorInfo details). */
export function rpcStatusAnomalies(status: RpcStatus): string[] {
  const found: string[] = [];
  (status.details ?? []).forEach((detail, i) => {
    if (detail["@type"]?.endsWith("google.rpc.ErrorInfo") === true) {
      found.push(...errorInfoAnomalies(detail, `error.details[${i}] (ErrorInfo)`, "metadata"));
    }
  });
  return found;
}

/** The reason a progress value cannot be used, or undefined when it is a number from 0 to 100. */
export function progressRangeAnomaly(progress: unknown): string | undefined {
  if (typeof progress === "number" && Number.isFinite(progress) && progress >= 0 && progress <= 100) return undefined;
  return `progress ${describe(progress)} is out of spec: it must be a number from 0 to 100; ignoring it`;
}

/** The message for a progress value lower than one seen before. */
export function progressDecreaseAnomaly(previousMax: number, progress: number): string {
  return `progress went down from ${previousMax} to ${progress}, but it must never decrease; still reporting ${previousMax}`;
}

function quote(text: string): string {
  return JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}

function describe(value: unknown): string {
  if (typeof value === "string") return quote(value);
  if (value === null || typeof value !== "object") return String(value);
  return Array.isArray(value) ? "an array" : "an object";
}
