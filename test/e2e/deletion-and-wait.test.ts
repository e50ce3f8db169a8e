/**
 * InventorySourceGroupDeletion and OperationWait with the real Pulumi engine against the Google sandbox.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { InventorySourceGroupDeletion } from "../../sdk/displayvideo";
import { OperationWait } from "../../sdk/operations";
import { createThrowawayStack, dynamicResources } from "../helpers/pulumi-harness";
import { deployerConfig } from "../helpers/sandbox-config";

const GROUPS = fixture.FIXTURE_INVENTORY_SOURCE_GROUPS;
const PARTNER = fixture.FIXTURE_PARTNERS.primary;
const ADVERTISER = fixture.FIXTURE_ADVERTISERS.a;

function deletionProgram(
  groupId: string,
  owner: { partnerId?: string; advertiserId?: string },
): () => Promise<Record<string, unknown>> {
  return () => {
    const deletion = new InventorySourceGroupDeletion("group", { inventorySourceGroupId: groupId, ...owner });
    return Promise.resolve({ outcome: deletion.outcome, owner: deletion.owner });
  };
}

function deletes(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "inventorySourceGroups.delete");
}

describe("InventorySourceGroupDeletion (real engine, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  beforeEach(() => {
    sandbox.reset();
  });
  after(async () => {
    await sandbox.close();
  });

  it("deletes the group, warns that v1 is deprecated, re-deletes after drift, and destroys as a no-op", async () => {
    const stack = await createThrowawayStack({
      projectName: "isg",
      program: deletionProgram(GROUPS.spare, { partnerId: PARTNER }),
      config: deployerConfig(sandbox),
    });
    try {
      const first = await stack.up();
      assert.equal(first.outputs["outcome"]?.value, "deleted");
      assert.equal(first.outputs["owner"]?.value, `partners/${PARTNER}`);
      assert.match(first.output, /Display & Video 360 API v1 is deprecated/);
      assert.equal(deletes(sandbox).length, 1);

      sandbox.putInventorySourceGroup({ partnerId: PARTNER, id: GROUPS.spare, displayName: "re-created out of band" });
      const refreshed = await stack.refresh();
      assert.match(refreshed, /exists again/);
      assert.equal(dynamicResources(await stack.exportState()).length, 0, "refresh drops the deletion from state");
      const again = await stack.up();
      assert.equal(again.outputs["outcome"]?.value, "deleted");
      assert.equal(deletes(sandbox).length, 2);

      const destroyed = await stack.destroy();
      assert.match(destroyed, /nothing to undo; inventory source group 5005 stays deleted/);
      assert.equal(deletes(sandbox).length, 2);
    } finally {
      await stack.dispose();
    }
  });

  it("records a group that is already gone (404) as deleted, without an error", async () => {
    const stack = await createThrowawayStack({
      projectName: "isg404",
      program: deletionProgram("5999", { partnerId: PARTNER }),
      config: deployerConfig(sandbox),
    });
    try {
      const { outputs, output } = await stack.up();
      assert.equal(outputs["outcome"]?.value, "alreadyAbsent");
      assert.match(output, /was already gone \(404\); recorded as deleted/);
      assert.equal(deletes(sandbox).length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("fails with the ownership rule when a parent partner deletes an advertiser-owned group", async () => {
    const stack = await createThrowawayStack({
      projectName: "isg403",
      program: deletionProgram(GROUPS.advertiserOwned, { partnerId: PARTNER }),
      config: deployerConfig(sandbox),
    });
    try {
      await assert.rejects(stack.up(), (e: Error) => {
        assert.match(e.message, /403 PERMISSION_DENIED/);
        assert.match(e.message, /a parent partner has no access to a group owned by one of its advertisers/);
        return true;
      });
      assert.equal(deletes(sandbox).length, 0);
      assert.equal(dynamicResources(await stack.exportState()).length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("rejects both owners before any request, naming the field", async () => {
    const stack = await createThrowawayStack({
      projectName: "isgbad",
      program: deletionProgram(GROUPS.spare, { partnerId: PARTNER, advertiserId: ADVERTISER }),
      config: deployerConfig(sandbox),
    });
    try {
      await assert.rejects(
        stack.preview(),
        /property partnerId value \{1001\} has a problem: exactly one of partnerId or advertiserId must be set \(the owner of the group\), got both/,
      );
      assert.deepEqual(sandbox.requests(), []);
    } finally {
      await stack.dispose();
    }
  });
});

describe("OperationWait (real engine, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  after(async () => {
    await sandbox.close();
  });

  function waitProgram(operation: string): () => Promise<Record<string, unknown>> {
    return () => {
      const config = new pulumi.Config();
      const wait = new OperationWait("wait", { operation, timeouts: { create: config.get("timeout") ?? "2m" } });
      return Promise.resolve({
        kind: wait.kind,
        status: wait.status,
        result: wait.result,
        operationName: wait.operationName,
      });
    };
  }

  it("waits for a running IAM operation to finish and records its result", async () => {
    const name = `folders/${fixture.FIXTURE_FOLDER_IDS.security}/locations/global/operations/op-e2e-running`;
    // Long enough to outlast the engine start-up (a few seconds), so the resource really waits.
    sandbox.createIamOperation({ name, durationMs: 12_000, outcome: "response" });
    const stack = await createThrowawayStack({
      projectName: "wait",
      program: waitProgram(name),
      config: deployerConfig(sandbox),
    });
    try {
      const { outputs } = await stack.up();
      assert.equal(outputs["kind"]?.value, "longrunning");
      assert.equal(outputs["status"]?.value, "DONE");
      assert.equal(outputs["operationName"]?.value, name);
      assert.equal(outputs["result"]?.value, "type.googleapis.com/google.iam.v3beta.PolicyBinding");
      const polls = sandbox.requests().filter((r) => r.route === "iam.operations.get").length;
      assert.ok(polls >= 2 && polls <= 6, `polled ${polls} times for a 12 s operation`);
    } finally {
      await stack.dispose();
    }
  });

  it("waits for a compute operation given by its selfLink, polling only the sandbox's host", async () => {
    const token = sandbox.mintToken({
      principal: "deployer@sandbox-project.iam.gserviceaccount.com",
      scopes: ["https://www.googleapis.com/auth/compute"],
    });
    const policy = fixture.FIXTURE_FIREWALL_POLICY_IDS.platformDefault;
    const res = await fetch(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${policy}/move?parentId=folders/${fixture.FIXTURE_FOLDER_IDS.security}&requestId=6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b`,
      { method: "POST", headers: { authorization: `Bearer ${token}` } },
    );
    const op = (await res.json()) as { selfLink: string; name: string; targetLink: string };
    assert.match(op.selfLink, /\/compute\/v1\/locations\/global\/operations\//);
    const stack = await createThrowawayStack({
      projectName: "waitcompute",
      program: waitProgram(op.selfLink),
      config: deployerConfig(sandbox),
    });
    try {
      const { outputs } = await stack.up();
      assert.equal(outputs["kind"]?.value, "compute");
      assert.equal(outputs["status"]?.value, "DONE");
      assert.equal(outputs["operationName"]?.value, op.name);
      assert.equal(outputs["result"]?.value, op.targetLink);
    } finally {
      await stack.dispose();
    }
  });

  it("fails with the operation's error", async () => {
    const stack = await createThrowawayStack({
      projectName: "waitfail",
      program: waitProgram(fixture.FIXTURE_IAM_OPERATIONS.failed),
      config: deployerConfig(sandbox),
    });
    try {
      await assert.rejects(stack.up(), (e: Error) => {
        assert.match(e.message, /op-binding-failed/);
        assert.match(e.message, /failed/i);
        return true;
      });
    } finally {
      await stack.dispose();
    }
  });
});
