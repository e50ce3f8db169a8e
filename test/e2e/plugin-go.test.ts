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
  appliesParentChange,
  leavesThePolicyOnDestroy,
  movesDeletesAndWaits,
  previewsParentChange,
  previewsReadOnly,
  showsDriftAndKeepsTheToken,
} from "../helpers/plugin-example";
import { diagnostics, exampleDir, initProjectStack, pulumiBinDir } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { READER, READ_ONLY_SCOPES, deployerConfig, tokenConfig } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;
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

  it("previews a parent change as one changed line, `parentId: A => B`, with a read-only token", () =>
    previewsParentChange(stack, sandbox, A, B));

  it("applies the parent change in place: one more move, the same URN", async () => {
    deployer = await appliesParentChange(stack, sandbox, { to: B, moveUrn, same: 3 });
  });

  it("shows an out-of-band move as drift on refresh; the next up moves it back, the token nowhere in state or output", () =>
    showsDriftAndKeepsTheToken(stack, sandbox, deployer, B, C));

  it("leaves the policy where it is on destroy", () => leavesThePolicyOnDestroy(stack, sandbox, B));
});
