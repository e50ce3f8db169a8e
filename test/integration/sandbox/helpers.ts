/** Shared helpers of the sandbox integration tests: plain fetch with a bearer token, JSON bodies. */
import assert from "node:assert/strict";
import { SCOPE_PREFIX, type GoogleSandbox } from "../../../sandbox/google";

export const DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com";
export const READER = "reader@sandbox-project.iam.gserviceaccount.com";

export function scope(name: string): string {
  return SCOPE_PREFIX + name;
}

/**
 * Parsed JSON as the tests walk it: any member path type-checks, and the leaves are compared with assert (or read
 * with `str`/`num`, which check their type at run time).
 */
export interface Loose {
  readonly [key: string]: Loose;
}

export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Loose;
}

/** A JSON leaf that must be a string. */
export function str(value: unknown): string {
  if (typeof value !== "string") throw new assert.AssertionError({ message: `expected a string, got ${typeof value}` });
  return value;
}

/** A JSON leaf that must be a number. */
export function num(value: unknown): number {
  if (typeof value !== "number") throw new assert.AssertionError({ message: `expected a number, got ${typeof value}` });
  return value;
}

export interface CallOptions {
  readonly method?: string;
  readonly token?: string;
  readonly body?: string;
  readonly headers?: Record<string, string>;
}

export async function call(url: string, options: CallOptions = {}): Promise<JsonResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) headers["authorization"] = `Bearer ${options.token}`;
  if (options.body !== undefined) headers["content-type"] ??= "application/json";
  const res = await fetch(url, {
    method: options.method ?? "GET",
    headers,
    ...(options.body === undefined ? {} : { body: options.body }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text === "" ? {} : JSON.parse(text)) as Loose };
}

/** A token for `principal` with the given short scope names. */
export function token(sandbox: GoogleSandbox, principal: string, ...scopes: string[]): string {
  return sandbox.mintToken({ principal, scopes });
}

export function moveUrl(sandbox: GoogleSandbox, policyId: string, query: string): string {
  return `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${policyId}/move?${query}`;
}

/** The google.rpc.BadRequest 400 body the sandbox sends for one bad field. */
export function badRequestBody(field: string, message: string, legacyReason = "badRequest"): unknown {
  return {
    error: {
      code: 400,
      message,
      errors: [{ message, domain: "global", reason: legacyReason }],
      status: "INVALID_ARGUMENT",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.BadRequest",
          fieldViolations: [{ field, description: message }],
        },
      ],
    },
  };
}

export function notFoundBody(message: string): unknown {
  return {
    error: { code: 404, message, errors: [{ message, domain: "global", reason: "notFound" }], status: "NOT_FOUND" },
  };
}

export function forbiddenBody(message: string): unknown {
  return {
    error: {
      code: 403,
      message,
      errors: [{ message, domain: "global", reason: "forbidden" }],
      status: "PERMISSION_DENIED",
    },
  };
}
