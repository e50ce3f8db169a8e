/**
 * Builders of the Google errors the sandbox sends. Messages and legacy reasons copy real responses where the
 * Google's documentation quotes them (https://cloud.google.com/apis/design/errors); the rest follow the same style.
 */
import { rpcCodeForHttpStatus, type ErrorDetail, type GoogleFailure, type LegacyErrorItem } from "./results";

const TYPE_PREFIX = "type.googleapis.com/google.rpc.";
const DEVCONSOLE_HINT = "See https://developers.google.com/identity/sign-in/web/devconsole-project.";

/** The API a request was for, as named in ErrorInfo metadata. */
export interface ApiMethod {
  /** Service host, for example "compute.googleapis.com". */
  readonly service: string;
  /** RPC method, for example "compute.v1.FirewallPoliciesService.Move". */
  readonly method: string;
}

export interface FieldViolation {
  readonly field: string;
  readonly description: string;
}

export function errorInfo(reason: string, domain: string, metadata: Readonly<Record<string, string>>): ErrorDetail {
  return { "@type": `${TYPE_PREFIX}ErrorInfo`, reason, domain, metadata };
}

export function badRequestDetail(violations: readonly FieldViolation[]): ErrorDetail {
  return { "@type": `${TYPE_PREFIX}BadRequest`, fieldViolations: violations };
}

export function retryInfo(retryDelay: string): ErrorDetail {
  return { "@type": `${TYPE_PREFIX}RetryInfo`, retryDelay };
}

/** Any error: status name from the HTTP code, one legacy item in the "global" domain. */
export function googleError(
  properties: Readonly<{
    httpStatus: number;
    message: string;
    reason: string;
    details?: readonly ErrorDetail[];
    errors?: readonly LegacyErrorItem[];
    headers?: Readonly<Record<string, string>>;
  }>,
): GoogleFailure {
  return {
    kind: "googleError",
    httpStatus: properties.httpStatus,
    status: rpcCodeForHttpStatus(properties.httpStatus),
    message: properties.message,
    errors: properties.errors ?? [{ message: properties.message, domain: "global", reason: properties.reason }],
    details: properties.details ?? [],
    ...(properties.headers === undefined ? {} : { headers: properties.headers }),
  };
}

/**
 * 400 INVALID_ARGUMENT with a google.rpc.BadRequest detail. `legacyReason` (errors[0].reason) is "invalid" or
 * "required" for compute and Deployment Manager and "badRequest" for the proto-based APIs.
 */
export function invalidArgument(
  message: string,
  violations: readonly FieldViolation[],
  legacyReason = "badRequest",
): GoogleFailure {
  return googleError({ httpStatus: 400, message, reason: legacyReason, details: [badRequestDetail(violations)] });
}

/** 400 for one bad field: the message is the violation's description. */
export function invalidField(field: string, description: string, legacyReason = "badRequest"): GoogleFailure {
  return invalidArgument(description, [{ field, description }], legacyReason);
}

export function notFound(message: string): GoogleFailure {
  return googleError({ httpStatus: 404, message, reason: "notFound" });
}

/** 404 for a path no route serves. */
export function unknownRoute(method: string, path: string): GoogleFailure {
  return notFound(`The requested URL ${path} was not found on this server (method ${method}).`);
}

/** 404 for a host the front end does not serve: outside the sandbox's universe, or no service of that name. */
export function unknownHost(host: string, path: string, universeDomain: string): GoogleFailure {
  return notFound(
    `The requested URL ${path} was not found on this server (host '${host}' is not a service of the universe ` +
      `${universeDomain}).`,
  );
}

export function permissionDenied(message: string, details: readonly ErrorDetail[] = []): GoogleFailure {
  return googleError({ httpStatus: 403, message, reason: "forbidden", details });
}

/**
 * 403 for an x-goog-user-project the caller may not bill (no serviceusage.services.use on it): Google's
 * USER_PROJECT_DENIED, with the message modelled on the front end's.
 */
export function userProjectDenied(project: string, service: string): GoogleFailure {
  return permissionDenied(
    `Caller does not have required permission to use project ${project}. Grant the caller the ` +
      `roles/serviceusage.serviceUsageConsumer role, or a custom role with the serviceusage.services.use permission, ` +
      `by visiting https://console.developers.google.com/iam-admin/iam/admin?project=${project} and then retry. ` +
      `Propagation of the new permission may take a few minutes.`,
    [errorInfo("USER_PROJECT_DENIED", "googleapis.com", { consumer: `projects/${project}`, service })],
  );
}

/** 403 for a missing IAM permission (ErrorInfo reason IAM_PERMISSION_DENIED, metadata {permission}). */
export function iamPermissionDenied(permission: string, resource: string): GoogleFailure {
  return permissionDenied(`Permission '${permission}' denied on resource '${resource}' (or it may not exist).`, [
    errorInfo("IAM_PERMISSION_DENIED", "iam.googleapis.com", { permission }),
  ]);
}

/**
 * Compute's 403 for a missing permission: "Required '<permission>' permission for '<resource>'", legacy reason
 * "forbidden" (what compute answers whether the object is hidden from the caller or absent).
 */
export function computePermissionDenied(permission: string, resource: string): GoogleFailure {
  return permissionDenied(`Required '${permission}' permission for '${resource}'`);
}

/** 401 without an Authorization header (ErrorInfo CREDENTIALS_MISSING). */
export function credentialsMissing(api: ApiMethod): GoogleFailure {
  const message = `Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${DEVCONSOLE_HINT}`;
  return googleError({
    httpStatus: 401,
    message,
    reason: "required",
    errors: [
      {
        message: "Login Required.",
        domain: "global",
        reason: "required",
        location: "Authorization",
        locationType: "header",
      },
    ],
    details: [errorInfo("CREDENTIALS_MISSING", "googleapis.com", { service: api.service, method: api.method })],
    headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/"' },
  });
}

/**
 * 401 for a bearer token the sandbox does not accept: ACCESS_TOKEN_EXPIRED for one it issued that has expired,
 * ACCESS_TOKEN_TYPE_UNSUPPORTED for one it never issued (or that reset() forgot).
 */
export function invalidCredentials(
  api: ApiMethod,
  reason: "ACCESS_TOKEN_EXPIRED" | "ACCESS_TOKEN_TYPE_UNSUPPORTED",
): GoogleFailure {
  const message = `Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${DEVCONSOLE_HINT}`;
  return googleError({
    httpStatus: 401,
    message,
    reason: "authError",
    errors: [
      {
        message: "Invalid Credentials",
        domain: "global",
        reason: "authError",
        location: "Authorization",
        locationType: "header",
      },
    ],
    details: [errorInfo(reason, "googleapis.com", { service: api.service, method: api.method })],
    headers: { "www-authenticate": 'Bearer realm="https://accounts.google.com/", error="invalid_token"' },
  });
}

/** 403 for a token without any accepted scope, with the WWW-Authenticate header listing the accepted scopes. */
export function insufficientScopes(api: ApiMethod, acceptedScopes: readonly string[]): GoogleFailure {
  return googleError({
    httpStatus: 403,
    message: "Request had insufficient authentication scopes.",
    reason: "insufficientPermissions",
    errors: [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
    details: [
      errorInfo("ACCESS_TOKEN_SCOPE_INSUFFICIENT", "googleapis.com", { service: api.service, method: api.method }),
    ],
    headers: {
      "www-authenticate": `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${acceptedScopes.join(" ")}"`,
    },
  });
}

/** 503 UNAVAILABLE backendError, as in the sample the reference quotes. */
export function unavailable(): GoogleFailure {
  return googleError({ httpStatus: 503, message: "The service is currently unavailable.", reason: "backendError" });
}

/** 429 RESOURCE_EXHAUSTED: rate limit, with optional Retry-After header and RetryInfo detail. */
export function resourceExhausted(
  api: ApiMethod,
  options: Readonly<{ reason?: string; retryAfterSeconds?: number; retryInfoDelay?: string }>,
): GoogleFailure {
  const message = `Quota exceeded for quota metric 'Queries' and limit 'Queries per minute' of service '${api.service}' for consumer 'project_number:123456789012'.`;
  const details: ErrorDetail[] = [
    errorInfo(options.reason ?? "RATE_LIMIT_EXCEEDED", "googleapis.com", {
      service: api.service,
      quota_metric: `${api.service}/queries`,
      quota_limit: "QueriesPerMinutePerProject",
      consumer: "projects/123456789012",
    }),
  ];
  if (options.retryInfoDelay !== undefined) details.push(retryInfo(options.retryInfoDelay));
  return googleError({
    httpStatus: 429,
    message,
    reason: "rateLimitExceeded",
    details,
    ...(options.retryAfterSeconds === undefined
      ? {}
      : { headers: { "retry-after": String(options.retryAfterSeconds) } }),
  });
}
