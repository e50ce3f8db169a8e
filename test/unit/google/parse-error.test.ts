import { strict as assert } from "node:assert";
import { parseDurationStringMs, parseGoogleError, parseRetryAfterMs } from "../../../provider/google/parse-error";
import { MISSING_CREDENTIALS_BODY, OTHER_DETAILS_BODY, QUOTA_BODY, SCOPE_BODY, UNAVAILABLE_BODY } from "./error-bodies";

describe("parseGoogleError", () => {
  it("parses an insufficient-scope body: status, ErrorInfo and the legacy errors[]", () => {
    const parsed = parseGoogleError(403, JSON.stringify(SCOPE_BODY));
    assert.deepEqual(parsed, {
      httpStatus: 403,
      code: 403,
      message: "Request had insufficient authentication scopes.",
      rpcStatus: "PERMISSION_DENIED",
      reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
      domain: "googleapis.com",
      metadata: { service: "compute.googleapis.com", method: "compute.v1.FirewallPoliciesService.Get" },
      details: {
        errorInfo: {
          reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
          domain: "googleapis.com",
          metadata: { service: "compute.googleapis.com", method: "compute.v1.FirewallPoliciesService.Get" },
        },
        other: [],
      },
      errors: [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
      structured: true,
    });
  });

  it("parses the legacy errors[] with location fields of a missing-credentials 401", () => {
    const parsed = parseGoogleError(401, MISSING_CREDENTIALS_BODY);
    assert.equal(parsed.reason, "CREDENTIALS_MISSING");
    assert.deepEqual(parsed.errors, [
      {
        message: "Login Required.",
        domain: "global",
        reason: "required",
        location: "Authorization",
        locationType: "header",
      },
    ]);
  });

  it("parses QuotaFailure, Help and RetryInfo of a 429", () => {
    const parsed = parseGoogleError(429, JSON.stringify(QUOTA_BODY));
    assert.deepEqual(parsed.details.quotaFailure, {
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
    });
    assert.deepEqual(parsed.details.help, {
      links: [
        {
          description: "Request a higher quota limit.",
          url: "https://cloud.google.com/docs/quotas/help/request_increase",
        },
      ],
    });
    assert.deepEqual(parsed.details.retryInfo, { retryDelay: "53s", retryDelayMs: 53_000 });
    assert.equal(parsed.reason, "RATE_LIMIT_EXCEEDED");
  });

  it("parses LocalizedMessage, BadRequest, PreconditionFailure, ResourceInfo, RequestInfo and keeps unknown types", () => {
    const { details } = parseGoogleError(400, JSON.stringify(OTHER_DETAILS_BODY));
    assert.deepEqual(details.localizedMessage, { locale: "fr-FR", message: "Valeur non valide." });
    assert.deepEqual(details.badRequest, {
      fieldViolations: [
        {
          field: "parentId",
          description: "Must be folders/<id> or organizations/<id>.",
          reason: "INVALID_PARENT",
          localizedMessage: { locale: "en-US", message: "Bad parent." },
        },
      ],
    });
    assert.deepEqual(details.preconditionFailure, {
      violations: [{ type: "TOS", subject: "google.com/cloud", description: "Terms of service not accepted." }],
    });
    assert.deepEqual(details.resourceInfo, {
      resourceType: "compute.googleapis.com/FirewallPolicy",
      resourceName: "firewallPolicies/1",
      owner: "organizations/1",
      description: "policy",
    });
    assert.deepEqual(details.requestInfo, { requestId: "req-1", servingData: "x" });
    assert.deepEqual(details.other, [{ "@type": "type.googleapis.com/google.rpc.DebugInfo", detail: "stack" }]);
  });

  it("takes the reason from the legacy errors[] when there is no ErrorInfo", () => {
    const parsed = parseGoogleError(503, JSON.stringify(UNAVAILABLE_BODY));
    assert.equal(parsed.reason, "backendError");
    assert.equal(parsed.domain, "global");
    assert.equal(parsed.rpcStatus, "UNAVAILABLE");
  });

  it("tolerates an HTML 502 page and other non-JSON bodies", () => {
    const html =
      "<!DOCTYPE html>\n<html lang=en><meta charset=utf-8><title>Error 502 (Server Error)!!1</title><p><b>502.</b> That’s an error.";
    assert.deepEqual(parseGoogleError(502, html), {
      httpStatus: 502,
      message: "Error 502 (Server Error)!!1",
      metadata: {},
      details: { other: [] },
      errors: [],
      structured: false,
    });
    assert.equal(parseGoogleError(500, "upstream   connect error\n").message, "upstream connect error");
    assert.equal(parseGoogleError(500, "").message, "");
    assert.equal(parseGoogleError(500, "[1,2]").structured, false);
  });

  it("parses an OAuth error body", () => {
    const parsed = parseGoogleError(400, '{"error":"invalid_grant","error_description":"Invalid JWT Signature."}');
    assert.equal(parsed.reason, "invalid_grant");
    assert.equal(parsed.message, "Invalid JWT Signature.");
  });

  it("parses Duration strings and both Retry-After forms", () => {
    assert.equal(parseDurationStringMs("3s"), 3000);
    assert.equal(parseDurationStringMs("0.250s"), 250);
    assert.equal(parseDurationStringMs("3"), undefined);
    const now = Date.parse("2026-01-01T00:00:00Z");
    assert.equal(parseRetryAfterMs("120", now), 120_000);
    assert.equal(parseRetryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now), 30_000);
    assert.equal(parseRetryAfterMs("Wed, 31 Dec 2025 23:00:00 GMT", now), 0);
    assert.equal(parseRetryAfterMs("soon", now), undefined);
  });
});
