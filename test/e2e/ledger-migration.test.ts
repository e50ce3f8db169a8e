/**
 * A stack whose state was written by 0.1 (identity.privateKeyPem, the key kept as a secret output, a txId derived from
 * an HMAC keyed by the private key) moves to a key reference with the plain `pulumi` CLI: the preview shows an update
 * (no replace), `up` submits nothing and keeps the txId, refresh still finds the transaction, and afterwards the state
 * holds no key bytes, not even decrypted.
 *
 * The 0.1 state is made the way 0.1 made it: its transaction is submitted with 0.1's nonce, and the stack's state is
 * rewritten to 0.1's shape (txId, id, the keyed digest) with `pulumi stack export` / `pulumi stack import`.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { connect } from "../../provider/ledger/gateway-client";
import { newIdentity, serializeIdentity } from "../../provider/ledger/identity";
import { computeTxId } from "../../provider/ledger/proposal";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import { startFabricSandbox } from "../../sandbox/fabric";
import { changeSummary, dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { StackDeployment } from "../helpers/project-stack";

const PROJECT = exampleDir("ledger");

/** 0.1's nonce: the first 24 bytes of HMAC-SHA256(SHA-256(private key PKCS#8 DER), URN ‖ uint64-BE generation). */
function legacyNonce(privateKeyPem: string, urn: string, generation: number): Uint8Array {
  const key = crypto
    .createHash("sha256")
    .update(crypto.createPrivateKey(privateKeyPem).export({ type: "pkcs8", format: "der" }))
    .digest();
  const gen = Buffer.alloc(8);
  gen.writeBigUInt64BE(BigInt(generation));
  return new Uint8Array(crypto.createHmac("sha256", key).update(urn).update(gen).digest().subarray(0, 24));
}

function pemLines(pem: string): string[] {
  return pem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
}

describe("examples/ledger: a 0.1 stack moves from privateKeyPem to a key reference (pulumi CLI)", function () {
  this.timeout(600_000);

  it("shows an update, submits nothing, keeps the txId, and then the state holds no key", async () => {
    const sandbox = await startFabricSandbox();
    const me = sandbox.newClientIdentity("Org1MSP", "migrating-user");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-migration-"));
    const keyFile = path.join(dir, "key.pem");
    fs.writeFileSync(keyFile, me.privateKeyPem, { mode: 0o600 });
    const args = ["asset-m", "blue"];
    const stack = await initProjectStack({
      projectDir: PROJECT,
      config: {
        ledgerGateway: { value: sandbox.address },
        ledgerChannel: { value: sandbox.channel },
        ledgerChaincode: { value: sandbox.chaincode },
        ledgerFunction: { value: "PutAsset" },
        ledgerArgs: { value: JSON.stringify(args) },
        ledgerMspId: { value: me.mspId },
        ledgerCertificatePem: { value: me.certificatePem },
        ledgerPrivateKeyPem: { value: me.privateKeyPem, secret: true },
        ledgerTransientData: { value: JSON.stringify({ note: "kept" }), secret: true },
        ledgerTrustedRootCertificates: { value: JSON.stringify(sandbox.caCertificates) },
      },
    });
    const gateway = connect({
      address: sandbox.address,
      identity: newIdentity(me.mspId, me.certificatePem),
      signer: newPrivateKeySigner(me.privateKeyPem),
      trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
    });
    try {
      await stack.up();
      // What 0.1 would have committed and stored: the same transaction under 0.1's txId.
      const exported = await stack.exportState({ showSecrets: true });
      const submission = dynamicResources(exported)[0];
      const urn = String(submission?.inputs?.["__urn"]);
      const nonce = legacyNonce(me.privateKeyPem, urn, 1);
      const legacyTxId = computeTxId(nonce, serializeIdentity(newIdentity(me.mspId, me.certificatePem)));
      const proposal = gateway.newProposal({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "PutAsset",
        args,
        nonce,
      });
      assert.equal((await (await (await proposal.endorse()).submit()).getStatus()).code, 0);
      const legacy = structuredClone(exported) as StackDeployment & { resources: Record<string, unknown>[] };
      for (const r of legacy.resources) {
        if (r["urn"] !== urn) continue;
        r["id"] = legacyTxId;
        for (const side of ["inputs", "outputs"] as const) {
          const props = r[side] as Record<string, unknown>;
          props["txId"] = legacyTxId;
          props["transactionDigest"] = crypto.randomBytes(32).toString("hex");
          // 0.1 kept the plumbing under plain keys.
          for (const [now, then] of [
            ["__urn", "resourceUrn"],
            ["__generation", "generation"],
          ] as const) {
            props[then] = props[now];
            Reflect.deleteProperty(props, now);
          }
        }
      }
      const file = path.join(dir, "legacy.json");
      fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: legacy }));
      await stack.run(["stack", "import", "--file", file]);
      const count = sandbox.transactionCount();
      assert.equal(count, 2);

      // The program moves to a reference to the same key.
      await stack.setConfig({ ledgerSigner: { value: "keyFile" }, ledgerKeyFile: { value: keyFile } });
      await stack.run(["config", "rm", "ledgerPrivateKeyPem"]);
      const preview = await stack.preview({ diff: true });
      assert.deepEqual(changeSummary(preview.events), { same: 2, update: 1 });
      assert.ok(
        preview.steps.every((s) => s.op !== "replace" && s.op !== "create-replacement"),
        JSON.stringify(preview.steps),
      );
      assert.match(preview.stdout, new RegExp(`txId\\s*:\\s*"${legacyTxId}"`));

      const up = await stack.up();
      assert.equal(up.outputs["ledgerTxId"], legacyTxId);
      assert.equal(sandbox.transactionCount(), count, "nothing resubmitted");
      assert.doesNotMatch(up.output, /submitting transaction/);

      await stack.refresh();
      const after = await stack.exportState({ showSecrets: true });
      const state = JSON.stringify(after);
      assert.equal(dynamicResources(after)[0]?.outputs?.["txId"], legacyTxId);
      assert.equal(dynamicResources(after)[0]?.outputs?.["validationCode"], "VALID");
      for (const line of pemLines(me.privateKeyPem)) assert.ok(!state.includes(line), "no key bytes, even decrypted");
      assert.match(state, new RegExp(keyFile.replace(/[/.]/g, "\\$&")));
      const again = await stack.up();
      assert.match(again.stdout, /^\s+3 unchanged$/m);
      assert.equal(sandbox.transactionCount(), count);
    } finally {
      gateway.close();
      await stack.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
      await sandbox.close();
    }
  });
});
