/**
 * The plugin's example programs through the resource plugin (bin/pulumi-resource-opsledger), with the plain `pulumi`
 * CLI in each example's directory against the Google sandbox, one body per behaviour, each run on the examples
 * EXAMPLES names for it: examples/yaml; examples/go (the Go SDK generated from the plugin's schema, sdk/go; Go from
 * scripts/ensure-go.sh, the program built once in `before` so Go's build cache is warm before the CLI's Go language
 * host builds it on every command); examples/python (the Python SDK, sdk/python, pip-installed into the virtualenv of
 * scripts/ensure-python.sh --sdk; the sandbox seeded with a second organization for the program's explicit provider).
 * The behaviours: a read-only preview that reads every data source and mutates nothing; up (a move, a deletion, a
 * wait); a parent change previewed as one `~ parentId` line and applied in place; drift on refresh; the tokens in no
 * state, output or file at rest; `pulumi import`; destroy. The move's other behaviours through the plugin (faults, kill
 * -9 at each point, secrets) are the bodies of test/e2e/firewall-policy-move*.test.ts, which run once per face;
 * examples/python after kill -9 of the plugin is test/e2e/plugin-python.test.ts.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { goBinDir, goBuild } from "../helpers/go-toolchain";
import { DATA_SOURCE_READS, MOVE, apiMoves, moveChanges, moveState, mutatingRequests } from "../helpers/plugin-example";
import {
  REPO_ROOT,
  changeSummary,
  diagnostics,
  exampleDir,
  initProjectStack,
  pulumiBinDir,
} from "../helpers/project-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";
import { pythonExampleEnv } from "../helpers/python-toolchain";
import {
  READER,
  READ_ONLY_SCOPES,
  deployerConfig,
  parentOf,
  plainStrings,
  tokenConfig,
} from "../helpers/sandbox-config";
import { PLUGIN_BUILDS, projectWithPlugin } from "../helpers/plugin-builds";
import type { PluginBuild } from "../helpers/plugin-builds";
import { findSecretsDecoded, stackFilesAtRest, textForms } from "../helpers/secrets-scan";
import { ORG_B_POOL, POOL_ETAGS, SA_B, SCOPES, TWO_ORGANIZATIONS_SEED } from "../helpers/two-organizations";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, originalParent: ORIGINAL, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;
/** Google has sunset DV360 v1-v3: the plugin's provider takes the version from stack config (the programs say v4). */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

/** An example's stack, and what the bodies before have left for the next (they run in order, on one stack). */
interface Run {
  readonly sandbox: GoogleSandbox;
  readonly stack: ProjectStack;
  /** The second organization's token (examples/python's explicit provider), or "". */
  readonly orgBToken: string;
  up?: Awaited<ReturnType<ProjectStack["up"]>>;
  moveUrn?: string;
  /** The deployer's settings the stack holds from the parent change on (its token is looked for in state). */
  deployer?: ReturnType<typeof deployerConfig>;
  /** The drift body's refresh and up output. */
  driftOutput?: string;
}

interface Example {
  readonly describe: string;
  readonly dir: "yaml" | "go" | "python";
  /**
   * The plugin builds it runs against (test/helpers/plugin-builds.ts): the Go program through the executable only,
   * what Go users install: the Go SDK speaks to the plugin as the YAML and Python programs do, whose rows run the
   * script too.
   */
  readonly builds: readonly PluginBuild["name"][];
  /** The program's explicit providers: resources of their own to create. */
  readonly explicitProviders: number;
  /** What the read-only preview prints beyond the creative's name, exported by the program from the SDK's results. */
  readonly previewShows: readonly RegExp[];
  /** The first up's outputs beyond the move's, the deletion's and the wait's. */
  readonly upOutputs: Readonly<Record<string, unknown>>;
  /** The resources a parent change leaves as they are. */
  readonly unchangedByParentChange: number;
  /** The language's set-up before the sandbox: the stack's environment and stack config beyond the reader's. */
  readonly setUp: (sandbox: GoogleSandbox) => Promise<{ env?: Record<string, string>; config?: ConfigValues }>;
  /** The sandbox's seed: a second organization for examples/python. */
  readonly twoOrganizations?: boolean;
  readonly bodies: readonly Body[];
}

/**
 * The reader's preview: the four resources (and the program's explicit providers) and the default provider to create,
 * every data source read through the plugin, no mutating request, nothing done; the creative's name and what else the
 * program exports.
 */
async function previewsReadOnly(r: Run, e: Example): Promise<void> {
  const preview = await r.stack.preview({ diff: true });
  assert.deepEqual(changeSummary(preview.events), { create: 4 + e.explicitProviders });
  assert.deepEqual(preview.steps.map((s) => s.type).sort(), [
    MOVE,
    "opsledger:displayvideo:InventorySourceGroupDeletion",
    "opsledger:operations:OperationWait",
    ...Array<string>(1 + e.explicitProviders).fill("pulumi:providers:opsledger"),
    "pulumi:pulumi:Stack",
  ]);
  const routes = new Set(r.sandbox.requests().map((q) => q.route));
  assert.deepEqual(
    DATA_SOURCE_READS.filter((q) => !routes.has(q)),
    [],
  );
  assert.deepEqual(mutatingRequests(r.sandbox), []);
  assert.equal(r.sandbox.audit().length, 0);
  for (const shown of [/creativeName\s*: "Spring launch 30s"/, ...e.previewShows]) assert.match(preview.stdout, shown);
}

/** examples/python's second provider read its own organization's pool, once, as its own principal. */
function readsOrgBPoolAsItsPrincipal(r: Run): Promise<void> {
  const poolReads = r.sandbox
    .requests()
    .filter((q) => q.route === "iam.workforcePools.getIamPolicy")
    .map((q) => [q.principal, q.path.includes(`/${ORG_B_POOL}:`)]);
  assert.deepEqual(
    poolReads.filter(([, b]) => b === true),
    [[SA_B, true]],
  );
  return Promise.resolve();
}

/** examples/yaml's plugin is found through Pulumi.yaml's plugins.providers, at the package's version. */
async function isFoundThroughPluginsProviders(r: Run): Promise<void> {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const about = await r.stack.run(["about"]);
  assert.match(about.stdout, new RegExp(`^resource\\s+opsledger\\s+${version.replace(/\./g, "\\.")}$`, "m"));
}

/**
 * The deployer's first up: the policy moved from its original parent to folder A with one move under the state's
 * requestId, group 5005 deleted, the operation DONE.
 */
async function movesDeletesAndWaits(r: Run, e: Example): Promise<void> {
  await r.stack.setConfig(deployerConfig(r.sandbox));
  const up = await r.stack.up();
  const o = up.outputs;
  assert.deepEqual(
    [o["parent"], o["previousParent"], o["groupOutcome"], o["operationStatus"]],
    [A, ORIGINAL, "deleted", "DONE"],
  );
  for (const [name, value] of Object.entries(e.upOutputs)) assert.equal(o[name], value, name);
  const { urn, outputs: state } = await moveState(r.stack);
  assert.equal(state["__generation"], 1);
  assert.deepEqual(
    apiMoves(r.sandbox).map((m) => m.details.requestId),
    [state["__requestId"]],
  );
  assert.deepEqual(
    r.sandbox
      .audit()
      .filter((a) => a.kind !== "firewallPolicies.move")
      .map((a) => [a.kind, a.target]),
    [["inventorySourceGroups.delete", "inventorySourceGroups/5005"]],
  );
  r.up = up;
  r.moveUrn = urn;
}

/** The first up's move progress, on the move's own row of the display (ephemeral status events). */
function showsProgressOnItsRow(r: Run): Promise<void> {
  assert.ok(r.up !== undefined && r.moveUrn !== undefined, "the first up ran");
  const statuses = diagnostics(r.up.events).filter((d) => d.ephemeral && d.message.startsWith("moving to "));
  assert.ok(statuses.length >= 2, `status events: ${JSON.stringify(statuses)}`);
  assert.deepEqual([...new Set(statuses.map((d) => d.urn))], [r.moveUrn]);
  assert.match(statuses.at(-1)?.message ?? "", new RegExp(`^moving to ${A}: operation-\\S+ DONE 100%\\n?$`));
  return Promise.resolve();
}

/** Folder A → B previewed with the reader's token: one update, one changed line without the `__` plumbing, no POST. */
async function previewsParentChange(r: Run): Promise<void> {
  await r.stack.setConfig({ ...tokenConfig(r.sandbox, READER, READ_ONLY_SCOPES), parentId: { value: B } });
  const posts = mutatingRequests(r.sandbox).length;
  const preview = await r.stack.preview({ diff: true });
  assert.equal(changeSummary(preview.events)["update"], 1);
  assert.deepEqual(moveChanges(preview.stdout), [`~ parentId: "${A}" => "${B}"`]);
  assert.doesNotMatch(preview.stdout, /generation|requestId|__urn/);
  assert.equal(mutatingRequests(r.sandbox).length, posts);
}

/** The change applied with the deployer's token: one in-place update, one more move to B, the same URN, generation 2. */
async function appliesParentChange(r: Run, e: Example): Promise<void> {
  const deployer = deployerConfig(r.sandbox);
  await r.stack.setConfig(deployer);
  const before = apiMoves(r.sandbox).length;
  const { outputs, events } = await r.stack.up();
  assert.deepEqual(changeSummary(events), { update: 1, same: e.unchangedByParentChange });
  assert.deepEqual([outputs["parent"], outputs["previousParent"]], [B, ORIGINAL]);
  assert.deepEqual(
    apiMoves(r.sandbox)
      .slice(before)
      .map((m) => m.details.to),
    [B],
  );
  const { urn, outputs: state } = await moveState(r.stack);
  assert.deepEqual([urn, state["__generation"]], [r.moveUrn, 2]);
  r.deployer = deployer;
}

/**
 * An out-of-band move to C shown by refresh as `~ parentId: B => C`; the next up moves the policy back to B; the
 * deployer's access token in no plain state and in no command's output.
 */
async function showsDriftAndKeepsTheToken(r: Run): Promise<void> {
  r.sandbox.setParent(POLICY, C);
  const refreshed = await r.stack.run(["refresh", "--yes", "--skip-preview", "--diff"]);
  assert.match(refreshed.stdout, new RegExp(`^\\s+~ parentId\\s*: "${B}" => "${C}"$`, "m"));
  assert.equal((await moveState(r.stack)).outputs["parent"], C);
  const { outputs, output } = await r.stack.up();
  assert.equal(outputs["parent"], B);
  assert.equal(apiMoves(r.sandbox).at(-1)?.details.to, B);
  const token = r.deployer?.["opsledger:accessToken"]?.value ?? "";
  assert.ok(token.length > 10);
  const state = await r.stack.exportState();
  assert.ok(!plainStrings(state).join("\n").includes(token), "the access token is in state outside a Pulumi secret");
  r.driftOutput = `${refreshed.output}${output}`;
  assert.ok(!r.driftOutput.includes(token), "the access token is in the CLI's output");
}

/** The second organization's token too: in no plain state or output; neither token in the stack's files at rest. */
async function keepsBothTokens(r: Run): Promise<void> {
  assert.ok(r.driftOutput !== undefined && r.orgBToken.length > 10);
  const state = await r.stack.exportState();
  assert.ok(!plainStrings(state).join("\n").includes(r.orgBToken), "org B's token is in state outside a secret");
  assert.ok(!r.driftOutput.includes(r.orgBToken), "org B's token is in the CLI's output");
  const token = r.deployer?.["opsledger:accessToken"]?.value ?? "";
  const forms = [...textForms("deployer token", token), ...textForms("org B token", r.orgBToken)];
  assert.deepEqual(findSecretsDecoded(stackFilesAtRest(r.stack), forms), []);
}

/** `pulumi import` of the policy where it is: no move, no POST; the code printed in the program's language (Python). */
async function importsPrintingPython(r: Run): Promise<void> {
  const moves = apiMoves(r.sandbox).length;
  const posts = mutatingRequests(r.sandbox).length;
  const imported = await r.stack.run(["import", MOVE, "imported-edge", POLICY, "--yes", "--protect=false"]);
  // The code to paste: the SDK's class, the policy and its current parent.
  assert.match(imported.stdout, /import pulumi_opsledger as opsledger/);
  assert.match(imported.stdout, /imported_edge = opsledger\.compute\.FirewallPolicyMove\("imported-edge",/);
  assert.match(imported.stdout, /firewall_policy="700000000002",/);
  assert.match(imported.stdout, new RegExp(`parent_id="${B}"`));
  assert.deepEqual([apiMoves(r.sandbox).length, mutatingRequests(r.sandbox).length], [moves, posts]);
  const resources = (await r.stack.exportState()).resources ?? [];
  assert.equal(resources.filter((s) => s.type === MOVE).length, 2);
  // The program does not declare it: state only, which `pulumi state delete` drops again without a move.
  const urn = resources.find((s) => s.urn.endsWith("::imported-edge"))?.urn ?? "";
  await r.stack.run(["state", "delete", urn, "--yes"]);
}

/** Destroy leaves the policy under B (restoreOnDelete is false): no move. */
async function leavesThePolicyOnDestroy(r: Run): Promise<void> {
  const count = apiMoves(r.sandbox).length;
  const { stdout } = await r.stack.destroy();
  assert.match(stdout, new RegExp(`firewall policy ${POLICY} stays under ${B} \\(restoreOnDelete is false\\)`));
  assert.equal(apiMoves(r.sandbox).length, count);
  assert.equal(await parentOf(r.sandbox, POLICY), B);
}

const BODIES = {
  previewsReadOnly: {
    title: "previews with a read-only token: every data source read through the plugin, no mutating call",
    run: previewsReadOnly,
  },
  readsOrgBPool: {
    title: "reads the second organization's pool as its own principal, once",
    run: readsOrgBPoolAsItsPrincipal,
  },
  isFound: {
    title: "is found through Pulumi.yaml's plugins.providers: `pulumi about` lists it at the package's version",
    run: isFoundThroughPluginsProviders,
  },
  moves: { title: "moves, deletes and waits on up", run: movesDeletesAndWaits },
  progress: { title: "shows the move's progress on its own row", run: showsProgressOnItsRow },
  previewsParentChange: {
    title: "previews a parent change as one changed line, `parentId: A => B`, with a read-only token",
    run: previewsParentChange,
  },
  appliesParentChange: {
    title: "applies the parent change in place: one more move, the same URN",
    run: appliesParentChange,
  },
  drift: {
    title:
      "shows an out-of-band move as drift on refresh; the next up moves it back, the token nowhere in state or output",
    run: showsDriftAndKeepsTheToken,
  },
  keepsBothTokens: {
    title: "keeps both organizations' tokens out of state and output, and out of the stack's files at rest",
    run: keepsBothTokens,
  },
  imports: {
    title: "imports the policy where it is with `pulumi import`, printing Python, with no move",
    run: importsPrintingPython,
  },
  destroy: { title: "leaves the policy where it is on destroy", run: leavesThePolicyOnDestroy },
} as const satisfies Record<string, { title: string; run: (r: Run, e: Example) => Promise<void> }>;
type Body = keyof typeof BODIES;

const PARENT_CHANGE_AND_AFTER: readonly Body[] = ["previewsParentChange", "appliesParentChange", "drift"];

const EXAMPLES: readonly Example[] = [
  {
    describe: "examples/yaml through pulumi-resource-opsledger (pulumi CLI, sandbox)",
    dir: "yaml",
    builds: ["script", "executable"],
    explicitProviders: 0,
    previewShows: [],
    upOutputs: {},
    unchangedByParentChange: 3,
    setUp: () => Promise.resolve({}),
    bodies: ["previewsReadOnly", "isFound", "moves"],
  },
  {
    describe: "examples/go through pulumi-resource-opsledger (Go SDK, pulumi CLI, sandbox)",
    dir: "go",
    builds: ["executable"],
    explicitProviders: 0,
    previewShows: [
      /deploymentOperationStatus\s*: "DONE"/,
      /iamOperationDone\s*: true/,
      /subscriptionState\s*: "ACTIVE"/,
      /workforcePoolEtag\s*: "[A-Za-z0-9+/=]+"/,
    ],
    upOutputs: { creativeName: "Spring launch 30s" },
    unchangedByParentChange: 3,
    setUp: async () => {
      const PATH = [pulumiBinDir(), path.dirname(process.execPath), goBinDir(), process.env["PATH"] ?? ""].join(":");
      await goBuild(exampleDir("go"), { ...process.env, PATH });
      return { env: { PATH } };
    },
    bodies: ["previewsReadOnly", "moves", "progress", ...PARENT_CHANGE_AND_AFTER, "destroy"],
  },
  {
    describe: "examples/python through pulumi-resource-opsledger (Python SDK, pulumi CLI, sandbox)",
    dir: "python",
    builds: ["script", "executable"],
    explicitProviders: 1,
    previewShows: [
      /deploymentOperationStatus\s*: "DONE"/,
      /iamOperationDone\s*: true/,
      /subscriptionState\s*: "ACTIVE"/,
      new RegExp(`orgBWorkforcePoolEtag\\s*: "${POOL_ETAGS.b}"`),
    ],
    upOutputs: { creativeName: "Spring launch 30s", orgBWorkforcePoolEtag: POOL_ETAGS.b },
    // the stack, the deletion, the wait and the org-b provider
    unchangedByParentChange: 4,
    twoOrganizations: true,
    setUp: (sandbox) => {
      const orgBToken = sandbox.mintToken({ principal: SA_B, scopes: SCOPES });
      return Promise.resolve({
        env: pythonExampleEnv(sandbox),
        config: { orgBAccessToken: { value: orgBToken, secret: true }, orgBWorkforcePool: { value: ORG_B_POOL } },
      });
    },
    bodies: [
      "previewsReadOnly",
      "readsOrgBPool",
      "moves",
      ...PARENT_CHANGE_AND_AFTER,
      "keepsBothTokens",
      "imports",
      "destroy",
    ],
  },
];

for (const example of EXAMPLES)
  for (const build of PLUGIN_BUILDS.filter((b) => example.builds.includes(b.name))) {
    describe(`${example.describe}, the ${build.name}`, function () {
      this.timeout(600_000);
      let run: Run | undefined;
      let copy: string | undefined;
      const current = (): Run => {
        assert.ok(run !== undefined, "the example's stack was set up");
        return run;
      };

      before(async function () {
        // Go with empty caches downloads and compiles the Pulumi Go SDK (about 160 s of CPU here); a cold virtualenv
        // installs pulumi from PyPI (about 40 s).
        this.timeout(1_200_000);
        const sandbox = await startGoogleSandbox({
          moveDurationMs: 1500,
          ...(example.twoOrganizations === true ? { seed: TWO_ORGANIZATIONS_SEED } : {}),
        });
        const { env, config } = await example.setUp(sandbox);
        copy = build.name === "script" ? undefined : projectWithPlugin(exampleDir(example.dir), await build.dir());
        const projectDir = copy ?? exampleDir(example.dir);
        const stack = await initProjectStack({
          projectDir,
          ...(env === undefined ? {} : { env }),
          config: { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), ...DV360, parentId: { value: A }, ...config },
        });
        const orgBToken = config?.["orgBAccessToken"]?.value ?? "";
        run = { sandbox, stack, orgBToken };
      });
      after(async () => {
        await run?.stack.dispose();
        if (copy !== undefined) fs.rmSync(copy, { recursive: true, force: true });
        await run?.sandbox.close();
      });

      for (const body of example.bodies) {
        it(BODIES[body].title, () => BODIES[body].run(current(), example));
      }
    });
  }
