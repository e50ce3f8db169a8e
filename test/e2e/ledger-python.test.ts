/**
 * The ledger from a Python program: examples/python's ledger transaction (its opsledger_example.ledger_transaction, run
 * alone by test/fixtures/pulumi/ledger-python) through sdk/python and bin/pulumi-resource-opsledger, driven with the
 * plain `pulumi` CLI, runs the component's VALID body (test/helpers/ledger-component-behaviours.ts, the PYTHON face
 * of test/helpers/faces.ts): the preview shows the txId, the up submits exactly that transaction once, VALID —
 * on the Fabric sandbox and on the run's shared real network (2.5.16), as test/e2e/ledger-plugin.test.ts does for the
 * YAML twin. The transient data and the key stay out of plain state and output.
 */
import { strict as assert } from "node:assert";
import { submitsValid, TRANSIENT } from "../helpers/ledger-component-behaviours";
import { startComponentTarget } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { PYTHON, transactionResources } from "../helpers/faces";
import { ledgerTargets } from "../helpers/ledger-targets";
import { plainStrings } from "../helpers/sandbox-config";
import { isSecret } from "../../provider/plugin/secrets";

for (const target of ledgerTargets(["2.5.16"])) {
  describe(`the ledger from examples/python through the Python SDK and the plugin (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      t = await startComponentTarget(target);
    });
    after(async () => {
      await t.close();
    });

    it("previews the txId, submits exactly that transaction once (VALID), keeps the key and transient data secret", () =>
      submitsValid(t, PYTHON, async (stack, s) => {
        const state = await stack.exportState({ showSecrets: true });
        const [resource] = transactionResources(PYTHON, state);
        assert.ok(resource !== undefined);
        assert.equal(resource.outputs?.["txId"], s.up.outputs["ledgerTxId"]);
        assert.ok(isSecret(resource.inputs?.["transientData"]), "transient data is a secret input");
        const plain = plainStrings(await stack.exportState()).join("\n");
        for (const [name, text] of [
          ["plain state", plain],
          ["commands' output", `${s.preview.output}${s.up.output}`],
        ] as const) {
          assert.ok(!text.includes(TRANSIENT), `the transient data is in ${name}`);
          assert.ok(!text.includes(t.identity.privateKeyPem.split("\n")[1] ?? "-"), `the key is in ${name}`);
        }
      }));
  });
}
