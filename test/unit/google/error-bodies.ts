/** Google error bodies as real reports show them (the issue each comes from is named), for the error parsing tests. */
/** Insufficient scope (Analog#296, react-google-contacts#6). */
export const SCOPE_BODY = {
  error: {
    code: 403,
    message: "Request had insufficient authentication scopes.",
    errors: [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
    status: "PERMISSION_DENIED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
        domain: "googleapis.com",
        metadata: { service: "compute.googleapis.com", method: "compute.v1.FirewallPoliciesService.Get" },
      },
    ],
  },
};

/** Missing credentials (google-api-php-client#2479). */
export const MISSING_CREDENTIALS_BODY = {
  error: {
    code: 401,
    message:
      "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
    errors: [
      {
        message: "Login Required.",
        domain: "global",
        reason: "required",
        location: "Authorization",
        locationType: "header",
      },
    ],
    status: "UNAUTHENTICATED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "CREDENTIALS_MISSING",
        domain: "googleapis.com",
        metadata: { service: "compute.googleapis.com", method: "compute.v1.FirewallPoliciesService.Get" },
      },
    ],
  },
};

/** A consumer-quota 429 with QuotaFailure, Help, ErrorInfo and RetryInfo (python-genai#1875). */
export const QUOTA_BODY = {
  error: {
    code: 429,
    message:
      "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'compute.googleapis.com' for consumer 'project_number:123456789012'.",
    status: "RESOURCE_EXHAUSTED",
    details: [
      {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        reason: "RATE_LIMIT_EXCEEDED",
        domain: "googleapis.com",
        metadata: { quota_metric: "compute.googleapis.com/requests", consumer: "projects/123456789012" },
      },
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          {
            subject: "project:123456789012",
            description: "Requests per minute",
            apiService: "compute.googleapis.com",
            quotaMetric: "compute.googleapis.com/requests",
            quotaId: "RequestsPerMinutePerProject",
            quotaDimensions: { region: "global" },
            quotaValue: "1200",
            futureQuotaValue: "2400",
          },
        ],
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [
          {
            description: "Request a higher quota limit.",
            url: "https://cloud.google.com/docs/quotas/help/request_increase",
          },
        ],
      },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "53s" },
    ],
  },
};

/** The 503 sample without details (google-api-php-client#1945). */
export const UNAVAILABLE_BODY = {
  error: {
    code: 503,
    message: "The service is currently unavailable.",
    errors: [{ message: "The service is currently unavailable.", domain: "global", reason: "backendError" }],
    status: "UNAVAILABLE",
  },
};

export const OTHER_DETAILS_BODY = {
  error: {
    code: 400,
    message: "Invalid value for field 'parentId'.",
    status: "INVALID_ARGUMENT",
    details: [
      { "@type": "type.googleapis.com/google.rpc.LocalizedMessage", locale: "fr-FR", message: "Valeur non valide." },
      {
        "@type": "type.googleapis.com/google.rpc.BadRequest",
        fieldViolations: [
          {
            field: "parentId",
            description: "Must be folders/<id> or organizations/<id>.",
            reason: "INVALID_PARENT",
            localizedMessage: { locale: "en-US", message: "Bad parent." },
          },
        ],
      },
      {
        "@type": "type.googleapis.com/google.rpc.PreconditionFailure",
        violations: [{ type: "TOS", subject: "google.com/cloud", description: "Terms of service not accepted." }],
      },
      {
        "@type": "type.googleapis.com/google.rpc.ResourceInfo",
        resourceType: "compute.googleapis.com/FirewallPolicy",
        resourceName: "firewallPolicies/1",
        owner: "organizations/1",
        description: "policy",
      },
      { "@type": "type.googleapis.com/google.rpc.RequestInfo", requestId: "req-1", servingData: "x" },
      { "@type": "type.googleapis.com/google.rpc.DebugInfo", detail: "stack" },
    ],
  },
};
