import { strict as assert } from "node:assert";
import { ValidationError } from "../../../provider/errors";
import { createGoogleClient } from "../../../provider/google/client";
import { getEndpoint } from "../../../provider/google/endpoints";
import {
  checkDeploymentManagerProject,
  checkEndpointParams,
  checkFirewallPolicy,
  checkInt64,
  checkParentId,
  checkRequestId,
  parseComputeOperationRef,
} from "../../../provider/google/validation";
import type { CheckResult, EndpointId } from "../../../provider/google/endpoint-types";
import { countingTokens, scriptedAxios, testSettings } from "./helpers";

const UUID = "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f";

function reason(result: CheckResult): string | undefined {
  return "reason" in result ? result.reason : undefined;
}

function messageOf(id: EndpointId, params: unknown): string {
  const { failures } = checkEndpointParams(getEndpoint(id), params);
  return new ValidationError({ subject: id, failures }).message;
}

describe("validation", () => {
  it("normalizes the three firewall policy forms to the numeric id", () => {
    for (const input of ["123", "firewallPolicies/123", "locations/global/firewallPolicies/123"]) {
      assert.deepEqual(checkFirewallPolicy(input), { value: "123" });
    }
    assert.equal(
      reason(checkFirewallPolicy("projects/p/global/firewallPolicies/123")),
      "'projects/p/global/firewallPolicies/123' must be a numeric firewall policy id, 'firewallPolicies/<id>' or 'locations/global/firewallPolicies/<id>'",
    );
    assert.equal(
      reason(checkFirewallPolicy("123456789012345678901")),
      "'123456789012345678901' must be a numeric firewall policy id, 'firewallPolicies/<id>' or 'locations/global/firewallPolicies/<id>'",
    );
  });

  it("rejects a parentId that is not folders/<digits> or organizations/<digits>", () => {
    assert.equal(
      reason(checkParentId("folder/9")),
      "'folder/9' must be 'folders/<digits>' or 'organizations/<digits>'",
    );
    assert.equal(
      reason(checkParentId("folders/abc")),
      "'folders/abc' must be 'folders/<digits>' or 'organizations/<digits>'",
    );
    assert.equal(
      reason(checkParentId(9)),
      "must be a string 'folders/<digits>' or 'organizations/<digits>', got number",
    );
    assert.deepEqual(checkParentId("organizations/100000000001"), { value: "organizations/100000000001" });
  });

  it("accepts a UUID requestId and rejects malformed ones and the zero UUID", () => {
    assert.deepEqual(checkRequestId(UUID), { value: UUID });
    assert.equal(
      reason(checkRequestId("not-a-uuid")),
      "'not-a-uuid' must be a UUID such as '3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f' (crypto.randomUUID())",
    );
    assert.equal(
      reason(checkRequestId("00000000-0000-0000-0000-000000000000")),
      "'00000000-0000-0000-0000-000000000000' is the zero UUID, which Google rejects: use a random UUID",
    );
  });

  it("checks int64 decimal strings: no sign, no leading zeros except 0, at most 9223372036854775807", () => {
    for (const ok of ["0", "1", "5001", "9223372036854775807"]) assert.deepEqual(checkInt64(ok), { value: ok });
    const expected = (v: string): string =>
      `'${v}' must be an int64 decimal string (digits only, no sign or leading zeros, at most 9223372036854775807)`;
    for (const bad of ["-1", "+1", "01", "00", "9223372036854775808", "99999999999999999999", "1.0", " 1", ""]) {
      assert.equal(reason(checkInt64(bad)), expected(bad), bad);
    }
    assert.equal(
      reason(checkInt64(5001)),
      "must be a string: an int64 decimal string (digits only, no sign or leading zeros, at most 9223372036854775807); got number (numbers lose precision above 2^53)",
    );
  });

  it("checks Deployment Manager project patterns", () => {
    for (const ok of ["sandbox-project", "123456789012", "example.com:my-project", "a"]) {
      assert.deepEqual(checkDeploymentManagerProject(ok), { value: ok });
    }
    assert.equal(
      reason(checkDeploymentManagerProject("My_Project")),
      "'My_Project' must be a project id like 'my-project', a project number, or a domain-scoped id like 'example.com:my-project'",
    );
  });

  it("collects every failure of a call, not just the first", () => {
    assert.equal(
      messageOf("compute.firewallPolicies.move", {
        firewallPolicy: "abc",
        parentId: "folder/9",
        requestId: "x",
        extra: 1,
      }),
      "compute.firewallPolicies.move: invalid input: extra: is not a parameter of compute.firewallPolicies.move " +
        "(expected: firewallPolicy, parentId, requestId); firewallPolicy: 'abc' must be a numeric firewall policy id, " +
        "'firewallPolicies/<id>' or 'locations/global/firewallPolicies/<id>'; parentId: 'folder/9' must be " +
        "'folders/<digits>' or 'organizations/<digits>'; requestId: 'x' must be a UUID such as " +
        "'3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f' (crypto.randomUUID())",
    );
  });

  it("names missing required parameters with what a valid value looks like", () => {
    assert.equal(
      messageOf("compute.firewallPolicies.move", {}),
      "compute.firewallPolicies.move: invalid input: firewallPolicy: is required: a numeric firewall policy id, " +
        "e.g. '123456789012'; parentId: is required: 'folders/<digits>' or 'organizations/<digits>'; requestId: is " +
        "required: a UUID, e.g. from crypto.randomUUID()",
    );
  });

  it("requires exactly one of partnerId and advertiserId", () => {
    assert.equal(
      messageOf("displayvideo.inventorySourceGroups.delete", {
        inventorySourceGroupId: "5001",
        partnerId: "1",
        advertiserId: "2",
      }),
      "displayvideo.inventorySourceGroups.delete: invalid input: partnerId: exactly one of partnerId or advertiserId " +
        "must be set (the owner of the group), got both",
    );
    assert.equal(
      messageOf("displayvideo.inventorySourceGroups.get", { inventorySourceGroupId: "5001" }),
      "displayvideo.inventorySourceGroups.get: invalid input: partnerId: exactly one of partnerId or advertiserId " +
        "must be set (the owner of the group), got neither",
    );
  });

  it("checks requestedPolicyVersion and the DV360 apiVersion", () => {
    assert.equal(
      messageOf("iam.workforcePools.getIamPolicy", {
        resource: "locations/global/workforcePools/p",
        options: { requestedPolicyVersion: 2 },
      }),
      "iam.workforcePools.getIamPolicy: invalid input: options.requestedPolicyVersion: 2 must be 0, 1 or 3",
    );
    assert.equal(
      messageOf("displayvideo.advertisers.creatives.get", { advertiserId: "1", creativeId: "2", apiVersion: "v5" }),
      "displayvideo.advertisers.creatives.get: invalid input: apiVersion: 'v5' must be one of v1, v2, v3, v4",
    );
  });

  it("rejects resource names with '.' or '..' segments that a URL parser would resolve", () => {
    assert.equal(
      messageOf("workspaceevents.subscriptions.get", { name: "subscriptions/.." }),
      "workspaceevents.subscriptions.get: invalid input: name: 'subscriptions/..' must be 'subscriptions/<subscription>'",
    );
    assert.equal(
      messageOf("iam.workforcePools.getIamPolicy", { resource: "locations/../workforcePools/p" }),
      "iam.workforcePools.getIamPolicy: invalid input: resource: 'locations/../workforcePools/p' must be " +
        "'locations/<location>/workforcePools/<pool>'",
    );
  });

  it("shortens long values and escapes control characters in messages", () => {
    const long = `subscriptions/${"x".repeat(100)}/y`;
    assert.equal(
      messageOf("workspaceevents.subscriptions.get", { name: long }),
      `workspaceevents.subscriptions.get: invalid input: name: '${long.slice(0, 77)}...' must be 'subscriptions/<subscription>'`,
    );
    assert.equal(
      messageOf("workspaceevents.subscriptions.get", { name: "subscriptions/a\nb" }),
      "workspaceevents.subscriptions.get: invalid input: name: 'subscriptions/a\\u000ab' must be 'subscriptions/<subscription>'",
    );
  });

  it("rejects params that are not an object", () => {
    assert.equal(
      messageOf("compute.firewallPolicies.get", null),
      "compute.firewallPolicies.get: invalid input: params: must be an object with: firewallPolicy; got null",
    );
  });

  it("throws the ValidationError from the client before any token or request", async () => {
    const transport = scriptedAxios([{ status: 200, body: {} }]);
    const tokens = countingTokens();
    const client = createGoogleClient({ settings: testSettings(), axios: transport.axios, tokenSource: tokens });
    await assert.rejects(
      client.call("compute.firewallPolicies.move", { firewallPolicy: "1", parentId: "folder/9", requestId: UUID }),
      (error: unknown) => {
        assert.ok(error instanceof ValidationError);
        assert.equal(
          error.message,
          "compute.firewallPolicies.move: invalid input: parentId: 'folder/9' must be 'folders/<digits>' or 'organizations/<digits>'",
        );
        assert.deepEqual(error.failures, [
          { property: "parentId", reason: "'folder/9' must be 'folders/<digits>' or 'organizations/<digits>'" },
        ]);
        return true;
      },
    );
    assert.equal(transport.requests.length, 0);
    assert.equal(tokens.calls.length, 0);
  });
});

describe("parseComputeOperationRef", () => {
  it("accepts a bare name, a numeric id and a selfLink, extracting only the name", () => {
    assert.deepEqual(parseComputeOperationRef("operation-123-abc"), { operation: "operation-123-abc" });
    assert.deepEqual(parseComputeOperationRef("8123456789"), { operation: "8123456789" });
    assert.deepEqual(
      parseComputeOperationRef("https://compute.googleapis.com/compute/v1/locations/global/operations/operation-1-a"),
      { operation: "operation-1-a" },
    );
    assert.deepEqual(
      parseComputeOperationRef("http://127.0.0.1:4321/compute/compute/v1/locations/global/operations/op-2?parentId=x"),
      { operation: "op-2" },
    );
    assert.deepEqual(parseComputeOperationRef("locations/global/operations/op-3"), { operation: "op-3" });
  });

  it("rejects selfLinks of other operation kinds and malformed names", () => {
    const expected = (v: string): string =>
      `compute.globalOrganizationOperations.get: invalid input: operation: '${v}' must be an operation name or a ` +
      `selfLink ending in '/compute/v1/locations/global/operations/<name>'`;
    for (const bad of [
      "https://compute.googleapis.com/compute/v1/projects/p/global/operations/op-1",
      "https://compute.googleapis.com/compute/v1/projects/p/zones/z/operations/op-1",
      "ftp://compute.googleapis.com/compute/v1/locations/global/operations/op-1",
      "Operation_1",
    ]) {
      assert.throws(() => parseComputeOperationRef(bad), { name: "ValidationError", message: expected(bad) });
    }
    assert.throws(() => parseComputeOperationRef("https://h/compute/v1/locations/global/operations/Bad_Name"), {
      message:
        "compute.globalOrganizationOperations.get: invalid input: operation: 'Bad_Name' must be an operation name " +
        "(a lowercase letter, then up to 62 lowercase letters, digits or hyphens) or a numeric operation id",
    });
  });
});
