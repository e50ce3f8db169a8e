/**
 * examples/python (the Python SDK, through the resource plugin, the plain `pulumi` CLI, against the Google sandbox)
 * after kill -9 of the plugin while a move's operation runs (the point the sandbox reports): the CLI ends the update,
 * and the next up makes no second move. The example's other behaviours, the bodies examples/yaml and examples/go run
 * too, are test/e2e/plugin-examples.test.ts's; its ledger transaction is in test/e2e/ledger-component.test.ts (its
 * Python rows).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { roleOf } from "../helpers/kill-stack";
import { MOVE, upAndKill, whileTheOperationRuns } from "../helpers/kill-during-up";
import { PLUGIN_BUILDS, projectWithPlugin } from "../helpers/plugin-builds";
import { apiMoves } from "../helpers/plugin-example";
import { exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { pythonExampleEnv } from "../helpers/python-toolchain";
import { deployerConfig } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;
/** Google has sunset DV360 v1-v3: the deletion takes the version from stack config (the program's getCreative: v4). */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

for (const build of PLUGIN_BUILDS)
  describe(`examples/python after kill -9 of the plugin during a move, the ${build.name} (pulumi CLI, sandbox)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;
    let stack: ProjectStack;
    let plugin: string;
    let copy: string | undefined;

    before(async function () {
      this.timeout(600_000);
      plugin = await build.dir();
      copy = build.name === "script" ? undefined : projectWithPlugin(exampleDir("python"), plugin);
      sandbox = await startGoogleSandbox({ moveDurationMs: 4000 });
      const deployer = deployerConfig(sandbox);
      stack = await initProjectStack({
        projectDir: copy ?? exampleDir("python"),
        env: pythonExampleEnv(sandbox),
        // The explicit provider gets the deployer's token too (it reads no `opsledger:*` stack config).
        config: {
          ...deployer,
          ...DV360,
          parentId: { value: A },
          orgBAccessToken: { value: deployer["opsledger:accessToken"]?.value ?? "", secret: true },
        },
      });
    });
    after(async () => {
      await stack.dispose();
      await sandbox.close();
      if (copy !== undefined) fs.rmSync(copy, { recursive: true, force: true });
    });

    it("finishes the update with one move: the next up makes no second move", async () => {
      await stack.up();
      await stack.setConfig({ parentId: { value: B } });
      const before = apiMoves(sandbox).length;
      const requestsBefore = sandbox.requests().length;
      const k = await upAndKill(stack, sandbox, whileTheOperationRuns, "provider");
      assert.deepEqual(
        k.killed.filter((p) => roleOf(p, k.cliPid) !== "provider"),
        [],
        "the plugin's processes, and only those",
      );
      assert.ok(
        k.killed.some((p) => p.args.includes(`${path.join(plugin, "pulumi-resource-opsledger")} `)),
        k.killed.map((p) => p.args).join("; "),
      );
      assert.equal(k.postsAtKill, 1, "killed once the move POST was answered: the operation runs");
      // The engine reports the plugin's death on the move's row; how the socket ended decides its words (seen both here).
      assert.match(k.output, /edge-policy .*error: error reading from server: (EOF|connection reset by peer)$/m);
      // The CLI lived: it ended the update and released the lock; nothing is pending.
      assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
      const { outputs } = await stack.up();
      assert.equal(outputs["parent"], B);
      assert.deepEqual(
        apiMoves(sandbox)
          .slice(before)
          .map((m) => m.details.to),
        [B],
        "exactly one move for the interrupted change",
      );
      const posts = sandbox
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.route === MOVE && r.status === 200);
      assert.ok(posts.length >= 1);
      assert.equal(new Set(posts.map((r) => r.query["requestId"])).size, 1, "every move POST repeated one requestId");
    });
  });
