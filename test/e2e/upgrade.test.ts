/**
 * Upgrades, as Pulumi's providers test them (pulumi/providertest's PreviewProviderUpgrade): a stack written by a
 * previous release (test/fixtures/upgrade/<version>/, recorded by scripts/record-upgrade-fixtures.ts) is imported
 * with the plain CLI into a fresh file backend, next to the program it was written by, and then, under this
 * checkout's code, `pulumi preview` shows no change (every step `same`) and `pulumi refresh` finds the same world.
 * Nothing here knows the package's files: only the CLI, the fixtures and the sandboxes.
 *
 * The Google cases run against a new Google sandbox holding what the recorded up left behind (world.json). The
 * ledger cases run against the Fabric sandbox the recorded up wrote to, restored from its snapshot
 * (fabric-sandbox.json: its CAs, TLS keys, port and blocks): a refresh reads the recorded transaction through the
 * recorded gateway address with the recorded identity and TLS root, through qscc, and orders nothing.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_SEED, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox, FabricSandboxSnapshot } from "../../sandbox/fabric";
import {
  FABRIC_SNAPSHOT_FILE,
  UPGRADE_PASSPHRASE,
  UPGRADE_STACK,
  googleEnv,
} from "../../scripts/record-upgrade-fixtures";
import type { RecordedWorld } from "../../scripts/record-upgrade-fixtures";
import { REPO_ROOT, changeSummary, initProjectStack } from "../helpers/project-stack";
import type { CommandResult, ConfigValues, ProjectStack } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";

const FIXTURES = path.join(REPO_ROOT, "test", "fixtures", "upgrade");

/** Every recorded release and its cases. */
function recorded(): { version: string; cases: string[] }[] {
  return fs
    .readdirSync(FIXTURES, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      version: d.name,
      cases: fs
        .readdirSync(path.join(FIXTURES, d.name), { withFileTypes: true })
        .filter((c) => c.isDirectory())
        .map((c) => c.name)
        .sort(),
    }));
}

function readJson(file: string): unknown {
  return JSON.parse(fs.readFileSync(file, "utf8"));
}

/** The sandbox as the recorded up left it: its default seed less the deleted groups, the moved policies' parents. */
async function sandboxHolding(world: RecordedWorld): Promise<GoogleSandbox> {
  const gone = new Set(world.deletedInventorySourceGroups);
  const sandbox = await startGoogleSandbox({
    seed: {
      ...DEFAULT_SEED,
      inventorySourceGroups: DEFAULT_SEED.inventorySourceGroups.filter((g) => !gone.has(g.inventorySourceGroupId)),
    },
  });
  for (const [policy, parent] of Object.entries(world.firewallPolicyParents)) sandbox.setParent(policy, parent);
  return sandbox;
}

/**
 * Asserts that the command changed nothing: the engine's summary counts every resource `same`, no step was other
 * than `same` (a refresh's steps are `refresh`, each of which must find no difference), and no step named a diff.
 */
function assertAllSame(result: CommandResult, resources: number, what: string): void {
  const summary = changeSummary(result.events);
  assert.deepEqual(summary, { same: resources }, `${what}: ${JSON.stringify(summary)}\n${result.output}`);
  const allowed = what === "refresh" ? ["same", "refresh"] : ["same"];
  const steps = result.events.flatMap((e) => {
    const m = e.resourcePreEvent?.metadata ?? e.resOutputsEvent?.metadata;
    if (m === undefined) return [];
    const diffs = m.diffs ?? [];
    return allowed.includes(m.op) && diffs.length === 0 ? [] : [`${m.op} ${m.urn} [${diffs.join(", ")}]`];
  });
  assert.deepEqual(steps, [], `${what}: steps that are not \`same\`\n${result.output}`);
}

/** The mutations the Google sandbox took through its API (its control plane seeded the world). */
function mutatingRequests(sandbox: GoogleSandbox): string[] {
  return sandbox.audit().flatMap((e) => (e.source === "api" ? [`${e.kind} ${e.target}`] : []));
}

for (const { version, cases } of recorded()) {
  for (const name of cases) {
    const dir = path.join(FIXTURES, version, name);
    describe(`upgrade from ${version}: ${name} (pulumi CLI, recorded stack imported)`, function () {
      this.timeout(300_000);
      const exported = readJson(path.join(dir, "stack.json")) as { deployment: { resources?: { type: string }[] } };
      // The engine's summary counts resources, not the providers among them.
      const resources = (exported.deployment.resources ?? []).filter(
        (r) => !r.type.startsWith("pulumi:providers:"),
      ).length;
      const worldFile = path.join(dir, "world.json");
      const world = fs.existsSync(worldFile) ? (readJson(worldFile) as RecordedWorld) : undefined;
      const snapshotFile = path.join(dir, FABRIC_SNAPSHOT_FILE);
      const snapshot = fs.existsSync(snapshotFile) ? (readJson(snapshotFile) as FabricSandboxSnapshot) : undefined;
      let sandbox: GoogleSandbox | undefined;
      let fabric: FabricSandbox | undefined;
      let stack: ProjectStack;

      before(async () => {
        sandbox = world === undefined ? undefined : await sandboxHolding(world);
        fabric = snapshot === undefined ? undefined : await startFabricSandbox({ restore: snapshot });
        stack = await initProjectStack({
          projectDir: path.join(dir, "program"),
          stackName: UPGRADE_STACK,
          config: readJson(path.join(dir, "config.json")) as ConfigValues,
          env: {
            PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE,
            ...(sandbox === undefined ? {} : googleEnv(deployerConfig(sandbox))),
          },
        });
        await stack.run(["stack", "import", "--file", path.join(dir, "stack.json")]);
      });
      after(async () => {
        await stack.dispose();
        await sandbox?.close();
        await fabric?.close();
      });

      it("previews with no changes: every resource `same`", async () => {
        assert.ok(resources >= 2, `the recorded stack holds its resources (${String(resources)})`);
        assertAllSame(await stack.preview(), resources, "preview");
      });

      if (world !== undefined) {
        it("refreshes clean against the sandbox holding the recorded world, and previews clean after", async () => {
          const refreshed = await stack.refresh();
          assertAllSame(refreshed, resources, "refresh");
          assert.deepEqual(mutatingRequests(sandbox!), [], "a refresh only reads");
          assertAllSame(await stack.preview(), resources, "preview after refresh");
        });
      }

      if (snapshot !== undefined) {
        it("refreshes clean against the restored Fabric sandbox: it reads the recorded transaction, orders nothing", async () => {
          const ledger = fabric!;
          const recorded = ledger.blocks().flatMap((b) => b.transactions.map((t) => t.txId));
          assert.equal(recorded.length, 1, "the restored ledger holds the recorded transaction");
          assert.ok(JSON.stringify(exported).includes(recorded[0]!), "the recorded stack holds that transaction's id");
          const evaluatedBefore = ledger.evaluations().length;
          const refreshed = await stack.refresh();
          assertAllSame(refreshed, resources, "refresh");
          assert.deepEqual(
            ledger.blocks().flatMap((b) => b.transactions.map((t) => t.txId)),
            recorded,
            "a refresh orders no transaction",
          );
          const reads = ledger.evaluations().slice(evaluatedBefore);
          assert.ok(
            reads.some((e) => e.chaincode === "qscc" && e.fn === "GetTransactionByID"),
            `the refresh read the transaction through qscc: ${JSON.stringify(reads)}`,
          );
          assert.deepEqual(
            reads.filter((e) => e.chaincode !== "qscc"),
            [],
            "the refresh evaluated nothing but qscc",
          );
          assertAllSame(await stack.preview(), resources, "preview after refresh");
        });
      }
    });
  }
}
