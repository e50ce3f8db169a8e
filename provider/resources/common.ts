/** Small helpers shared by the dynamic providers. */
import { createHash } from "node:crypto";
import type { FieldFailure } from "../errors";
import { parseDurationMs } from "../google";
import { DEFAULT_OPERATION_TIMEOUT_MS } from "../operations";
import { parseUrn } from "../runtime/urn";

/**
 * Our own per-step deadlines, as durations ("20m", "90s"): `customTimeouts` never reaches a dynamic provider. Each
 * resource takes those of its steps (a `Pick` of these, named as its schema type).
 */
export interface Timeouts {
  /** The create step's deadline. @default {@link DEFAULT_OPERATION_TIMEOUT_MS} */
  create?: string;
  /** The update step's deadline. @default {@link DEFAULT_OPERATION_TIMEOUT_MS} */
  update?: string;
  /** The delete step's deadline. @default {@link DEFAULT_OPERATION_TIMEOUT_MS} */
  delete?: string;
}

/** Validates a `timeouts` input; failures name the property (`timeouts.create`) and the expected form. */
export function checkTimeouts(value: unknown): FieldFailure[] {
  if (value === undefined || value === null) return [];
  if (typeof value !== "object" || Array.isArray(value)) {
    return [
      { property: "timeouts", reason: 'must be an object such as { create: "20m", update: "20m", delete: "20m" }' },
    ];
  }
  const failures: FieldFailure[] = [];
  for (const [key, v] of Object.entries(value as Record<string, unknown>)) {
    if (!["create", "update", "delete"].includes(key)) {
      failures.push({ property: `timeouts.${key}`, reason: "is not a known timeout; use create, update or delete" });
    } else if (typeof v !== "string" || parseDurationMs(v) === undefined || (parseDurationMs(v) ?? 0) <= 0) {
      failures.push({
        property: `timeouts.${key}`,
        reason: `'${String(v)}' is not a duration; use a number with ms, s, m or h, e.g. "20m"`,
      });
    }
  }
  return failures;
}

export function timeoutMs(timeouts: Timeouts | undefined, step: keyof Timeouts): number {
  const text = timeouts?.[step];
  return (text === undefined ? undefined : parseDurationMs(text)) ?? DEFAULT_OPERATION_TIMEOUT_MS;
}

/**
 * A deterministic UUID (RFC 9562 version 8 layout) from the given parts: the same parts always give the same id, so a
 * retried or crash-interrupted step sends the same requestId. Never the zero UUID.
 */
export function deterministicUuid(...parts: readonly string[]): string {
  const h = createHash("sha256").update(parts.join("\u0000")).digest();
  h[6] = ((h[6] ?? 0) & 0x0f) | 0x80; // version 8
  h[8] = ((h[8] ?? 0) & 0x3f) | 0x80; // variant 10
  const hex = h.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** The resource name at the end of a URN, for log lines. */
export function nameFromUrn(urn: string | undefined): string {
  if (!urn) return "(unnamed)";
  try {
    return parseUrn(urn).name;
  } catch {
    return urn;
  }
}

/** A readable message for any thrown value, never including stack traces. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
