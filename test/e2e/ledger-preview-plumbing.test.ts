/**
 * examples/ledger on the Fabric sandbox with the plain `pulumi` CLI: the preview of a create lists what the user wrote
 * (and the txId it will submit), not the plumbing (the URN, the generation) kept under `__` keys; and a stack whose
 * state was written with the plumbing under plain keys (`resourceUrn`, `generation`) still updates in place and
 * refreshes without submitting its transaction again.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startFabricSandbox } from "../../sandbox/fabric";
import { changeSummary, dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { StackDeployment } from "../helpers/project-stack";

/** The plumbing keys today, and the plain keys state written before them used. */
const PLUMBING = [
  ["__urn", "resourceUrn"],
  ["__generation", "generation"],
] as const;

describe("examples/ledger: the preview shows what the user wrote (pulumi CLI, Fabric sandbox)", function () {
  this.timeout(600_000);

  it("lists no URN, generation or `__` key, and old-shaped state updates and refreshes without resubmitting", async () => {
    const sandbox = await startFabricSandbox();
    const me = sandbox.newClientIdentity("Org1MSP", "preview-reader");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-plumbing-"));
    const stack = await initProjectStack({
      projectDir: exampleDir("ledger"),
      config: {
        ledgerGateway: { value: sandbox.address },
        ledgerChannel: { value: sandbox.channel },
        ledgerChaincode: { value: sandbox.chaincode },
        ledgerFunction: { value: "PutAsset" },
        ledgerArgs: { value: JSON.stringify(["asset-p", "green"]) },
        ledgerMspId: { value: me.mspId },
        ledgerCertificatePem: { value: me.certificatePem },
        ledgerPrivateKeyPem: { value: me.privateKeyPem, secret: true },
        ledgerTrustedRootCertificates: { value: JSON.stringify(sandbox.caCertificates) },
      },
    });
    try {
      const preview = await stack.preview({ diff: true });
      assert.deepEqual(changeSummary(preview.events), { create: 3 }); // stack, component, submission
      assert.match(preview.stdout, /function\s*:\s*"PutAsset"/, "what the user wrote is listed");
      assert.match(preview.stdout, /txId\s*:\s*"[0-9a-f]{64}"/, "and the txId it will submit");
      assert.doesNotMatch(preview.stdout, /resourceUrn/);
      assert.doesNotMatch(preview.stdout, /\bgeneration\b/);
      assert.doesNotMatch(preview.stdout, /\b__[A-Za-z]/);

      const up = await stack.up();
      const txId = String(up.outputs["ledgerTxId"]);
      const count = sandbox.transactionCount();
      assert.equal(count, 1);
      const state = await stack.exportState();
      const submission = dynamicResources(state)[0];
      assert.deepEqual(
        [typeof submission?.inputs?.["__urn"], submission?.outputs?.["__generation"], submission?.outputs?.["txId"]],
        ["string", 1, txId],
      );

      // The same stack as an earlier version wrote it: the plumbing under plain keys.
      const old = structuredClone(state) as StackDeployment & { resources: Record<string, unknown>[] };
      for (const r of old.resources) {
        if (r["urn"] !== submission?.urn) continue;
        for (const side of ["inputs", "outputs"] as const) {
          const props = r[side] as Record<string, unknown>;
          for (const [now, then] of PLUMBING) {
            props[then] = props[now];
            Reflect.deleteProperty(props, now);
          }
        }
      }
      const file = path.join(dir, "old-shape.json");
      fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: old }));
      await stack.run(["stack", "import", "--file", file]);

      const unchanged = await stack.preview({ diff: true });
      assert.deepEqual(changeSummary(unchanged.events), { same: 3 });
      await stack.setConfig({ ledgerAllowInvalid: { value: "true" } });
      const updated = await stack.up();
      assert.deepEqual(changeSummary(updated.events), { same: 2, update: 1 });
      assert.equal(updated.outputs["ledgerTxId"], txId);
      await stack.refresh();
      const after = dynamicResources(await stack.exportState())[0];
      assert.deepEqual(
        [after?.outputs?.["txId"], after?.outputs?.["validationCode"], after?.outputs?.["__generation"]],
        [txId, "VALID", 1],
      );
      assert.deepEqual(
        PLUMBING.map(([, then]) => then).filter((k) => after?.outputs?.[k] !== undefined),
        [],
        "refresh writes today's shape",
      );
      assert.equal(sandbox.transactionCount(), count, "nothing submitted again");
    } finally {
      await stack.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
      await sandbox.close();
    }
  });
});
