/** ApiError's messages: what a user reads for each kind of Google error, and what programs keep. */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { ApiError, isApiError } from "../../../provider/errors/google/api-error";
import { createGoogleClient } from "../../../provider/google/client";
import { SCOPES } from "../../../provider/google/scopes";
import type { EndpointId, EndpointParams } from "../../../provider/google/endpoint-types";
import { OTHER_DETAILS_BODY, SCOPE_BODY } from "./error-bodies";
import { countingTokens, scriptedAxios, testSettings } from "./helpers";

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
