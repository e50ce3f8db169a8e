/**
 * Import through the resource plugin, with the plain `pulumi` CLI on a YAML program against the Google sandbox:
 * `pulumi import` of a firewall policy adopts it where it is (no move) and the next preview shows no change; the
 * `import` option adopts a policy and a finished operation; a running operation, a deletion and a ledger transaction
 * are refused with a message saying why and what to declare instead.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { apiMoves, mutatingRequests } from "../helpers/plugin-example";
import { PLUGIN_BUILDS } from "../helpers/plugin-builds";
import { changeSummary, initProjectStack, stripAnsi } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { deployerConfig, parentOf, seedWithOperationStillRunning } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const MOVE = "opsledger:compute:FirewallPolicyMove";
const WAIT = "opsledger:operations:OperationWait";
const { policy: POLICY, originalParent: ORIGINAL } = FIXTURE.firewallPolicyMove;
const LOCKDOWN = fixture.FIXTURE_FIREWALL_POLICY_IDS.securityLockdown;
const SECURITY = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const OPS = fixture.FIXTURE_IAM_OPERATIONS;

/** A YAML project using the plugin from the folder `plugin`, with the given `resources:` block. */
function writeProject(dir: string, plugin: string, resources = ""): void {
  fs.writeFileSync(
    path.join(dir, "Pulumi.yaml"),
    `name: opsledger-import\nruntime: yaml\nplugins:\n  providers:\n    - name: opsledger\n      path: ${plugin}\n${resources}`,
  );
}

const IMPORTED = `resources:
  edge:
    type: ${MOVE}
    properties:
      firewallPolicy: "${POLICY}"
      parentId: ${ORIGINAL}
`;

const WITH_OPTION = `${IMPORTED}  lockdown:
    type: ${MOVE}
    properties:
      firewallPolicy: "${LOCKDOWN}"
      parentId: ${SECURITY}
    options:
      import: "${LOCKDOWN}"
  binding:
    type: ${WAIT}
    properties:
      operation: ${OPS.done}
    options:
      import: ${OPS.done}
`;

for (const build of PLUGIN_BUILDS)
  describe(`import through pulumi-resource-opsledger, the ${build.name} (pulumi CLI, YAML, sandbox)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;
    let plugin: string;
    let stack: ProjectStack;
    let dir: string;
    let generated = "";

    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: 1500, seed: seedWithOperationStillRunning() });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-import-"));
      plugin = await build.dir();
      writeProject(dir, plugin);
      stack = await initProjectStack({ projectDir: dir, config: deployerConfig(sandbox) });
    });
    after(async () => {
      await stack.dispose();
      await sandbox.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("`pulumi import` adopts a policy where it is, with no move, and writes the program's resource", async () => {
      const imported = await stack.run(["import", MOVE, "edge", POLICY, "--yes"]);
      assert.deepEqual(apiMoves(sandbox), []);
      assert.deepEqual(mutatingRequests(sandbox), []);
      const state = (await stack.exportState()).resources?.find((r) => r.type === MOVE);
      assert.ok(state, "the policy is in state under its type token");
      const outs = state.outputs ?? {};
      assert.equal(outs["parent"], ORIGINAL);
      assert.equal(outs["previousParent"], ORIGINAL);
      assert.equal(outs["__generation"], 1);
      // The code `pulumi import` prints for the program: the two inputs, none of the `__` plumbing.
      const out = stripAnsi(imported.stdout);
      generated = out.slice(out.lastIndexOf("\nresources:\n") + 1);
      assert.equal(
        generated,
        `resources:\n  edge:\n    type: ${MOVE}\n    properties:\n      firewallPolicy: '${POLICY}'\n      parentId: ${ORIGINAL}\n    options:\n      protect: true\n`,
      );
    });

    it("previews the imported policy with no change once the printed code is in the program", async () => {
      writeProject(dir, plugin, generated);
      const preview = await stack.preview({ diff: true });
      assert.deepEqual(changeSummary(preview.events), { same: 2 });
      assert.deepEqual(apiMoves(sandbox), []);
    });

    it("adopts a policy and a finished operation with the `import` option, no move, then previews no change", async () => {
      writeProject(dir, plugin, WITH_OPTION);
      const { events, outputs } = await stack.up();
      assert.deepEqual(outputs, {});
      assert.deepEqual(changeSummary(events), { import: 2, same: 2 });
      assert.deepEqual(apiMoves(sandbox), []);
      assert.equal(await parentOf(sandbox, LOCKDOWN), SECURITY);
      const wait = (await stack.exportState()).resources?.find((r) => r.type === WAIT)?.outputs ?? {};
      assert.equal(wait["status"], "DONE");
      assert.equal(wait["operationName"], OPS.done);
      const preview = await stack.preview();
      assert.deepEqual(changeSummary(preview.events), { same: 4 });
    });

    it("refuses a running or failed operation, a deletion and a ledger transaction, saying why and what to do", async () => {
      const refusal = async (type: string, id: string): Promise<string> => {
        const r = await stack.run(["import", type, "refused", id, "--yes"], { allowFailure: true });
        assert.notEqual(r.code, 0, r.output);
        return stripAnsi(r.output);
      };
      assert.ok(
        (await refusal(WAIT, OPS.running)).includes(
          `OperationWait refused: cannot import operation ${OPS.running}: it is not done yet, and import adopts only a finished operation; declare the OperationWait without import to wait for it`,
        ),
      );
      // A failed operation fails the import with its error, as a create's wait would.
      assert.match(await refusal(WAIT, OPS.failed), /error:.*op-binding-failed/);
      assert.ok(
        (await refusal("opsledger:displayvideo:InventorySourceGroupDeletion", "5005")).includes(
          "opsledger:displayvideo:InventorySourceGroupDeletion cannot be imported: the resource is the deletion of a group, not the group; an existing group has no deletion to adopt, and a group already gone needs none. Declare it without import: its create deletes the group, and records a group already gone (404) as alreadyAbsent without an error",
        ),
      );
      assert.ok(
        (await refusal("opsledger:ledger:LedgerTransaction", "0a1b2c")).includes(
          "opsledger:ledger:LedgerTransaction cannot be imported: its inputs (the signing identity, a secret, and the transient data) cannot be read back from the ledger, and its exactly-once txId is derived from the resource's URN, so a transaction another program committed cannot be adopted. Declare it without import: a transaction this resource already committed under its txId is found on the ledger and adopted, not submitted again",
        ),
      );
      assert.deepEqual(mutatingRequests(sandbox), []);
      assert.equal(((await stack.exportState()).resources ?? []).filter((r) => r.urn.endsWith("::refused")).length, 0);
    });
  });
