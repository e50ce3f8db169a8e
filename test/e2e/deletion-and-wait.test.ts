/**
 * examples/inventory-source-group-deletion and examples/operation-wait with the plain `pulumi` CLI in their
 * directories against the Google sandbox.
 */
import { strict as assert } from "node:assert";
import { DEFAULT_POLL_JITTER, DEFAULT_POLL_RELATIVE_STEP } from "../../provider/operations";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";

const GROUPS = fixture.FIXTURE_INVENTORY_SOURCE_GROUPS;
const PARTNER = fixture.FIXTURE_PARTNERS.primary;
const ADVERTISER = fixture.FIXTURE_ADVERTISERS.a;

function deletes(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "inventorySourceGroups.delete");
}

describe("examples/inventory-source-group-deletion (pulumi CLI, sandbox)", function () {
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

  function deletionStack(group: string, owner: ConfigValues) {
    return initProjectStack({
      projectDir: exampleDir("inventory-source-group-deletion"),
      config: { ...deployerConfig(sandbox), inventorySourceGroupId: { value: group }, ...owner },
    });
  }

  it("deletes the group, warns that v1 is deprecated, re-deletes after drift, and destroys as a no-op", async () => {
    const stack = await deletionStack(GROUPS.spare, { partnerId: { value: PARTNER } });
    try {
      const first = await stack.up();
      assert.equal(first.outputs["outcome"], "deleted");
      assert.equal(first.outputs["owner"], `partners/${PARTNER}`);
      assert.match(first.output, /Display & Video 360 API v1 is deprecated/);
      assert.equal(deletes(sandbox).length, 1);

      sandbox.putInventorySourceGroup({ partnerId: PARTNER, id: GROUPS.spare, displayName: "re-created out of band" });
      const refreshed = await stack.refresh();
      assert.match(refreshed.stdout, /inventory source group 5005 exists again; the next update deletes it again/);
      assert.equal(dynamicResources(await stack.exportState()).length, 0, "refresh drops the deletion from state");
      const again = await stack.up();
      assert.equal(again.outputs["outcome"], "deleted");
      assert.equal(deletes(sandbox).length, 2);

      const destroyed = await stack.destroy();
      assert.match(destroyed.stdout, /nothing to undo; inventory source group 5005 stays deleted/);
      assert.equal(deletes(sandbox).length, 2);
    } finally {
      await stack.dispose();
    }
  });

  it("records a group that is already gone (404) as deleted, without an error", async () => {
    const stack = await deletionStack("5999", { partnerId: { value: PARTNER } });
    try {
      const { outputs, stdout } = await stack.up();
      assert.equal(outputs["outcome"], "alreadyAbsent");
      assert.match(stdout, /inventory source group 5999 was already gone \(404\); recorded as deleted/);
      assert.equal(deletes(sandbox).length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("fails with the ownership rule when a parent partner deletes an advertiser-owned group", async () => {
    const stack = await deletionStack(GROUPS.advertiserOwned, { partnerId: { value: PARTNER } });
    try {
      const failed = await stack.up({ allowFailure: true });
      assert.notEqual(failed.code, 0);
      assert.match(failed.stdout, /403 PERMISSION_DENIED/);
      assert.match(failed.stdout, /a parent partner has no access to a group owned by one of its advertisers/);
      assert.equal(deletes(sandbox).length, 0);
      assert.equal(dynamicResources(await stack.exportState()).length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("rejects both owners in preview, naming the field, before any request", async () => {
    const stack = await deletionStack(GROUPS.spare, {
      partnerId: { value: PARTNER },
      advertiserId: { value: ADVERTISER },
    });
    try {
      const failed = await stack.preview({ allowFailure: true });
      assert.notEqual(failed.code, 0);
      assert.match(
        failed.stdout,
        /property partnerId value \{1001\} has a problem: exactly one of partnerId or advertiserId must be set \(the owner of the group\), got both/,
      );
      assert.deepEqual(sandbox.requests(), []);
    } finally {
      await stack.dispose();
    }
  });
});

describe("examples/operation-wait (pulumi CLI, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  after(async () => {
    await sandbox.close();
  });

  function waitStack(operation: string) {
    return initProjectStack({
      projectDir: exampleDir("operation-wait"),
      config: { ...deployerConfig(sandbox), operation: { value: operation }, timeout: { value: "2m" } },
    });
  }

  it("waits for a running IAM operation to finish and records its result", async () => {
    const name = `folders/${fixture.FIXTURE_FOLDER_IDS.security}/locations/global/operations/op-e2e-running`;
    const stack = await waitStack(name);
    try {
      // Created after the stack, so the operation runs for most of the `pulumi up`: the resource really waits.
      sandbox.createIamOperation({ name, durationMs: 8_000, outcome: "response" });
      const { outputs } = await stack.up();
      assert.equal(outputs["kind"], "longrunning");
      assert.equal(outputs["status"], "DONE");
      assert.equal(outputs["operationName"], name);
      assert.equal(outputs["result"], "type.googleapis.com/google.iam.v3beta.PolicyBinding");
      const polls = sandbox.requests().filter((r) => r.route === "iam.operations.get").length;
      // The schedule's bound: a first poll, one at 1 s, then steps of at least (1 - jitter) * 14% of the time run.
      const step = 1 + DEFAULT_POLL_RELATIVE_STEP * (1 - DEFAULT_POLL_JITTER);
      const most = 2 + Math.ceil(Math.log(8) / Math.log(step));
      assert.ok(polls >= 2 && polls <= most, `polled ${polls} times for an 8 s operation (at most ${most})`);
    } finally {
      await stack.dispose();
    }
  });

  it("waits for a compute operation given by its selfLink on another host, polling the configured endpoint", async () => {
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
    // A selfLink as Google writes it names Google's host; the client polls the endpoint it is configured with.
    const selfLink = op.selfLink.replace(
      /^http:\/\/127\.0\.0\.1:\d+\/compute\/compute\//,
      "https://compute.googleapis.com/compute/",
    );
    assert.match(selfLink, /^https:\/\/compute\.googleapis\.com\/compute\/v1\/locations\/global\/operations\//);
    const stack = await waitStack(selfLink);
    try {
      const before = sandbox.requests().length;
      const { outputs } = await stack.up();
      assert.equal(outputs["kind"], "compute");
      assert.equal(outputs["status"], "DONE");
      assert.equal(outputs["operationName"], op.name);
      assert.equal(outputs["result"], op.targetLink);
      const polls = sandbox
        .requests()
        .slice(before)
        .filter((r) => r.route === "compute.globalOrganizationOperations.get");
      assert.ok(polls.length >= 1, "the sandbox served the polls");
      assert.deepEqual(
        [...new Set(polls.map((r) => r.path))],
        [`/compute/compute/v1/locations/global/operations/${op.name}`],
      );
    } finally {
      await stack.dispose();
    }
  });

  it("fails with the operation's error: its code and message as the user sees them", async () => {
    const stack = await waitStack(fixture.FIXTURE_IAM_OPERATIONS.failed);
    try {
      const failed = await stack.up({ allowFailure: true });
      assert.notEqual(failed.code, 0);
      assert.match(
        failed.stdout,
        /^\s+error: Operation folders\/200000000001\/locations\/global\/operations\/op-binding-failed failed: FAILED_PRECONDITION \(code 9, HTTP 400\): The folder already has the maximum number of policy bindings \(500\)\.$/m,
      );
    } finally {
      await stack.dispose();
    }
  });
});
