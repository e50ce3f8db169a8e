/**
 * What the ledger's inputs are made of, for every file of the wing: a value not known yet (preview), plain records, an
 * environment variable's name, and one canonical text of a value to compare two (state against new inputs).
 */

import { UNKNOWN } from "../../runtime/unknown-value";

export { UNKNOWN };

/** Whether a value is, or holds, an input not known yet (preview). */
export const hasUnknown = (value: unknown): boolean => value !== undefined && JSON.stringify(value).includes(UNKNOWN);

/** A plain object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** An environment variable's name as a reference input may give it (keyEnv, pinEnv, clientKeyEnv). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A canonical JSON text of a value, to compare two: object keys sorted at every depth, undefined as null. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}
