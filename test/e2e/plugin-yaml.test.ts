/**
 * examples/yaml through the resource plugin (bin/pulumi-resource-opsledger), with the plain `pulumi` CLI in its
 * directory against the Google sandbox: what is particular to this example — a read-only preview that reads every data
 * source and mutates nothing, `pulumi about` finding the plugin through plugins.providers, and an up that moves,
 * deletes and waits. The move's behaviours through the plugin (read-only preview, a parent change as one `~ parentId`
 * line applied in place, progress on its row, drift, faults, kill -9, secrets, destroy) are the bodies of
 * test/e2e/firewall-policy-move*.test.ts, which run once per face (test/helpers/face.ts).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT, changeSummary, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { READER, READ_ONLY_SCOPES, deployerConfig, tokenConfig } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const MOVE = "opsledger:compute:FirewallPolicyMove";
const { originalParent: ORIGINAL, folderA: A } = FIXTURE.firewallPolicyMove;
const READS = [
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
  "deploymentmanager.deployments.get",
  "workspaceevents.subscriptions.get",
  "displayvideo.advertisers.creatives.get",
];
/** Google has sunset DV360 v1-v3: the plugin's provider takes the version from stack config, as the dynamic face does. */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

function moves(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === "api");
}

function mutatingRequests(sandbox: GoogleSandbox) {
  return sandbox.requests().filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
}

async function moveState(stack: ProjectStack): Promise<{ urn: string; outputs: Record<string, unknown> }> {
  const resource = ((await stack.exportState()).resources ?? []).find((r) => r.type === MOVE);
  assert.ok(resource, "the move is in state under its type token");
  return { urn: resource.urn, outputs: resource.outputs ?? {} };
}

describe("examples/yaml through pulumi-resource-opsledger (pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 1500 });
    stack = await initProjectStack({
      projectDir: exampleDir("yaml"),
      config: { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), ...DV360, parentId: { value: A } },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
  });

  it("previews with a read-only token: every data source read through the plugin, no mutating call", async () => {
    const preview = await stack.preview({ diff: true });
    assert.deepEqual(changeSummary(preview.events), { create: 4 });
    assert.deepEqual(preview.steps.map((s) => s.type).sort(), [
      "opsledger:compute:FirewallPolicyMove",
      "opsledger:displayvideo:InventorySourceGroupDeletion",
      "opsledger:operations:OperationWait",
      "pulumi:providers:opsledger",
      "pulumi:pulumi:Stack",
    ]);
    const routes = new Set(sandbox.requests().map((r) => r.route));
    assert.deepEqual(
      READS.filter((r) => !routes.has(r)),
      [],
    );
    assert.deepEqual(mutatingRequests(sandbox), []);
    assert.equal(sandbox.audit().length, 0);
    assert.match(preview.stdout, /creativeName\s*: "Spring launch 30s"/);
  });

  it("is found through Pulumi.yaml's plugins.providers: `pulumi about` lists it at the package's version", async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
      version: string;
    };
    const about = await stack.run(["about"]);
    assert.match(about.stdout, new RegExp(`^resource\\s+opsledger\\s+${version.replace(/\./g, "\\.")}$`, "m"));
  });

  it("moves, deletes and waits on up", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const { outputs } = await stack.up();
    assert.equal(outputs["parent"], A);
    assert.equal(outputs["previousParent"], ORIGINAL);
    assert.equal(outputs["groupOutcome"], "deleted");
    assert.equal(outputs["operationStatus"], "DONE");
    const { outputs: state } = await moveState(stack);
    assert.equal(state["__generation"], 1);
    assert.deepEqual(
      moves(sandbox).map((m) => m.details.requestId),
      [state["__requestId"]],
    );
    assert.deepEqual(
      sandbox
        .audit()
        .map((e) => e.kind)
        .filter((k) => k !== "firewallPolicies.move"),
      ["inventorySourceGroups.delete"],
    );
  });
});
