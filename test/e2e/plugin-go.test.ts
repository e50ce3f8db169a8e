/**
 * examples/go, a Go program using the Go SDK generated from the plugin's schema (sdk/go), through the resource plugin
 * (bin/pulumi-resource-opsledger), with the plain `pulumi` CLI in its directory against the Google sandbox: a read-only
 * preview that reads every data source and mutates nothing, up (a move, a deletion, a wait), a parent change previewed
 * as one `~ parentId` line and applied in place, drift on refresh, secrets kept out of state and output, destroy. One
 * stack; Go comes from scripts/ensure-go.sh, and `before` builds the program once so Go's build cache is warm before
 * the CLI's Go language host builds it on every command.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { goBinDir, goBuild } from "../helpers/go-toolchain";
import {
  apiMoves,
  moveChanges,
  moveState,
  movesDeletesAndWaits,
  mutatingRequests,
  previewsReadOnly,
} from "../helpers/plugin-example";
import { changeSummary, diagnostics, exampleDir, initProjectStack, pulumiBinDir } from "../helpers/project-stack";
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

const { policy: POLICY, originalParent: ORIGINAL, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;
/** Google has sunset DV360 v1-v3: the deletion takes the version from stack config (main.go's getCreative says v4). */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

describe("examples/go through pulumi-resource-opsledger (Go SDK, pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;
  let moveUrn = "";
  /** The deployer's settings the stack holds from the parent change on (its access token is looked for in state). */
  let deployer: ReturnType<typeof deployerConfig>;

  before(async function () {
    // With empty Go caches this downloads and compiles the Pulumi Go SDK and its dependencies: about 160 s of CPU here.
    this.timeout(1_200_000);
    const PATH = [pulumiBinDir(), path.dirname(process.execPath), goBinDir(), process.env["PATH"] ?? ""].join(":");
    await goBuild(exampleDir("go"), { ...process.env, PATH });
    sandbox = await startGoogleSandbox({ moveDurationMs: 1500 });
    stack = await initProjectStack({
      projectDir: exampleDir("go"),
      env: { PATH },
      config: { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), ...DV360, parentId: { value: A } },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
  });

  it("previews with a read-only token: every data source read through the plugin, no mutating call", async () => {
    const preview = await previewsReadOnly(stack, sandbox);
    // Each data source's value, exported by main.go from the SDK's result structs.
    assert.match(preview.stdout, /creativeName\s*: "Spring launch 30s"/);
    assert.match(preview.stdout, /deploymentOperationStatus\s*: "DONE"/);
    assert.match(preview.stdout, /iamOperationDone\s*: true/);
    assert.match(preview.stdout, /subscriptionState\s*: "ACTIVE"/);
    assert.match(preview.stdout, /workforcePoolEtag\s*: "[A-Za-z0-9+/=]+"/);
  });

  it("moves, deletes and waits on up, with the move's progress on its own row", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const { up, urn } = await movesDeletesAndWaits(stack, sandbox);
    const { outputs, events } = up;
    assert.equal(outputs["creativeName"], "Spring launch 30s");
    moveUrn = urn;
    const statuses = diagnostics(events).filter((d) => d.ephemeral && d.message.startsWith("moving to "));
    assert.ok(statuses.length >= 2, `status events: ${JSON.stringify(statuses)}`);
    assert.deepEqual([...new Set(statuses.map((d) => d.urn))], [urn]);
    assert.match(statuses.at(-1)?.message ?? "", new RegExp(`^moving to ${A}: operation-\\S+ DONE 100%\\n?$`));
  });

  it("previews a parent change as one changed line, `parentId: A => B`, with a read-only token", async () => {
    await stack.setConfig({ ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), parentId: { value: B } });
    const posts = mutatingRequests(sandbox).length;
    const preview = await stack.preview({ diff: true });
    assert.equal(changeSummary(preview.events)["update"], 1);
    assert.deepEqual(moveChanges(preview.stdout), [`~ parentId: "${A}" => "${B}"`]);
    assert.doesNotMatch(preview.stdout, /generation|requestId|__urn/);
    assert.equal(mutatingRequests(sandbox).length, posts);
  });

  it("applies the parent change in place: one more move, the same URN", async () => {
    deployer = deployerConfig(sandbox);
    await stack.setConfig(deployer);
    const before = apiMoves(sandbox).length;
    const { outputs, events } = await stack.up();
    assert.deepEqual(changeSummary(events), { update: 1, same: 3 });
    assert.equal(outputs["parent"], B);
    assert.equal(outputs["previousParent"], ORIGINAL);
    assert.deepEqual(
      apiMoves(sandbox)
        .slice(before)
        .map((m) => m.details.to),
      [B],
    );
    const { urn, outputs: state } = await moveState(stack);
    assert.equal(urn, moveUrn);
    assert.equal(state["__generation"], 2);
  });

  it("shows an out-of-band move as drift on refresh; the next up moves it back, the token nowhere in state or output", async () => {
    sandbox.setParent(POLICY, C);
    const refreshed = await stack.run(["refresh", "--yes", "--skip-preview", "--diff"]);
    assert.match(refreshed.stdout, new RegExp(`^\\s+~ parentId\\s*: "${B}" => "${C}"$`, "m"));
    assert.equal((await moveState(stack)).outputs["parent"], C);
    const { outputs, output } = await stack.up();
    assert.equal(outputs["parent"], B);
    assert.equal(apiMoves(sandbox).at(-1)?.details.to, B);
    const token = deployer["opsledger:accessToken"]?.value ?? "";
    assert.ok(token.length > 10);
    const state = await stack.exportState();
    assert.ok(!plainStrings(state).join("\n").includes(token), "the access token is in state outside a Pulumi secret");
    assert.ok(!`${refreshed.output}${output}`.includes(token), "the access token is in the CLI's output");
  });

  it("leaves the policy where it is on destroy", async () => {
    const count = apiMoves(sandbox).length;
    const { stdout } = await stack.destroy();
    assert.match(stdout, new RegExp(`firewall policy ${POLICY} stays under ${B} \\(restoreOnDelete is false\\)`));
    assert.equal(apiMoves(sandbox).length, count);
    assert.equal(await parentOf(sandbox, POLICY), B);
  });
});
