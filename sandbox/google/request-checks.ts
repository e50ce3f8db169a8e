/**
 * Checks every route shares, applied before its handler: unknown query parameters, bodies where none is allowed,
 * and JSON bodies that do not parse. Messages follow Google's ESF wording ("Invalid JSON payload received. ...").
 */
import { invalidArgument, invalidField } from "./google-errors";
import type { GoogleFailure } from "./results";
import { STANDARD_QUERY_PARAMS, type Route } from "./route-table";

/** 400 for the first query parameter the method does not declare. */
export function checkQuery(route: Route, query: URLSearchParams): GoogleFailure | undefined {
  for (const name of query.keys()) {
    if (STANDARD_QUERY_PARAMS.has(name) || route.queryParams.includes(name)) continue;
    const message = `Invalid JSON payload received. Unknown name "${name}": Cannot bind query parameter. Field '${name}' could not be found in request message.`;
    return invalidArgument(message, [{ field: name, description: message }], route.invalidReason);
  }
  return undefined;
}

/** 400 when a method without a request body receives one (whitespace counts as empty). */
export function checkEmptyBody(route: Route, body: string): GoogleFailure | undefined {
  if (route.body !== "empty" || body.trim() === "") return undefined;
  const message = `Invalid JSON payload received. ${route.method} ${route.id} takes no request body, but ${Buffer.byteLength(body)} bytes were sent.`;
  return invalidArgument(message, [{ field: "", description: message }], route.invalidReason);
}

export type JsonObjectResult =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>> }
  | { readonly ok: false; readonly failure: GoogleFailure };

/** Parses a JSON object body; an empty body is `{}`. */
export function parseJsonObject(body: string): JsonObjectResult {
  if (body.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { ok: false, failure: invalidField("", "Invalid JSON payload received. Unexpected token.") };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return {
      ok: false,
      failure: invalidField("", "Invalid JSON payload received. Expected an object at the top level."),
    };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/** 400 for the first field of `value` that is not in `known` (`path` prefixes the reported name). */
export function checkKnownFields(
  value: Readonly<Record<string, unknown>>,
  known: readonly string[],
  path = "",
): GoogleFailure | undefined {
  for (const name of Object.keys(value)) {
    if (known.includes(name)) continue;
    const field = path === "" ? name : `${path}.${name}`;
    const where = path === "" ? "" : ` at '${path}'`;
    return invalidField(field, `Invalid JSON payload received. Unknown name "${name}"${where}: Cannot find field.`);
  }
  return undefined;
}

/** A decimal int64 > 0 as the DV360 ids are; anything else gives ESF's TYPE_INT64 message. */
export function checkInt64(field: string, value: string): GoogleFailure | undefined {
  if (/^[1-9][0-9]{0,18}$/.test(value) && BigInt(value) <= 9_223_372_036_854_775_807n) return undefined;
  return invalidField(field, `Invalid value at '${field}' (TYPE_INT64), "${value}"`);
}
