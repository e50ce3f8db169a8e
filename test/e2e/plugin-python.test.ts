/**
 * examples/python, a Python program using the Python SDK generated from the plugin's schema (sdk/python, installed with
 * pip into the virtualenv of scripts/ensure-python.sh --sdk), through the resource plugin, with the plain `pulumi` CLI
 * in its directory against the Google sandbox, seeded with a second organization for the program's explicit provider:
 * the bodies examples/yaml and examples/go run (test/helpers/plugin-example.ts) — a read-only preview reading every
 * data source, up, the parent change as one `~ parentId` line applied in place, drift on refresh, the tokens in no
 * state, output or file at rest, destroy — plus `pulumi import` of a policy, printed as Python. Then kill -9 of the
 * plugin while a move's operation runs (the point the sandbox reports), and the next up makes no second move. The
 * ledger transaction, through the same program's function, is in test/e2e/ledger-component.test.ts (its Python rows).
 */
import { strict as assert } from "node:assert";
import { ENDPOINT_ENV_NAMES } from "../../sandbox/cli";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { roleOf } from "../helpers/kill-stack";
import { MOVE, upAndKill, whileTheOperationRuns } from "../helpers/kill-during-up";
import {
  MOVE as MOVE_TYPE,
  apiMoves,
  appliesParentChange,
  leavesThePolicyOnDestroy,
  movesDeletesAndWaits,
  mutatingRequests,
  previewsParentChange,
  previewsReadOnly,
  showsDriftAndKeepsTheToken,
} from "../helpers/plugin-example";
import { exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { pythonBinDir, pythonEnv } from "../helpers/python-toolchain";
import { READER, READ_ONLY_SCOPES, deployerConfig, plainStrings, tokenConfig } from "../helpers/sandbox-config";
import { findSecrets, stackFilesAtRest, textForms } from "../helpers/secrets-scan";
import { ORG_B_POOL, POOL_ETAGS, SA_B, SCOPES, TWO_ORGANIZATIONS_SEED } from "../helpers/two-organizations";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;
/** Google has sunset DV360 v1-v3: the deletion takes the version from stack config (the program's getCreative: v4). */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

/**
 * The virtualenv with pulumi and sdk/python first on PATH (the Python language host runs its `python3`), and the
 * sandbox's endpoints in the environment: the program's explicit provider takes no stack config (only its own inputs
 * and the environment), so they reach it as `npm run sandbox`'s export lines give them (without them it called Google).
 */
function pythonStackEnv(sandbox: GoogleSandbox): Record<string, string> {
  const env = pythonEnv(pythonBinDir({ sdk: true }));
  return {
    PATH: env["PATH"] ?? "",
    PYTHONDONTWRITEBYTECODE: "1",
    ...Object.fromEntries(ENDPOINT_ENV_NAMES.map(([name, key]) => [name, sandbox.endpoints[key]])),
  };
}

describe("examples/python through pulumi-resource-opsledger (Python SDK, pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;
  let moveUrn = "";
  let orgBToken = "";
  let deployer: ReturnType<typeof deployerConfig>;

  before(async function () {
    // A cold virtualenv: pulumi and its dependencies from PyPI, about 40 s.
    this.timeout(600_000);
    sandbox = await startGoogleSandbox({ moveDurationMs: 1500, seed: TWO_ORGANIZATIONS_SEED });
    orgBToken = sandbox.mintToken({ principal: SA_B, scopes: SCOPES });
    stack = await initProjectStack({
      projectDir: exampleDir("python"),
      env: pythonStackEnv(sandbox),
      config: {
        ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES),
        ...DV360,
        parentId: { value: A },
        orgBAccessToken: { value: orgBToken, secret: true },
        orgBWorkforcePool: { value: ORG_B_POOL },
      },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
  });

  it("previews with a read-only token: every data source read, the second organization's pool as its own principal", async () => {
    const preview = await previewsReadOnly(stack, sandbox, { explicitProviders: 1 });
    assert.match(preview.stdout, /deploymentOperationStatus\s*: "DONE"/);
    assert.match(preview.stdout, /iamOperationDone\s*: true/);
    assert.match(preview.stdout, /subscriptionState\s*: "ACTIVE"/);
    assert.match(preview.stdout, new RegExp(`orgBWorkforcePoolEtag\\s*: "${POOL_ETAGS.b}"`));
    const poolReads = sandbox
      .requests()
      .filter((r) => r.route === "iam.workforcePools.getIamPolicy")
      .map((r) => [r.principal, r.path.includes(`/${ORG_B_POOL}:`)]);
    assert.deepEqual(
      poolReads.filter(([, b]) => b === true),
      [[SA_B, true]],
      "the org-b provider read its own organization's pool, once, as its principal",
    );
  });

  it("moves, deletes and waits on up", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const { up, urn } = await movesDeletesAndWaits(stack, sandbox);
    assert.equal(up.outputs["creativeName"], "Spring launch 30s");
    assert.equal(up.outputs["orgBWorkforcePoolEtag"], POOL_ETAGS.b);
    moveUrn = urn;
  });

  it("previews a parent change as one changed line, `parentId: A => B`, with a read-only token", () =>
    previewsParentChange(stack, sandbox, A, B));

  it("applies the parent change in place: one more move, the same URN", async () => {
    // Unchanged: the stack, the deletion, the wait and the org-b provider.
    deployer = await appliesParentChange(stack, sandbox, { to: B, moveUrn, same: 4 });
  });

  it("shows drift on refresh and moves back; neither token in state, output or the stack's files at rest", async () => {
    const output = await showsDriftAndKeepsTheToken(stack, sandbox, deployer, B, C);
    const token = deployer["opsledger:accessToken"]?.value ?? "";
    const state = await stack.exportState();
    assert.ok(!plainStrings(state).join("\n").includes(orgBToken), "org B's token is in state outside a secret");
    assert.ok(!output.includes(orgBToken), "org B's token is in the CLI's output");
    const forms = [...textForms("deployer token", token), ...textForms("org B token", orgBToken)];
    assert.deepEqual(findSecrets(stackFilesAtRest(stack), forms), []);
  });

  it("imports the policy where it is with `pulumi import`, printing Python, with no move", async () => {
    const moves = apiMoves(sandbox).length;
    const posts = mutatingRequests(sandbox).length;
    const imported = await stack.run(["import", MOVE_TYPE, "imported-edge", POLICY, "--yes", "--protect=false"]);
    // The code to paste: the SDK's class, the policy and its current parent.
    assert.match(imported.stdout, /import pulumi_opsledger as opsledger/);
    assert.match(imported.stdout, /imported_edge = opsledger\.compute\.FirewallPolicyMove\("imported-edge",/);
    assert.match(imported.stdout, /firewall_policy="700000000002",/);
    assert.match(imported.stdout, new RegExp(`parent_id="${B}"`));
    assert.equal(apiMoves(sandbox).length, moves);
    assert.equal(mutatingRequests(sandbox).length, posts);
    const resources = (await stack.exportState()).resources ?? [];
    assert.equal(resources.filter((r) => r.type === MOVE_TYPE).length, 2);
    // The program does not declare it: state only, which `pulumi state delete` drops again without a move.
    await stack.run(["state", "delete", resources.find((r) => r.urn.endsWith("::imported-edge"))?.urn ?? "", "--yes"]);
  });

  it("leaves the policy where it is on destroy", () => leavesThePolicyOnDestroy(stack, sandbox, B));
});

describe("examples/python after kill -9 of the plugin during a move (pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;

  before(async function () {
    this.timeout(600_000);
    sandbox = await startGoogleSandbox({ moveDurationMs: 4000 });
    const deployer = deployerConfig(sandbox);
    stack = await initProjectStack({
      projectDir: exampleDir("python"),
      env: pythonStackEnv(sandbox),
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
      k.killed.some((p) => /bin\/pulumi-resource-opsledger /.test(p.args)),
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
