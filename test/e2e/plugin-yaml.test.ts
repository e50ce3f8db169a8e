/**
 * examples/yaml through the resource plugin (bin/pulumi-resource-opsledger), with the plain `pulumi` CLI in its
 * directory against the Google sandbox: what is particular to this example — a read-only preview that reads every data
 * source and mutates nothing, `pulumi about` finding the plugin through plugins.providers, and an up that moves,
 * deletes and waits. The move's behaviours through the plugin (read-only preview, a parent change as one `~ parentId`
 * line applied in place, progress on its row, drift, faults, kill -9, secrets, destroy) are the bodies of
 * test/e2e/firewall-policy-move*.test.ts, which run once per face (test/helpers/faces.ts).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { movesDeletesAndWaits, previewsReadOnly } from "../helpers/plugin-example";
import { REPO_ROOT, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { READER, READ_ONLY_SCOPES, deployerConfig, tokenConfig } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

/** Google has sunset DV360 v1-v3: the plugin's provider takes the version from stack config, as the dynamic face does. */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };
const { folderA: A } = FIXTURE.firewallPolicyMove;

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
    await previewsReadOnly(stack, sandbox);
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
    await movesDeletesAndWaits(stack, sandbox);
  });
});
