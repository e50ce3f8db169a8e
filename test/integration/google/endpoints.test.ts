import { strict as assert } from "node:assert";
import { isApiError } from "../../../provider/errors/google/api-error";
import { ENDPOINTS, ENDPOINT_IDS } from "../../../provider/google/endpoints";
import { crc32c } from "../../../provider/google/kms";
import { parseComputeOperationRef } from "../../../provider/google/validation";
import type { ApiError } from "../../../provider/errors/google/api-error";
import type { EndpointId, EndpointParams } from "../../../provider/google/endpoint-types";
import { resetDeprecationWarnings } from "../../../provider/google/deprecations";
import { fixture, FIXTURE_CREATIVE_IDS } from "../../../sandbox/google";
import { DEPLOYER, READER, SCOPE, tokenClient, useSandbox } from "./helpers";

const UUID = "9b1deb4d-3b7d-4bad-9bdd-2b0d7b3dcb6d";
const POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.baselineEgress;
const SECURITY = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;

/** One valid call per endpoint, against the sandbox fixture. */
const VALID: { [E in EndpointId]: EndpointParams<E> } = {
  "iam.workforcePools.getIamPolicy": {
    resource: "locations/global/workforcePools/sandbox-partners",
    options: { requestedPolicyVersion: 3 },
  },
  "iam.operations.get": { name: fixture.FIXTURE_IAM_OPERATIONS.done },
  "compute.firewallPolicies.move": { firewallPolicy: POLICY, parentId: SECURITY, requestId: UUID },
  "compute.firewallPolicies.get": { firewallPolicy: `locations/global/firewallPolicies/${POLICY}` },
  "compute.globalOrganizationOperations.get": { operation: "operation-does-not-exist-1" },
  "deploymentmanager.deployments.get": { project: fixture.FIXTURE_PROJECT, deployment: "web-stack" },
  "workspaceevents.subscriptions.get": { name: "subscriptions/chat-spaces-sandbox" },
  "displayvideo.inventorySourceGroups.delete": {
    inventorySourceGroupId: fixture.FIXTURE_INVENTORY_SOURCE_GROUPS.spare,
    partnerId: fixture.FIXTURE_PARTNERS.primary,
  },
  "displayvideo.inventorySourceGroups.get": {
    inventorySourceGroupId: fixture.FIXTURE_INVENTORY_SOURCE_GROUPS.partnerOwned,
    partnerId: fixture.FIXTURE_PARTNERS.primary,
  },
  "displayvideo.advertisers.creatives.get": {
    advertiserId: fixture.FIXTURE_ADVERTISERS.a,
    creativeId: FIXTURE_CREATIVE_IDS.video,
  },
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign": {
    name: fixture.FIXTURE_KMS_KEY_VERSION,
    digest: { sha256: Buffer.alloc(32, 1).toString("base64") },
    digestCrc32c: String(crc32c(Buffer.alloc(32, 1))),
  },
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey": {
    name: fixture.FIXTURE_KMS_KEY_VERSION,
  },
};

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (isApiError(error)) return error;
    throw error;
  }
  assert.fail("expected an ApiError");
}

describe("Google client against the sandbox: endpoints", () => {
  const sandbox = useSandbox();

  it("reads a workforce pool policy with its conditional binding", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const policy = await client.call("iam.workforcePools.getIamPolicy", VALID["iam.workforcePools.getIamPolicy"]);
    assert.equal(policy.version, 3);
    assert.equal(policy.etag, "BwYYWZ3p8Xk=");
    const bindings = policy.bindings ?? [];
    assert.equal(bindings.length, 2);
    assert.equal(bindings[1]?.condition?.title, "until-2027");
    const request = sandbox().requests()[0];
    assert.equal(request?.route, "iam.workforcePools.getIamPolicy");
    assert.equal(request.method, "POST");
    assert.equal(request.path, "/iam/v1/locations/global/workforcePools/sandbox-partners:getIamPolicy");
  });

  it("reads a finished IAM v3beta operation", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const operation = await client.call("iam.operations.get", VALID["iam.operations.get"]);
    assert.equal(operation.name, fixture.FIXTURE_IAM_OPERATIONS.done);
    assert.equal(operation.done, true);
    assert.equal(operation.metadata?.["@type"], "type.googleapis.com/google.iam.v3beta.OperationMetadata");
    assert.equal(operation.response?.["@type"], "type.googleapis.com/google.iam.v3beta.PolicyBinding");
    assert.equal(sandbox().requests()[0]?.path, `/iam/v3beta/${fixture.FIXTURE_IAM_OPERATIONS.done}`);
  });

  it("moves a firewall policy and polls the operation named by its selfLink", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const operation = await client.call("compute.firewallPolicies.move", VALID["compute.firewallPolicies.move"]);
    assert.equal(operation.kind, "compute#operation");
    assert.equal(operation.operationType, "move");
    assert.equal(operation.clientOperationId, UUID);
    assert.equal(operation.user, DEPLOYER);
    const ref = parseComputeOperationRef(operation.selfLink ?? "");
    assert.equal(ref.operation, operation.name);
    const polled = await client.call("compute.globalOrganizationOperations.get", { ...ref, parentId: SECURITY });
    assert.equal(polled.name, operation.name);
    assert.equal(polled.targetId, POLICY);
    assert.deepEqual(sandbox().requests()[0]?.query, { parentId: SECURITY, requestId: UUID });
  });

  it("reads a firewall policy by its long form, a deployment and a subscription", async () => {
    const { client } = tokenClient(sandbox(), READER);
    const policy = await client.call("compute.firewallPolicies.get", VALID["compute.firewallPolicies.get"]);
    assert.equal(policy.id, POLICY);
    assert.equal(policy.shortName, "baseline-egress");
    assert.equal(policy.parent, `organizations/${fixture.FIXTURE_ORGANIZATION_ID}`);
    const deployment = await client.call(
      "deploymentmanager.deployments.get",
      VALID["deploymentmanager.deployments.get"],
    );
    assert.equal(deployment.name, "web-stack");
    assert.deepEqual(deployment.labels, [
      { key: "env", value: "sandbox" },
      { key: "team", value: "web" },
    ]);
    const subscription = await client.call(
      "workspaceevents.subscriptions.get",
      VALID["workspaceevents.subscriptions.get"],
    );
    assert.equal(subscription.state, "ACTIVE");
    assert.equal(subscription.targetResource, "//chat.googleapis.com/spaces/AAAAsandbox");
  });

  it("deletes an inventory source group (v1 by default, with the deprecation warning) and then gets 404", async () => {
    resetDeprecationWarnings();
    const { client, warnings } = tokenClient(sandbox(), DEPLOYER);
    const group = await client.call(
      "displayvideo.inventorySourceGroups.get",
      VALID["displayvideo.inventorySourceGroups.get"],
    );
    assert.equal(group.displayName, "Premium video supply");
    assert.equal(group.inventorySourceGroupId, fixture.FIXTURE_INVENTORY_SOURCE_GROUPS.partnerOwned);
    assert.deepEqual(
      await client.call(
        "displayvideo.inventorySourceGroups.delete",
        VALID["displayvideo.inventorySourceGroups.delete"],
      ),
      {},
    );
    assert.deepEqual(warnings, [
      "Display & Video 360 API v1 is deprecated (sunset 2023-09-14 per Google); set opsledger:displayVideoApiVersion=v4 (same shapes)",
    ]);
    const gone = await apiError(
      client.call("displayvideo.inventorySourceGroups.get", {
        ...VALID["displayvideo.inventorySourceGroups.delete"],
        apiVersion: "v4",
      }),
    );
    assert.equal(gone.httpStatus, 404);
    assert.equal(gone.rpcStatus, "NOT_FOUND");
    assert.equal(
      gone.hint,
      `Check that inventory source group ${fixture.FIXTURE_INVENTORY_SOURCE_GROUPS.spare} (partner ${fixture.FIXTURE_PARTNERS.primary}) exists and that the caller can see it`,
    );
    assert.deepEqual(
      sandbox()
        .requests()
        .map((r) => `${r.method} ${r.path} ${r.status}`),
      [
        "GET /displayvideo/v1/inventorySourceGroups/5001 200",
        "DELETE /displayvideo/v1/inventorySourceGroups/5005 200",
        "GET /displayvideo/v4/inventorySourceGroups/5005 404",
      ],
    );
  });

  it("reads a creative", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const creative = await client.call(
      "displayvideo.advertisers.creatives.get",
      VALID["displayvideo.advertisers.creatives.get"],
    );
    assert.equal(creative.creativeId, FIXTURE_CREATIVE_IDS.video);
    assert.equal(creative.displayName, "Spring launch 30s");
    assert.equal(creative.entityStatus, "ENTITY_STATUS_ACTIVE");
  });

  it("explains a DV360 ownership refusal with the ids involved", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const error = await apiError(
      client.call("displayvideo.inventorySourceGroups.delete", {
        inventorySourceGroupId: fixture.FIXTURE_INVENTORY_SOURCE_GROUPS.advertiserOwned,
        partnerId: fixture.FIXTURE_PARTNERS.primary,
        apiVersion: "v4",
      }),
    );
    assert.equal(error.httpStatus, 403);
    assert.equal(
      error.hint,
      "Only the owning partner can delete a partner-owned inventory source group, and a parent partner has no access to " +
        "a group owned by one of its advertisers: check that partner 1001 owns inventory source group 5002, or pass the " +
        "owning advertiser's advertiserId instead",
    );
  });

  it("names the missing IAM permission when the reader tries to move", async () => {
    const { client } = tokenClient(sandbox(), READER);
    const error = await apiError(client.call("compute.firewallPolicies.move", VALID["compute.firewallPolicies.move"]));
    assert.equal(error.httpStatus, 403);
    assert.equal(error.reason, "IAM_PERMISSION_DENIED");
    assert.equal(
      error.hint,
      `The caller lacks the IAM permission compute.firewallPolicies.move on firewall policy ${POLICY}`,
    );
    assert.deepEqual(sandbox().audit(), []);
  });

  describe("scope matrix", () => {
    for (const id of ENDPOINT_IDS) {
      it(`gets 403 ACCESS_TOKEN_SCOPE_INSUFFICIENT with the accepted scopes for ${id}`, async () => {
        const wrong = id.startsWith("displayvideo.") ? `${SCOPE}compute` : `${SCOPE}display-video`;
        const { client } = tokenClient(sandbox(), DEPLOYER, [wrong]);
        const error = await apiError(client.call(id, VALID[id]));
        assert.equal(error.httpStatus, 403);
        assert.equal(error.rpcStatus, "PERMISSION_DENIED");
        assert.equal(error.reason, "ACCESS_TOKEN_SCOPE_INSUFFICIENT");
        assert.deepEqual(
          error.errors.map((e) => e.reason),
          ["insufficientPermissions"],
        );
        const definition = ENDPOINTS[id];
        assert.equal(
          error.hint,
          `This endpoint accepts the scopes: ${definition.acceptedScopes.join(", ")}; the token must carry one of them ` +
            `(this client requests ${definition.requestedScopes.join(", ")})`,
        );
        assert.equal(sandbox().requests().length, 1);
        assert.equal(sandbox().requests()[0]?.status, 403);
      });
    }
  });

  it("gets 401 with the credentials hint for a token the sandbox never issued", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    sandbox().reset();
    const error = await apiError(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }));
    assert.equal(error.httpStatus, 401);
    assert.equal(error.rpcStatus, "UNAUTHENTICATED");
    assert.ok(error.hint?.startsWith("Provide valid credentials"), error.hint);
    assert.equal(sandbox().requests().length, 1);
  });
});
