/**
 * Hints a person can act on, derived from the endpoint table entry, the call's parameters and the parsed error.
 */
import type { DisplayVideoApiVersion, EndpointDefinition, NormalizedParams } from "./endpoint-types";
import type { ParsedGoogleError } from "./parse-error";

/** ErrorInfo reasons and legacy reasons that mean "rate limited, try again later" (not quota exhaustion). */
export const RATE_LIMIT_REASONS: readonly string[] = [
  "RATE_LIMIT_EXCEEDED",
  "rateLimitExceeded",
  "userRateLimitExceeded",
];

/**
 * Whether the error names a rate limit. ErrorInfo is the authoritative reason (AIP-193); the legacy errors[] reasons
 * count only when there is no ErrorInfo (a 429 with ErrorInfo QUOTA_EXCEEDED is quota, whatever errors[] says).
 */
export function hasRateLimitReason(parsed: ParsedGoogleError): boolean {
  const info = parsed.details.errorInfo?.reason;
  if (info !== undefined) return RATE_LIMIT_REASONS.includes(info);
  return parsed.errors.some((e) => e.reason !== undefined && RATE_LIMIT_REASONS.includes(e.reason));
}

export const RATE_LIMIT_HINT =
  "The service is rate limiting these calls: lower opsledger:maxConcurrentRequests or try again later";

export const CREDENTIALS_HINT =
  "Provide valid credentials: set opsledger:credentials (a key file path or its JSON), opsledger:accessToken, or " +
  "GOOGLE_APPLICATION_CREDENTIALS, or run 'gcloud auth application-default login'; an access token may have expired " +
  "or been revoked";

export interface HintContext {
  readonly definition: EndpointDefinition;
  readonly values: NormalizedParams;
  /** The scopes the client asked its credential for. */
  readonly requestedScopes: readonly string[];
}

function hasReason(parsed: ParsedGoogleError, reason: string): boolean {
  return parsed.reason === reason || parsed.errors.some((e) => e.reason === reason);
}

/** True when a 403 is about the token's scopes rather than the caller's permissions. */
export function isScopeInsufficient(parsed: ParsedGoogleError): boolean {
  return (
    parsed.details.errorInfo?.reason === "ACCESS_TOKEN_SCOPE_INSUFFICIENT" ||
    parsed.errors.some((e) => e.reason === "insufficientPermissions") ||
    hasReason(parsed, "ACCESS_TOKEN_SCOPE_INSUFFICIENT")
  );
}

function displayVideoOwnershipHint(context: HintContext): string {
  const { definition, values } = context;
  const group = String(values["inventorySourceGroupId"]);
  if (definition.id === "displayvideo.advertisers.creatives.get") {
    const advertiser = String(values["advertiserId"]);
    return (
      `Creative ${String(values["creativeId"])} must belong to advertiser ${advertiser}, and the caller needs access ` +
      `to advertiser ${advertiser}`
    );
  }
  const write = definition.method === "DELETE";
  const partner = values["partnerId"];
  if (typeof partner === "string") {
    return write
      ? `Only the owning partner can delete a partner-owned inventory source group, and a parent partner has no access ` +
          `to a group owned by one of its advertisers: check that partner ${partner} owns inventory source group ` +
          `${group}, or pass the owning advertiser's advertiserId instead`
      : `A partner can read only the inventory source groups it owns, never an advertiser-owned one: check that ` +
          `partner ${partner} owns inventory source group ${group}, or pass the owning advertiser's advertiserId`;
  }
  const advertiser = String(values["advertiserId"]);
  return write
    ? `An advertiser-owned inventory source group can be deleted only with its own advertiserId, and a ` +
        `partner-owned one only with partnerId: check that advertiser ${advertiser} owns inventory source group ${group}`
    : `An advertiser can read inventory source group ${group} only if it owns it or the owning partner shared it ` +
        `with advertiser ${advertiser}`;
}

function sunsetNote(values: NormalizedParams): string {
  const version = values["apiVersion"] as DisplayVideoApiVersion | undefined;
  return version === undefined || version === "v4"
    ? ""
    : ` (Display & Video 360 ${version} is sunset and no longer holds data: set opsledger:displayVideoApiVersion=v4)`;
}

/** The hint for a failed call, or undefined when there is nothing useful to add. */
export function hintFor(context: HintContext, parsed: ParsedGoogleError): string | undefined {
  const { definition, values, requestedScopes } = context;
  const resource = definition.describe(values);
  const status = parsed.httpStatus;
  if (status === 401) return CREDENTIALS_HINT;
  if (status === 403 && isScopeInsufficient(parsed)) {
    return (
      `This endpoint accepts the scopes: ${definition.acceptedScopes.join(", ")}; the token must carry one of ` +
      `them (this client requests ${requestedScopes.join(", ")})`
    );
  }
  if (hasReason(parsed, "IAM_PERMISSION_DENIED")) {
    const permission = parsed.metadata["permission"] ?? definition.extraPermission;
    return permission === undefined
      ? `The caller lacks an IAM permission on ${resource}`
      : `The caller lacks the IAM permission ${permission} on ${resource}`;
  }
  if (status === 403 && hasRateLimitReason(parsed)) return RATE_LIMIT_HINT;
  if (status === 403 && definition.service === "displayVideo") return displayVideoOwnershipHint(context);
  if (status === 403 && definition.extraPermission !== undefined) {
    return `The caller may lack the IAM permission ${definition.extraPermission} on ${resource}`;
  }
  if (status === 404) return `Check that ${resource} exists and that the caller can see it${sunsetNote(values)}`;
  if (status === 429) {
    if (parsed.details.retryInfo !== undefined || hasRateLimitReason(parsed)) return RATE_LIMIT_HINT;
    const violation = parsed.details.quotaFailure?.violations[0]?.description;
    return `A quota is exhausted${violation === undefined ? "" : ` (${violation})`}: wait for it to refill or request more quota`;
  }
  const violations = parsed.details.badRequest?.fieldViolations ?? [];
  if (status === 400 && violations.length > 0) {
    return `Fix: ${violations.map((v) => `${v.field ?? "(request)"}: ${v.description ?? v.reason ?? "invalid"}`).join("; ")}`;
  }
  return undefined;
}
