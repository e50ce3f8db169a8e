/**
 * examples/yaml through the resource plugin (bin/pulumi-resource-opsledger), with the plain `pulumi` CLI in its
 * directory against the Google sandbox: a read-only preview that reads every data source and mutates nothing, up
 * (a move, a deletion, a wait), a parent change previewed as one `~ parentId` line and applied in place, drift on
 * refresh, secrets kept out of state and output, destroy.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT, changeSummary, diagnostics, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import {
  READER,
  READ_ONLY_SCOPES,
  deployerConfig,
  parentOf,
  plainStrings,
  tokenConfig,
} from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const MOVE = "opsledger:compute:FirewallPolicyMove";
const { policy: POLICY, originalParent: ORIGINAL, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;
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

/** The lines of the printed diff that belong to the move's block (from its header to the next resource). */
function moveBlock(output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.includes(`${MOVE}:`));
  assert.ok(start >= 0, output);
  const end = lines.findIndex(
    (l, i) => i > start && /^\s*(Resources:|Outputs:|[+~-] opsledger|[+~-]? ?pulumi:|opsledger:)/.test(l),
  );
  return lines.slice(start + 1, end < 0 ? undefined : end);
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

  it("moves, deletes and waits on up, with the move's progress on its own row", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const { outputs, events } = await stack.up();
    assert.equal(outputs["parent"], A);
    assert.equal(outputs["previousParent"], ORIGINAL);
    assert.equal(outputs["groupOutcome"], "deleted");
    assert.equal(outputs["operationStatus"], "DONE");
    const { urn, outputs: state } = await moveState(stack);
    assert.equal(state["__generation"], 1);
    const statuses = diagnostics(events).filter((d) => d.ephemeral && d.message.startsWith("moving to "));
    assert.ok(statuses.length >= 2, `status events: ${JSON.stringify(statuses)}`);
    assert.deepEqual([...new Set(statuses.map((d) => d.urn))], [urn]);
    assert.match(statuses.at(-1)?.message ?? "", new RegExp(`^moving to ${A}: operation-\\S+ DONE 100%\\n?$`));
    assert.deepEqual(
      moves(sandbox).map((m) => m.details.requestId),
      [state["__requestId"]],
    );
  });

  it("previews a parent change as one changed line, `parentId: A => B`, with a read-only token", async () => {
    await stack.setConfig({ ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), parentId: { value: B } });
    const posts = mutatingRequests(sandbox).length;
    const preview = await stack.preview({ diff: true });
    assert.equal(changeSummary(preview.events)["update"], 1);
    assert.deepEqual(
      moveBlock(preview.stdout)
        .filter((l) => /^\s*[~+-] /.test(l))
        .map((l) => l.trim().replace(/\s+:/, ":")),
      [`~ parentId: "${A}" => "${B}"`],
    );
    assert.doesNotMatch(preview.stdout, /generation|requestId|__urn/);
    assert.equal(mutatingRequests(sandbox).length, posts);
  });

  it("applies the parent change as an in-place update: one more move, the same resource id", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const before = moves(sandbox).length;
    const { outputs, events } = await stack.up();
    assert.deepEqual(changeSummary(events), { update: 1, same: 3 });
    assert.equal(outputs["parent"], B);
    assert.equal(outputs["previousParent"], ORIGINAL);
    assert.deepEqual(
      moves(sandbox)
        .slice(before)
        .map((m) => m.details.to),
      [B],
    );
    assert.equal((await moveState(stack)).outputs["__generation"], 2);
  });

  it("shows an out-of-band move as drift on refresh, and the next up moves it back", async () => {
    sandbox.setParent(POLICY, C);
    const refreshed = await stack.run(["refresh", "--yes", "--skip-preview", "--diff"]);
    // The plugin answers a detailed diff of the inputs, so the refresh names the input that drifted (the dynamic face,
    // which has none, shows the `parent` output).
    assert.match(refreshed.stdout, new RegExp(`^\\s+~ parentId\\s*: "${B}" => "${C}"$`, "m"));
    assert.equal((await moveState(stack)).outputs["parent"], C);
    const { outputs } = await stack.up();
    assert.equal(outputs["parent"], B);
    assert.equal(moves(sandbox).at(-1)?.details.to, B);
  });

  it("keeps the provider's access token out of state and output", async () => {
    const deployer = deployerConfig(sandbox);
    await stack.setConfig(deployer);
    const { output } = await stack.up();
    const token = deployer["opsledger:accessToken"]?.value ?? "";
    assert.ok(token.length > 10);
    const state = await stack.exportState();
    assert.ok(!plainStrings(state).join("\n").includes(token), "the access token is in state outside a Pulumi secret");
    assert.ok(!output.includes(token), "the access token is in the CLI's output");
  });

  it("leaves the policy where it is on destroy", async () => {
    const count = moves(sandbox).length;
    const { stdout } = await stack.destroy();
    assert.match(stdout, new RegExp(`firewall policy ${POLICY} stays under ${B} \\(restoreOnDelete is false\\)`));
    assert.equal(moves(sandbox).length, count);
    assert.equal(await parentOf(sandbox, POLICY), B);
  });
});
