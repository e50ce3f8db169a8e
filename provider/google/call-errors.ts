/** Building the errors a failed call ends in: the HTTP error, the transport failure, the caller's abort. */
import { DeadlineError } from "../errors";
import { ApiError } from "../errors/google/api-error";
import type { BuiltRequest } from "./endpoints";
import { hintFor } from "./hints";
import type { HintContext } from "./hints";
import type { ParsedGoogleError } from "./parse-error";
import { redactText } from "../errors/google/redact";
import type { FailureClassification } from "./retry";

/** What a call is about, for its errors. */
export interface CallState {
  readonly context: HintContext;
  readonly request: BuiltRequest;
  readonly resource: string;
  readonly started: number;
  readonly signal: AbortSignal | undefined;
}

/** An ApiError of an HTTP error response; `note` (e.g. "Gave up after 5 attempts") follows the hint. */
export function httpCallError(
  state: CallState,
  parsed: ParsedGoogleError,
  attempts: number,
  note: string | undefined,
): ApiError {
  const hint = [hintFor(state.context, parsed), note].filter((s) => s !== undefined).join(". ");
  return new ApiError({
    service: state.context.definition.service,
    endpoint: state.context.definition.id,
    method: state.request.method,
    url: state.request.url,
    httpStatus: parsed.httpStatus,
    rpcStatus: parsed.rpcStatus,
    reason: parsed.reason,
    domain: parsed.domain,
    errorMetadata: parsed.metadata,
    errorDetails: parsed.details,
    errors: parsed.errors,
    serverMessage: parsed.message,
    resource: state.resource,
    hint: hint === "" ? undefined : hint,
    attempts,
  });
}

/** An ApiError with httpStatus 0 for a transport failure; its cause is a fresh Error, never the transport's own. */
export function networkCallError(
  state: CallState,
  error: unknown,
  decision: FailureClassification,
  token: string,
  attempts: number,
  note: string | undefined,
  serviceRoot: string,
): ApiError {
  const raw = error instanceof Error ? error.message : "the request failed";
  const message = redactText(raw, [token]);
  // A fresh cause: the transport error itself carries the request config, headers included.
  const cause = new Error(`${decision.reason}: ${message}`);
  const hint = [`Check that ${serviceRoot} is reachable`, note].filter((s) => s !== undefined).join(". ");
  return new ApiError({
    service: state.context.definition.service,
    endpoint: state.context.definition.id,
    method: state.request.method,
    url: state.request.url,
    httpStatus: 0,
    reason: decision.reason,
    serverMessage: decision.reason === "timeout" ? `no response within the per-attempt timeout (${message})` : message,
    resource: state.resource,
    hint,
    attempts,
    cause,
  });
}

/** The DeadlineError of a call the caller aborted. */
export function abortedCall(state: CallState, nowMs: number): DeadlineError {
  const elapsedMs = nowMs - state.started;
  const target = `${state.context.definition.id} ${state.resource}`;
  return new DeadlineError({
    target,
    elapsedMs,
    aborted: true,
    message: `${target}: aborted by the caller after ${elapsedMs} ms`,
  });
}
