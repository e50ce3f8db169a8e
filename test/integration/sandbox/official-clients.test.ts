import assert from "node:assert/strict";
import { OAuth2Client } from "google-auth-library";
// One module per API version rather than the googleapis index, which pulls in the types of every Google API (951
// declaration files, 189 MB): the TypeScript build and the typed lint parse the program on every run, even an
// incremental one with nothing to do.
import { compute_v1 } from "googleapis/build/src/apis/compute/v1";
import { deploymentmanager_v2beta } from "googleapis/build/src/apis/deploymentmanager/v2beta";
import { displayvideo_v1 } from "googleapis/build/src/apis/displayvideo/v1";
import { displayvideo_v3 } from "googleapis/build/src/apis/displayvideo/v3";
import { iam_v1 } from "googleapis/build/src/apis/iam/v1";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  DEFAULT_SEED,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { DEPLOYER } from "./helpers";

const DURATION_MS = 2000;

/**
 * The generated googleapis clients, pointed at the sandbox with `rootUrl`, authenticated by an OAuth2Client that
 * carries a sandbox-minted token. They cover every endpoint googleapis ships (not IAM v3beta or Workspace Events
 * v1beta, which have no discovery client: discovery-methods.test.ts checks those two against Google's published facts).
 */
describe("Google sandbox with the official googleapis clients", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  let auth: OAuth2Client;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock, moveDurationMs: DURATION_MS });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(DEFAULT_MANUAL_CLOCK_START_MS);
    sandbox.reset();
    auth = new OAuth2Client();
    auth.setCredentials({
      access_token: sandbox.mintToken({ principal: DEPLOYER, scopes: ["cloud-platform", "display-video"] }),
    });
  });

  it("reads a workforce pool policy with iam v1", async () => {
    const iam = new iam_v1.Iam({ rootUrl: sandbox.endpoints.iam + "/", auth });
    const res = await iam.locations.workforcePools.getIamPolicy({
      resource: "locations/global/workforcePools/sandbox-partners",
      requestBody: { options: { requestedPolicyVersion: 3 } },
    });
    assert.equal(res.status, 200);
    assert.equal(res.data.version, 3);
    assert.equal(res.data.etag, "BwYYWZ3p8Xk=");
    assert.deepEqual(
      res.data.bindings?.map((b) => [b.role, b.condition?.title]),
      [
        ["roles/iam.workforcePoolAdmin", undefined],
        ["roles/iam.workforcePoolViewer", "until-2027"],
      ],
    );
    // googleapis-common resolves the method path against the origin of rootUrl, so the /iam prefix is dropped;
    // the sandbox serves every route at its root as well.
    assert.deepEqual(
      [sandbox.requests()[0]?.path, sandbox.requests()[0]?.route],
      ["/v1/locations/global/workforcePools/sandbox-partners:getIamPolicy", "iam.workforcePools.getIamPolicy"],
    );
  });

  it("moves a firewall policy and polls the organization operation with compute v1", async () => {
    const compute = new compute_v1.Compute({ rootUrl: sandbox.endpoints.compute + "/", auth });
    const requestId = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";
    const moved = await compute.firewallPolicies.move({
      firewallPolicy: "700000000003",
      parentId: "organizations/100000000001",
      requestId,
    });
    assert.deepEqual(
      [moved.data.status, moved.data.clientOperationId, moved.data.user],
      ["PENDING", requestId, DEPLOYER],
    );
    const name = moved.data.name ?? "";
    clock.advance(DURATION_MS / 2);
    const running = await compute.globalOrganizationOperations.get({
      operation: name,
      parentId: "organizations/100000000001",
    });
    assert.deepEqual([running.data.status, running.data.progress], ["RUNNING", 75]);
    clock.advance(DURATION_MS / 2);
    const done = await compute.globalOrganizationOperations.get({ operation: name });
    assert.deepEqual(
      [done.data.status, done.data.progress, done.data.endTime],
      ["DONE", 100, "2025-12-31T16:00:02.000-08:00"],
    );
    const policy = await compute.firewallPolicies.get({ firewallPolicy: "700000000003" });
    assert.deepEqual([policy.data.shortName, policy.data.parent], ["security-lockdown", "organizations/100000000001"]);
    assert.deepEqual(
      sandbox.requests().map((r) => [r.route, r.status]),
      [
        ["compute.firewallPolicies.move", 200],
        ["compute.globalOrganizationOperations.get", 200],
        ["compute.globalOrganizationOperations.get", 200],
        ["compute.firewallPolicies.get", 200],
      ],
    );
    assert.equal(sandbox.audit().length, 1);
  });

  it("reads a deployment with deploymentmanager v2beta", async () => {
    const dm = new deploymentmanager_v2beta.Deploymentmanager({
      rootUrl: sandbox.endpoints.deploymentManager + "/",
      auth,
    });
    const res = await dm.deployments.get({ project: "sandbox-project", deployment: "web-stack" });
    assert.deepEqual(
      [res.data.id, res.data.name, res.data.operation?.status],
      ["4811234567890123456", "web-stack", "DONE"],
    );
    assert.deepEqual(res.data.labels, [
      { key: "env", value: "sandbox" },
      { key: "team", value: "web" },
    ]);
  });

  it("reads and deletes inventory source groups with displayvideo v1", async () => {
    const dv = new displayvideo_v1.Displayvideo({ rootUrl: sandbox.endpoints.displayVideo + "/", auth });
    const group = await dv.inventorySourceGroups.get({ inventorySourceGroupId: "5001", partnerId: "1001" });
    assert.deepEqual(group.data, {
      name: "inventorySourceGroups/5001",
      inventorySourceGroupId: "5001",
      displayName: "Premium video supply",
    });
    const deleted = await dv.inventorySourceGroups.delete({ inventorySourceGroupId: "5005", partnerId: "1001" });
    assert.deepEqual([deleted.status, deleted.data], [200, {}]);
    await assert.rejects(
      dv.inventorySourceGroups.delete({ inventorySourceGroupId: "5002", partnerId: "1001" }),
      (e: unknown) => {
        const err = e as { status?: number; message?: string };
        assert.equal(err.status, 403);
        assert.equal(
          err.message,
          "Partner 1001 has no access to inventory source group 5002: it is owned by an advertiser, and a parent partner has no access to advertiser-owned groups.",
        );
        return true;
      },
    );
    assert.deepEqual(
      sandbox.audit().map((a) => a.target),
      ["inventorySourceGroups/5005"],
    );
  });

  it("reads a creative with displayvideo v3", async () => {
    const dv = new displayvideo_v3.Displayvideo({ rootUrl: sandbox.endpoints.displayVideo + "/", auth });
    const res = await dv.advertisers.creatives.get({ advertiserId: "2001", creativeId: "7001" });
    assert.deepEqual(res.data, DEFAULT_SEED.creatives[0]);
  });

  it("surfaces the sandbox's scope error through the generated client", async () => {
    auth.setCredentials({ access_token: sandbox.mintToken({ principal: DEPLOYER, scopes: ["display-video"] }) });
    const compute = new compute_v1.Compute({ rootUrl: sandbox.endpoints.compute + "/", auth });
    await assert.rejects(compute.firewallPolicies.get({ firewallPolicy: "700000000001" }), (e: unknown) => {
      const err = e as { status?: number; message?: string };
      assert.deepEqual([err.status, err.message], [403, "Request had insufficient authentication scopes."]);
      return true;
    });
  });
});
