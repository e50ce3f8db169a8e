/**
 * examples/inventory-source-group-deletion and examples/operation-wait with the plain `pulumi` CLI in their
 * directories against the Google sandbox.
 */
import { strict as assert } from "node:assert";
import { createManualClock, fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues } from "../helpers/project-stack";
import { EGRESS_LOG_ENV, takeLoggedViolations } from "../helpers/egress-guard";
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
    // The operation's time passes only as the provider polls it: a sandbox of its own on a manual clock (started at
    // the real time, so the operation's startTime reads as recent) that each answered poll moves 3 s on, so the first
    // three polls find it running and the fourth finds it done, however long the machine takes to start `pulumi up`.
    const clock = createManualClock(Date.now());
    const running = await startGoogleSandbox({ clock });
    const name = `folders/${fixture.FIXTURE_FOLDER_IDS.security}/locations/global/operations/op-e2e-running`;
    running.createIamOperation({ name, durationMs: 8_000, outcome: "response" });
    const seen: boolean[] = [];
    running.onRequest((e) => {
      if (e.phase !== "answered" || e.entry.route !== "iam.operations.get") return;
      seen.push((JSON.parse(e.body) as { done?: boolean }).done === true);
      clock.advance(3_000);
    });
    const stack = await initProjectStack({
      projectDir: exampleDir("operation-wait"),
      config: { ...deployerConfig(running), operation: { value: name }, timeout: { value: "2m" } },
    });
    try {
      const { outputs } = await stack.up();
      assert.equal(outputs["kind"], "longrunning");
      assert.equal(outputs["status"], "DONE");
      assert.equal(outputs["operationName"], name);
      assert.equal(outputs["result"], "type.googleapis.com/google.iam.v3beta.PolicyBinding");
      assert.deepEqual(seen, [false, false, false, true], "polled while it ran, and stopped at the first done answer");
    } finally {
      await stack.dispose();
      await running.close();
    }
  });

  it("waits for a compute operation given by its selfLink on Google's host, polling only the sandbox's host", async () => {
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
      // The program and provider processes run under the egress guard, which refuses and reports every connection
      // to a host other than 127.0.0.1: none was tried, so no poll went to compute.googleapis.com.
      assert.deepEqual(
        takeLoggedViolations(process.env[EGRESS_LOG_ENV] ?? "").map((v) => `${v.host}:${v.port}`),
        [],
        "a process of the stack connected to a host other than the sandbox's",
      );
      assert.equal(new URL(sandbox.endpoints.compute).hostname, "127.0.0.1");
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
