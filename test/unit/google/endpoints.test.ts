import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createGoogleClient, requestedScopesFor } from "../../../provider/google/client";
import {
  ENDPOINTS,
  ENDPOINT_IDS,
  buildRequest,
  getEndpoint,
  resolveApiVersion,
} from "../../../provider/google/endpoints";
import { SCOPES, WORKSPACE_EVENTS_GET_SCOPES } from "../../../provider/google/scopes";
import { validateEndpointParams } from "../../../provider/google/validation";
import type { EndpointId } from "../../../provider/google/endpoint-types";
import { ROOT, countingTokens, scriptedAxios, testSettings } from "./helpers";

const UUID = "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f";
const KEY_VERSION = "projects/p/locations/global/keyRings/fabric/cryptoKeys/k1/cryptoKeyVersions/1";
const DIGEST = Buffer.alloc(32, 7).toString("base64");

interface UrlCase {
  readonly id: EndpointId;
  readonly params: Readonly<Record<string, unknown>>;
  readonly method: string;
  readonly url: string;
  readonly body: unknown;
  readonly describe: string;
}

const URL_CASES: readonly UrlCase[] = [
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/pool-1", options: { requestedPolicyVersion: 3 } },
    method: "POST",
    url: `${ROOT}/iam/v1/locations/global/workforcePools/pool-1:getIamPolicy`,
    body: { options: { requestedPolicyVersion: 3 } },
    describe: "workforce pool locations/global/workforcePools/pool-1",
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/pool-1" },
    method: "POST",
    url: `${ROOT}/iam/v1/locations/global/workforcePools/pool-1:getIamPolicy`,
    body: {},
    describe: "workforce pool locations/global/workforcePools/pool-1",
  },
  {
    id: "iam.operations.get",
    params: { name: "folders/200000000001/locations/global/operations/op-1" },
    method: "GET",
    url: `${ROOT}/iam/v3beta/folders/200000000001/locations/global/operations/op-1`,
    body: undefined,
    describe: "IAM operation folders/200000000001/locations/global/operations/op-1",
  },
  {
    id: "compute.firewallPolicies.move",
    params: {
      firewallPolicy: "locations/global/firewallPolicies/700000000001",
      parentId: "folders/200000000002",
      requestId: UUID,
    },
    method: "POST",
    url: `${ROOT}/compute/compute/v1/locations/global/firewallPolicies/700000000001/move?parentId=folders%2F200000000002&requestId=${UUID}`,
    body: undefined,
    describe: "firewall policy 700000000001",
  },
  {
    id: "compute.firewallPolicies.get",
    params: { firewallPolicy: "firewallPolicies/700000000001" },
    method: "GET",
    url: `${ROOT}/compute/compute/v1/locations/global/firewallPolicies/700000000001`,
    body: undefined,
    describe: "firewall policy 700000000001",
  },
  {
    id: "compute.globalOrganizationOperations.get",
    params: { operation: "operation-1767225600000-5f2a1b3c", parentId: "organizations/100000000001" },
    method: "GET",
    url: `${ROOT}/compute/compute/v1/locations/global/operations/operation-1767225600000-5f2a1b3c?parentId=organizations%2F100000000001`,
    body: undefined,
    describe: "compute operation operation-1767225600000-5f2a1b3c",
  },
  {
    id: "deploymentmanager.deployments.get",
    params: { project: "example.com:my-project", deployment: "web-stack" },
    method: "GET",
    url: `${ROOT}/dm/deploymentmanager/v2beta/projects/example.com%3Amy-project/global/deployments/web-stack`,
    body: undefined,
    describe: "deployment web-stack in project example.com:my-project",
  },
  {
    id: "workspaceevents.subscriptions.get",
    params: { name: "subscriptions/chat-spaces-sandbox" },
    method: "GET",
    url: `${ROOT}/we/v1beta/subscriptions/chat-spaces-sandbox`,
    body: undefined,
    describe: "subscription subscriptions/chat-spaces-sandbox",
  },
  {
    id: "displayvideo.inventorySourceGroups.delete",
    params: { inventorySourceGroupId: "5001", partnerId: "1001" },
    method: "DELETE",
    url: `${ROOT}/dv/v1/inventorySourceGroups/5001?partnerId=1001`,
    body: undefined,
    describe: "inventory source group 5001 (partner 1001)",
  },
  {
    id: "displayvideo.inventorySourceGroups.get",
    params: { inventorySourceGroupId: "5002", advertiserId: "2001", apiVersion: "v4" },
    method: "GET",
    url: `${ROOT}/dv/v4/inventorySourceGroups/5002?advertiserId=2001`,
    body: undefined,
    describe: "inventory source group 5002 (advertiser 2001)",
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    params: { advertiserId: "2001", creativeId: "9223372036854775807" },
    method: "GET",
    url: `${ROOT}/dv/v3/advertisers/2001/creatives/9223372036854775807`,
    body: undefined,
    describe: "creative 9223372036854775807 of advertiser 2001",
  },
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign",
    params: { name: KEY_VERSION, digest: { sha256: DIGEST }, digestCrc32c: "1234" },
    method: "POST",
    url: `${ROOT}/kms/v1/${KEY_VERSION}:asymmetricSign`,
    body: { digest: { sha256: DIGEST }, digestCrc32c: "1234" },
    describe: `crypto key version ${KEY_VERSION}`,
  },
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey",
    params: { name: KEY_VERSION },
    method: "GET",
    url: `${ROOT}/kms/v1/${KEY_VERSION}/publicKey`,
    body: undefined,
    describe: `crypto key version ${KEY_VERSION}`,
  },
];

function build(id: EndpointId, params: Readonly<Record<string, unknown>>, settingVersion?: "v1" | "v2" | "v3" | "v4") {
  const definition = getEndpoint(id);
  const settings = testSettings();
  const validated = validateEndpointParams(definition, params);
  const version = resolveApiVersion(definition, validated, settingVersion);
  const values = version === undefined ? validated : { ...validated, apiVersion: version };
  return { definition, values, request: buildRequest(definition, values, settings.endpoints[definition.service]) };
}

describe("endpoint table", () => {
  it("holds exactly the ten endpoints of the brief and the two Cloud KMS ones of ledger signing", () => {
    assert.deepEqual(ENDPOINT_IDS, [
      "iam.workforcePools.getIamPolicy",
      "iam.operations.get",
      "compute.firewallPolicies.move",
      "compute.firewallPolicies.get",
      "compute.globalOrganizationOperations.get",
      "deploymentmanager.deployments.get",
      "workspaceevents.subscriptions.get",
      "displayvideo.inventorySourceGroups.delete",
      "displayvideo.inventorySourceGroups.get",
      "displayvideo.advertisers.creatives.get",
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign",
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey",
    ]);
  });

  for (const c of URL_CASES) {
    it(`builds ${c.method} ${c.url.slice(ROOT.length)} for ${c.id}`, () => {
      const { definition, values, request } = build(c.id, c.params);
      assert.equal(request.method, c.method);
      assert.equal(request.url, c.url);
      assert.deepEqual(request.body, c.body);
      assert.equal(definition.describe(values), c.describe);
    });
  }

  it("keeps the slashes of a {+name} resource name and percent-encodes each segment", () => {
    const definition = getEndpoint("workspaceevents.subscriptions.get");
    const request = buildRequest(definition, { name: "subscriptions/a b?c" }, "https://x.test");
    assert.equal(request.url, "https://x.test/v1beta/subscriptions/a%20b%3Fc");
  });

  it("percent-encodes a simple {name} variable as one segment", () => {
    const definition = getEndpoint("compute.firewallPolicies.get");
    const request = buildRequest(definition, { firewallPolicy: "a/b" }, "https://x.test");
    assert.equal(request.url, "https://x.test/compute/v1/locations/global/firewallPolicies/a%2Fb");
  });

  it("lets the displayVideoApiVersion setting replace the default version but not a per-call apiVersion", () => {
    assert.equal(
      build("displayvideo.inventorySourceGroups.delete", { inventorySourceGroupId: "5001", partnerId: "1001" }, "v4")
        .request.url,
      `${ROOT}/dv/v4/inventorySourceGroups/5001?partnerId=1001`,
    );
    assert.equal(
      build("displayvideo.advertisers.creatives.get", { advertiserId: "1", creativeId: "2", apiVersion: "v2" }, "v4")
        .request.url,
      `${ROOT}/dv/v2/advertisers/1/creatives/2`,
    );
  });

  it("declares the accepted and requested scopes of every endpoint as full URIs", () => {
    const table = Object.fromEntries(
      ENDPOINT_IDS.map((id) => [
        id,
        { accepted: ENDPOINTS[id].acceptedScopes, requested: ENDPOINTS[id].requestedScopes },
      ]),
    );
    const iam = { accepted: [SCOPES.cloudPlatform, SCOPES.iam], requested: [SCOPES.cloudPlatform] };
    const computeRead = {
      accepted: [SCOPES.computeReadonly, SCOPES.compute, SCOPES.cloudPlatform],
      requested: [SCOPES.computeReadonly],
    };
    const dv = { accepted: [SCOPES.displayVideo], requested: [SCOPES.displayVideo] };
    const kms = { accepted: [SCOPES.cloudkms, SCOPES.cloudPlatform], requested: [SCOPES.cloudkms] };
    assert.deepEqual(table, {
      "iam.workforcePools.getIamPolicy": iam,
      "iam.operations.get": iam,
      "compute.firewallPolicies.move": {
        accepted: [SCOPES.compute, SCOPES.cloudPlatform],
        requested: [SCOPES.compute],
      },
      "compute.firewallPolicies.get": computeRead,
      "compute.globalOrganizationOperations.get": computeRead,
      "deploymentmanager.deployments.get": {
        accepted: [
          SCOPES.cloudPlatformReadOnly,
          SCOPES.ndevCloudmanReadonly,
          SCOPES.cloudPlatform,
          SCOPES.ndevCloudman,
        ],
        requested: [SCOPES.ndevCloudmanReadonly],
      },
      "workspaceevents.subscriptions.get": {
        accepted: WORKSPACE_EVENTS_GET_SCOPES,
        requested: [SCOPES.chatSpacesReadonly],
      },
      "displayvideo.inventorySourceGroups.delete": dv,
      "displayvideo.inventorySourceGroups.get": dv,
      "displayvideo.advertisers.creatives.get": dv,
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign": kms,
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey": kms,
    });
    for (const id of ENDPOINT_IDS) {
      for (const scope of [...ENDPOINTS[id].acceptedScopes, ...ENDPOINTS[id].requestedScopes]) {
        assert.match(scope, /^https:\/\/www\.googleapis\.com\/auth\/[a-z.-]+$/, `${id}: ${scope}`);
      }
      for (const scope of ENDPOINTS[id].requestedScopes) assert.ok(ENDPOINTS[id].acceptedScopes.includes(scope), id);
    }
  });

  it("requests the workspaceEventsScopes setting for Workspace Events and the table's scopes elsewhere", () => {
    const settings = testSettings({ workspaceEventsScopes: "meetings.space.readonly" });
    assert.deepEqual(requestedScopesFor(getEndpoint("workspaceevents.subscriptions.get"), settings), [
      SCOPES.meetingsSpaceReadonly,
    ]);
    assert.deepEqual(requestedScopesFor(getEndpoint("compute.firewallPolicies.get"), settings), [
      SCOPES.computeReadonly,
    ]);
  });

  it("marks GET, DELETE and the read-only getIamPolicy idempotent, the move idempotent by requestId", () => {
    const flags = Object.fromEntries(ENDPOINT_IDS.map((id) => [id, ENDPOINTS[id].idempotency]));
    assert.deepEqual(flags, {
      "iam.workforcePools.getIamPolicy": "idempotent",
      "iam.operations.get": "idempotent",
      "compute.firewallPolicies.move": "requestId",
      "compute.firewallPolicies.get": "idempotent",
      "compute.globalOrganizationOperations.get": "idempotent",
      "deploymentmanager.deployments.get": "idempotent",
      "workspaceevents.subscriptions.get": "idempotent",
      "displayvideo.inventorySourceGroups.delete": "idempotent",
      "displayvideo.inventorySourceGroups.get": "idempotent",
      "displayvideo.advertisers.creatives.get": "idempotent",
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign": "idempotent",
      "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey": "idempotent",
    });
    assert.equal(ENDPOINTS["compute.firewallPolicies.move"].extraPermission, "compute.firewallPolicies.move");
    assert.equal(
      ENDPOINTS["cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign"].extraPermission,
      "cloudkms.cryptoKeyVersions.useToSign",
    );
  });

  it("sends each call through the client to the URL the table builds, with the requested scope", async () => {
    const transport = scriptedAxios([{ status: 200, body: {} }]);
    const tokens = countingTokens();
    const client = createGoogleClient({
      settings: testSettings({ displayVideoApiVersion: "v4" }),
      axios: transport.axios,
      tokenSource: tokens,
    });
    for (const c of URL_CASES) {
      await client.call(c.id, c.params as never);
    }
    const expected = URL_CASES.map((c) => c.url.replace("/dv/v1/", "/dv/v4/").replace("/dv/v3/", "/dv/v4/"));
    assert.deepEqual(
      transport.requests.map((r) => r.url),
      expected,
    );
    assert.deepEqual(
      transport.requests.map((r) => r.method),
      URL_CASES.map((c) => c.method),
    );
    assert.deepEqual(
      tokens.calls.map((c) => c.scopes),
      URL_CASES.map((c) => [...ENDPOINTS[c.id].requestedScopes]),
    );
    const post = transport.requests[0]!;
    assert.equal(post.data, JSON.stringify({ options: { requestedPolicyVersion: 3 } }));
    assert.equal(post.headers["Content-Type"], "application/json");
    assert.equal(transport.requests[2]!.data, undefined);
    const pkg = JSON.parse(readFileSync(join(__dirname, "../../../../package.json"), "utf8")) as { version: string };
    assert.equal(post.headers["User-Agent"], `pulumi-opsledger/${pkg.version}`);
    assert.equal(post.headers["Authorization"], "Bearer token-number-1");
  });

  it("sends the billing project as x-goog-user-project", async () => {
    const transport = scriptedAxios([{ status: 200, body: { name: "x" } }]);
    const client = createGoogleClient({
      settings: testSettings({ billingProject: "billing-proj" }),
      axios: transport.axios,
      tokenSource: countingTokens(),
    });
    const result = await client.call("compute.firewallPolicies.get", { firewallPolicy: "1" });
    assert.deepEqual(result, { name: "x" });
    assert.equal(transport.requests[0]!.headers["x-goog-user-project"], "billing-proj");
  });
});
