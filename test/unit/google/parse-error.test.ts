import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { ApiError, isApiError } from "../../../provider/google/api-error";
import { createGoogleClient } from "../../../provider/google/client";
import { parseDurationStringMs, parseGoogleError, parseRetryAfterMs } from "../../../provider/google/parse-error";
import { SCOPES } from "../../../provider/google/scopes";
import type { EndpointId, EndpointParams } from "../../../provider/google/endpoint-types";
import { countingTokens, scriptedAxios, testSettings } from "./helpers";

/** Insufficient scope (Analog#296, react-google-contacts#6). */
const SCOPE_BODY = {
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
const MISSING_CREDENTIALS_BODY = {
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
const QUOTA_BODY = {
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
const UNAVAILABLE_BODY = {
  error: {
    code: 503,
    message: "The service is currently unavailable.",
    errors: [{ message: "The service is currently unavailable.", domain: "global", reason: "backendError" }],
    status: "UNAVAILABLE",
  },
};

const OTHER_DETAILS_BODY = {
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

async function failWith<E extends EndpointId>(
  status: number,
  body: unknown,
  id: E,
  params: EndpointParams<E>,
): Promise<ApiError> {
  const transport = scriptedAxios([{ status, body }]);
  const client = createGoogleClient({
    settings: testSettings(),
    axios: transport.axios,
    tokenSource: countingTokens(),
  });
  try {
    await client.call(id, params);
  } catch (error) {
    assert.ok(isApiError(error));
    return error;
  }
  assert.fail("expected an ApiError");
}

describe("ApiError", () => {
  it("lists the accepted scopes on an insufficient-scope 403", async () => {
    const error = await failWith(403, SCOPE_BODY, "compute.firewallPolicies.get", { firewallPolicy: "7" });
    assert.equal(error.service, "compute");
    assert.equal(error.endpoint, "compute.firewallPolicies.get");
    assert.equal(error.method, "GET");
    assert.equal(error.url, "https://svc.test/compute/compute/v1/locations/global/firewallPolicies/7");
    assert.equal(error.httpStatus, 403);
    assert.equal(error.rpcStatus, "PERMISSION_DENIED");
    assert.equal(error.reason, "ACCESS_TOKEN_SCOPE_INSUFFICIENT");
    assert.equal(error.domain, "googleapis.com");
    assert.deepEqual(error.errors, SCOPE_BODY.error.errors);
    assert.equal(
      error.message,
      "compute.firewallPolicies.get firewall policy 7: 403 PERMISSION_DENIED ACCESS_TOKEN_SCOPE_INSUFFICIENT: Request had " +
        `insufficient authentication scopes. This endpoint accepts the scopes: ${SCOPES.computeReadonly}, ${SCOPES.compute}, ` +
        `${SCOPES.cloudPlatform}; the token must carry one of them (this client requests ${SCOPES.computeReadonly}).`,
    );
  });

  it("names the missing IAM permission", async () => {
    const body = {
      error: {
        code: 403,
        message: "Permission 'compute.firewallPolicies.move' denied on resource 'firewallPolicies/7'.",
        status: "PERMISSION_DENIED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "IAM_PERMISSION_DENIED",
            domain: "compute.googleapis.com",
            metadata: { permission: "compute.firewallPolicies.move" },
          },
        ],
      },
    };
    const error = await failWith(403, body, "compute.firewallPolicies.move", {
      firewallPolicy: "7",
      parentId: "folders/2",
      requestId: "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f",
    });
    assert.equal(error.hint, "The caller lacks the IAM permission compute.firewallPolicies.move on firewall policy 7");
    assert.deepEqual(error.errorMetadata, { permission: "compute.firewallPolicies.move" });
  });

  it("explains the DV360 ownership rule with the ids involved", async () => {
    const body = { error: { code: 403, message: "The caller does not have permission", status: "PERMISSION_DENIED" } };
    const byPartner = await failWith(403, body, "displayvideo.inventorySourceGroups.delete", {
      inventorySourceGroupId: "5002",
      partnerId: "1001",
    });
    assert.equal(
      byPartner.message,
      "displayvideo.inventorySourceGroups.delete inventory source group 5002 (partner 1001): 403 PERMISSION_DENIED: The " +
        "caller does not have permission. Only the owning partner can delete a partner-owned inventory source group, and a " +
        "parent partner has no access to a group owned by one of its advertisers: check that partner 1001 owns inventory " +
        "source group 5002, or pass the owning advertiser's advertiserId instead.",
    );
    const byAdvertiser = await failWith(403, body, "displayvideo.inventorySourceGroups.delete", {
      inventorySourceGroupId: "5001",
      advertiserId: "2001",
      apiVersion: "v4",
    });
    assert.equal(
      byAdvertiser.hint,
      "An advertiser-owned inventory source group can be deleted only with its own advertiserId, and a partner-owned one " +
        "only with partnerId: check that advertiser 2001 owns inventory source group 5001",
    );
    const creative = await failWith(403, body, "displayvideo.advertisers.creatives.get", {
      advertiserId: "2001",
      creativeId: "9",
    });
    assert.equal(
      creative.hint,
      "Creative 9 must belong to advertiser 2001, and the caller needs access to advertiser 2001",
    );
  });

  it("says which resource a 404 is about, and that a sunset DV360 version holds no data", async () => {
    const body = { error: { code: 404, message: "Not found", status: "NOT_FOUND" } };
    const error = await failWith(404, body, "displayvideo.inventorySourceGroups.get", {
      inventorySourceGroupId: "5001",
      partnerId: "1001",
    });
    assert.equal(
      error.hint,
      "Check that inventory source group 5001 (partner 1001) exists and that the caller can see it (Display & Video 360 v1 " +
        "is sunset and no longer holds data: set opsledger:displayVideoApiVersion=v4)",
    );
  });

  it("lists the field violations of a 400 and keeps the HTML summary of a 502", async () => {
    const bad = await failWith(400, OTHER_DETAILS_BODY, "compute.firewallPolicies.get", { firewallPolicy: "7" });
    assert.equal(bad.hint, "Fix: parentId: Must be folders/<id> or organizations/<id>.");
    const html = await failWith(
      501,
      "<html><title>Not Implemented</title></html>",
      "deploymentmanager.deployments.get",
      {
        project: "p1",
        deployment: "d1",
      },
    );
    assert.equal(html.message, "deploymentmanager.deployments.get deployment d1 in project p1: 501: Not Implemented.");
  });

  it("prints as its one-paragraph message, with Google's request id, while programs keep every property", async () => {
    const body = {
      error: {
        code: 404,
        message: "Resource 'locations/global/workforcePools/p' was not found.",
        status: "NOT_FOUND",
        details: [{ "@type": "type.googleapis.com/google.rpc.RequestInfo", requestId: "a1b2c3", servingData: "x" }],
      },
    };
    const error = await failWith(404, body, "iam.workforcePools.getIamPolicy", {
      resource: "locations/global/workforcePools/p",
    });
    const paragraph =
      "iam.workforcePools.getIamPolicy workforce pool locations/global/workforcePools/p: 404 NOT_FOUND: Resource " +
      "'locations/global/workforcePools/p' was not found. Check that workforce pool locations/global/workforcePools/p " +
      "exists and that the caller can see it. (Request id a1b2c3.)";
    assert.equal(error.message, paragraph);
    // Pulumi's language host prints an unhandled error with util.inspect(err, { colors: true }).
    assert.equal(inspect(error, { colors: true }), `ApiError: ${paragraph}`);
    assert.equal(error.httpStatus, 404);
    assert.deepEqual(error.errorDetails.requestInfo, { requestId: "a1b2c3", servingData: "x" });
  });
});
