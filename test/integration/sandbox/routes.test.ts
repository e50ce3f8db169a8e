import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  DEFAULT_SEED,
  fixture,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { call, DEPLOYER, moveUrl, READER, str, token } from "./helpers";

describe("Google sandbox routes", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  let cloud: string;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock, moveDurationMs: 3000 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(DEFAULT_MANUAL_CLOCK_START_MS);
    sandbox.reset();
    cloud = token(sandbox, DEPLOYER, "cloud-platform");
  });

  it("returns a workforce pool policy without conditions as version 1", async () => {
    const res = await call(
      `${sandbox.endpoints.iam}/v1/locations/global/workforcePools/sandbox-contractors:getIamPolicy`,
      {
        method: "POST",
        token: cloud,
        body: "{}",
      },
    );
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      version: 1,
      bindings: [
        { role: "roles/iam.workforcePoolAdmin", members: ["user:alice@sandbox.example.com"] },
        {
          role: "roles/iam.workforcePoolViewer",
          members: [`serviceAccount:${READER}`, "group:auditors@sandbox.example.com"],
        },
      ],
      etag: "BwYYWYVgLmo=",
    });
  });

  it("returns conditional bindings only when version 3 is requested", async () => {
    const url = `${sandbox.endpoints.iam}/v1/locations/global/workforcePools/sandbox-partners:getIamPolicy`;
    const v3 = await call(url, { method: "POST", token: cloud, body: '{"options":{"requestedPolicyVersion":3}}' });
    assert.equal(v3.status, 200);
    assert.equal(v3.body.version, 3);
    assert.deepEqual(v3.body.bindings?.[1], {
      role: "roles/iam.workforcePoolViewer",
      members: ["principalSet://iam.googleapis.com/locations/global/workforcePools/sandbox-partners/*"],
      condition: {
        title: "until-2027",
        description: "Partner access expires at the start of 2027",
        expression: 'request.time < timestamp("2027-01-01T00:00:00Z")',
      },
    });
    assert.deepEqual(v3.body.auditConfigs, [
      { service: "allServices", auditLogConfigs: [{ logType: "ADMIN_READ" }, { logType: "DATA_WRITE" }] },
    ]);
    const v1 = await call(url, { method: "POST", token: cloud });
    assert.equal(v1.body.version, 1);
    assert.deepEqual(v1.body.bindings?.[1], {
      role: "roles/iam.workforcePoolViewer_withcond_b3973e64af9d651d5827",
      members: ["principalSet://iam.googleapis.com/locations/global/workforcePools/sandbox-partners/*"],
    });
  });

  it("returns only the etag for a policy without bindings", async () => {
    const res = await call(`${sandbox.endpoints.iam}/v1/locations/global/workforcePools/sandbox-empty:getIamPolicy`, {
      method: "POST",
      token: cloud,
      body: '{"options":{"requestedPolicyVersion":1}}',
    });
    assert.deepEqual([res.status, res.body], [200, { etag: "ACAB" }]);
  });

  it("returns IAM v3beta folder operations: done with a PolicyBinding, failed, and running", async () => {
    const base = `${sandbox.endpoints.iam}/v3beta`;
    const done = await call(`${base}/${fixture.FIXTURE_IAM_OPERATIONS.done}`, { token: cloud });
    assert.equal(done.status, 200);
    assert.deepEqual(done.body, {
      name: "folders/200000000001/locations/global/operations/op-binding-created",
      metadata: {
        "@type": "type.googleapis.com/google.iam.v3beta.OperationMetadata",
        // google.protobuf.Timestamp in ProtoJSON: UTC, no fraction when it is zero.
        createTime: "2025-12-31T23:59:00Z",
        endTime: "2025-12-31T23:59:05Z",
        target: "folders/200000000001/locations/global/policyBindings/deny-external-sharing",
        verb: "create",
        apiVersion: "v3beta",
      },
      done: true,
      response: {
        "@type": "type.googleapis.com/google.iam.v3beta.PolicyBinding",
        name: "folders/200000000001/locations/global/policyBindings/deny-external-sharing",
        uid: "b1f0c2d4-5e6f-4a7b-8c9d-000000000021",
        etag: 'W/"a1b2c3"',
        displayName: "Binding deny-external-sharing",
        target: { resource: "//cloudresourcemanager.googleapis.com/folders/200000000001" },
        policyKind: "ACCESS",
        policy: "folders/200000000001/locations/global/accessPolicies/deny-external-sharing",
        policyUid: "5c0ffee0-0000-4000-8000-000000000001",
        createTime: "2026-01-01T00:00:05Z",
        updateTime: "2026-01-01T00:00:05Z",
      },
    });
    const failed = await call(`${base}/${fixture.FIXTURE_IAM_OPERATIONS.failed}`, { token: cloud });
    assert.equal(failed.body.done, true);
    assert.deepEqual(failed.body.error, {
      code: 9,
      message: "The folder already has the maximum number of policy bindings (500).",
    });
    assert.equal("response" in failed.body, false);
    const running = await call(`${base}/${fixture.FIXTURE_IAM_OPERATIONS.running}`, { token: cloud });
    assert.deepEqual(Object.keys(running.body), ["name", "metadata"]);
    assert.equal(running.body.metadata?.createTime, "2026-01-01T00:00:00Z");
    clock.advance(fixture.FIXTURE_RUNNING_IAM_OPERATION_DURATION_MS - 1);
    const stillRunning = await call(`${base}/${fixture.FIXTURE_IAM_OPERATIONS.running}`, { token: cloud });
    assert.equal(stillRunning.body.done, undefined);
    clock.advance(1);
    const finished = await call(`${base}/${fixture.FIXTURE_IAM_OPERATIONS.running}`, { token: cloud });
    assert.equal(finished.body.done, true);
    assert.equal(finished.body.metadata?.endTime, "2026-01-01T00:00:30Z");
    assert.equal(finished.body.response?.["@type"], "type.googleapis.com/google.iam.v3beta.PolicyBinding");
  });

  it("starts a firewall policy move as a PENDING compute operation", async () => {
    const requestId = "6f1c2b1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f";
    const res = await call(moveUrl(sandbox, "700000000002", `parentId=folders/200000000002&requestId=${requestId}`), {
      method: "POST",
      token: cloud,
    });
    assert.equal(res.status, 200);
    const op = res.body;
    assert.match(str(op.name), /^operation-1767225600000-[0-9a-f]{13}-[0-9a-f]{8}-[0-9a-f]{8}$/);
    assert.match(str(op.id), /^[1-9][0-9]{18}$/);
    const compute = `${sandbox.endpoints.compute}/compute/v1/locations/global`;
    assert.deepEqual(op, {
      kind: "compute#operation",
      id: op.id,
      name: op.name,
      operationType: "move",
      targetLink: `${compute}/firewallPolicies/700000000002`,
      targetId: "700000000002",
      status: "PENDING",
      user: DEPLOYER,
      progress: 0,
      // Compute writes Pacific time with its offset and milliseconds.
      insertTime: "2025-12-31T16:00:00.000-08:00",
      selfLink: `${compute}/operations/${str(op.name)}`,
      clientOperationId: requestId,
    });
    const byName = await call(`${compute}/operations/${str(op.name)}?parentId=organizations/100000000001`, {
      token: cloud,
    });
    assert.deepEqual([byName.status, byName.body], [200, op]);
    const byId = await call(`${compute}/operations/${str(op.id)}`, { token: cloud });
    assert.deepEqual([byId.status, byId.body], [200, op]);
  });

  it("returns an organization firewall policy with its parent", async () => {
    const res = await call(`${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`, {
      token: token(sandbox, READER, "compute.readonly"),
    });
    assert.equal(res.status, 200);
    assert.match(str(res.body.fingerprint), /^[A-Za-z0-9+/]{11}=$/);
    const selfLink = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`;
    const rule = (priority: number, direction: string, key: string, range: string) => ({
      kind: "compute#firewallPolicyRule",
      description: `default ${direction.toLowerCase()} rule`,
      priority,
      match: { layer4Configs: [{ ipProtocol: "all" }], [key]: [range] },
      action: "goto_next",
      direction,
      ruleTupleCount: 2,
    });
    assert.deepEqual(res.body, {
      kind: "compute#firewallPolicy",
      id: "700000000001",
      creationTimestamp: "2025-06-01T09:00:00.000-07:00",
      name: "700000000001",
      shortName: "baseline-egress",
      description: "Organization-wide egress baseline",
      rules: [
        rule(2147483644, "INGRESS", "srcIpRanges", "::/0"),
        rule(2147483645, "EGRESS", "destIpRanges", "::/0"),
        rule(2147483646, "INGRESS", "srcIpRanges", "0.0.0.0/0"),
        rule(2147483647, "EGRESS", "destIpRanges", "0.0.0.0/0"),
      ],
      fingerprint: res.body.fingerprint,
      selfLink,
      selfLinkWithId: selfLink,
      ruleTupleCount: 8,
      parent: "organizations/100000000001",
    });
  });

  it("returns a Deployment Manager deployment with labels as key/value entries", async () => {
    const base = `${sandbox.endpoints.deploymentManager}/deploymentmanager/v2beta/projects/sandbox-project/global`;
    const res = await call(`${base}/deployments/web-stack`, {
      token: token(sandbox, READER, "ndev.cloudman.readonly"),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      id: "4811234567890123456",
      name: "web-stack",
      description: "Frontend and load balancer",
      operation: {
        kind: "deploymentmanager#operation",
        id: "7712345678901234567",
        name: "operation-1767225600000-5f2a1b3c4d5e6-7a8b9c0d-1e2f3a4b",
        operationType: "insert",
        targetLink: `${base}/deployments/web-stack`,
        targetId: "4811234567890123456",
        status: "DONE",
        user: DEPLOYER,
        progress: 100,
        insertTime: "2025-12-31T16:00:00.000-08:00",
        startTime: "2025-12-31T16:00:01.000-08:00",
        endTime: "2025-12-31T16:05:00.000-08:00",
        selfLink: `${base}/operations/operation-1767225600000-5f2a1b3c4d5e6-7a8b9c0d-1e2f3a4b`,
      },
      fingerprint: "Xc2x7ZqPmkk=",
      manifest: `${base}/deployments/web-stack/manifests/manifest-1767225600000`,
      insertTime: "2025-12-31T16:00:00.000-08:00",
      updateTime: "2025-12-31T16:05:00.000-08:00",
      selfLink: `${base}/deployments/web-stack`,
      labels: [
        { key: "env", value: "sandbox" },
        { key: "team", value: "web" },
      ],
    });
    const bare = await call(`${base}/deployments/data-pipeline`, { token: cloud });
    assert.deepEqual(
      Object.keys(bare.body),
      ["id", "name", "operation", "fingerprint", "insertTime", "selfLink"],
      "defaults (no labels, description, manifest) are left out",
    );
  });

  it("returns a v1beta Workspace Events subscription", async () => {
    const res = await call(`${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/meet-sandbox-suspended`, {
      token: token(sandbox, "user@sandbox.example.com", "meetings.space.readonly"),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(res.body, {
      name: "subscriptions/meet-sandbox-suspended",
      uid: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      targetResource: "//meet.googleapis.com/spaces/sandbox-meet",
      eventTypes: ["google.workspace.meet.conference.v2.started"],
      notificationEndpoint: { pubsubTopic: "projects/sandbox-project/topics/meet-events" },
      state: "SUSPENDED",
      suspensionReason: "USER_AUTHORIZATION_FAILURE",
      authority: "users/112233445566778899002",
      createTime: "2025-12-30T10:00:00Z",
      updateTime: "2025-12-31T10:00:00Z",
      expireTime: "2026-01-06T10:00:00Z",
      etag: '"sandbox-etag-2"',
    });
  });

  it("gets and deletes inventory source groups in every API version", async () => {
    const dv = token(sandbox, DEPLOYER, "display-video");
    for (const version of ["v1", "v2", "v3", "v4"]) {
      const res = await call(`${sandbox.endpoints.displayVideo}/${version}/inventorySourceGroups/5001?partnerId=1001`, {
        token: dv,
      });
      assert.deepEqual(
        [res.status, res.body],
        [
          200,
          { name: "inventorySourceGroups/5001", inventorySourceGroupId: "5001", displayName: "Premium video supply" },
        ],
      );
    }
    const url = `${sandbox.endpoints.displayVideo}/v1/inventorySourceGroups/5005?partnerId=1001`;
    const deleted = await call(url, { method: "DELETE", token: dv });
    assert.deepEqual([deleted.status, deleted.body], [200, {}]);
    const gone = await call(url, { token: dv });
    assert.equal(gone.status, 404);
    assert.equal(gone.body.error?.message, "Resource 'inventorySourceGroups/5005' was not found.");
    assert.deepEqual(sandbox.audit(), [
      {
        seq: 1,
        timeMs: DEFAULT_MANUAL_CLOCK_START_MS,
        source: "api",
        kind: "inventorySourceGroups.delete",
        target: "inventorySourceGroups/5005",
        details: { principal: DEPLOYER },
      },
    ]);
  });

  it("returns a full creative in every API version", async () => {
    const dv = token(sandbox, DEPLOYER, "display-video");
    const expected = DEFAULT_SEED.creatives[0];
    for (const version of ["v1", "v2", "v3", "v4"]) {
      const res = await call(`${sandbox.endpoints.displayVideo}/${version}/advertisers/2001/creatives/7001`, {
        token: dv,
      });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, expected);
    }
    const res = await call(`${sandbox.endpoints.displayVideo}/v3/advertisers/2001/creatives/7001`, { token: dv });
    assert.equal(Object.keys(res.body).length, 48, "all 48 Creative fields of the v3 discovery document");
    assert.equal(res.body.name, "advertisers/2001/creatives/7001");
    assert.deepEqual(res.body.dimensions, { widthPixels: 1920, heightPixels: 1080 });
  });
});
