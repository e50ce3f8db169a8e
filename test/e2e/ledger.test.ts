/**
 * examples/ledger (ledger.LedgerTransaction) with the plain `pulumi` CLI in its directory against an in-process Fabric
 * sandbox: preview shows the txId, up (VALID), up again (no change), args changed (a new transaction), an MVCC conflict
 * made by a concurrent writer, secrets in state and output, and kill -9 mid-submit (the re-run adopts the committed
 * transaction).
 */
import { strict as assert } from "node:assert";
import { codecs, connect, newIdentity, newPrivateKeySigner } from "../../provider/ledger";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox, SandboxIdentity } from "../../sandbox/fabric";
import { changeSummary, dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";
import { killCommand, waitFor } from "../helpers/kill-stack";
import { plainStrings } from "../helpers/sandbox-config";
import { stackFilesAtRest } from "../helpers/secrets-scan";

const PROJECT = exampleDir("ledger");
const TRANSIENT = "transient-value-never-in-state";
const HOLD_MS = 3000;

/** The sandbox's orderer calls `sleep` while it holds a submitted transaction: the hook marks "mid-submit". */
let onHold: (() => void) | undefined;

function stackConfig(sandbox: FabricSandbox, me: SandboxIdentity, fn: string, args: string[]): ConfigValues {
  return {
    ledgerGateway: { value: sandbox.address },
    ledgerChannel: { value: sandbox.channel },
    ledgerChaincode: { value: sandbox.chaincode },
    ledgerFunction: { value: fn },
    ledgerArgs: { value: JSON.stringify(args) },
    ledgerMspId: { value: me.mspId },
    ledgerCertificatePem: { value: me.certificatePem },
    ledgerPrivateKeyPem: { value: me.privateKeyPem, secret: true },
    ledgerTransientData: { value: JSON.stringify({ note: TRANSIENT }), secret: true },
    ledgerTrustedRootCertificates: { value: JSON.stringify(sandbox.caCertificates) },
  };
}

function transactions(sandbox: FabricSandbox) {
  return sandbox.blocks().flatMap((b) => b.transactions.map((t) => ({ ...t, block: b.number })));
}

/** The base64 body lines of a PEM key: what must never appear outside a secret. */
function keyLines(pem: string): string[] {
  return pem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
}

describe("examples/ledger: LedgerTransaction (pulumi CLI, Fabric sandbox)", function () {
  this.timeout(600_000);
  let sandbox: FabricSandbox;
  let me: SandboxIdentity;
  let stack: ProjectStack;
  /** Every command's output, for the secrets check. */
  const outputs: string[] = [];

  before(async () => {
    sandbox = await startFabricSandbox({
      sleep: (ms) => {
        onHold?.();
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    me = sandbox.newClientIdentity("Org1MSP", "deployer");
    stack = await initProjectStack({
      projectDir: PROJECT,
      config: {
        ...stackConfig(sandbox, me, "CreateAsset", ["asset-1", "blue"]),
        ledgerPreviewEndorse: { value: "true" },
      },
    });
  });
  after(async () => {
    onHold = undefined;
    await stack.dispose();
    await sandbox.close();
  });

  let firstTxId = "";

  it("previews the txId it will submit and its endorsed (simulated) result, committing nothing", async () => {
    const preview = await stack.preview({ diff: true });
    outputs.push(preview.output);
    assert.deepEqual(changeSummary(preview.events), { create: 3 }); // stack, component, submission
    const shown = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.stdout)?.[1];
    assert.ok(shown, preview.stdout);
    firstTxId = shown;
    assert.match(preview.stdout, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"blue"/);
    assert.equal(sandbox.transactionCount(), 0);
  });

  it("submits on up: VALID, with the previewed txId, block, result, endorsers and the ProcessedTransaction", async () => {
    const up = await stack.up();
    outputs.push(up.output);
    const { outputs: o, output } = up;
    assert.equal(o["ledgerTxId"], firstTxId);
    assert.equal(o["ledgerValidationCode"], "VALID");
    assert.equal(o["ledgerValidationCodeNumber"], 0);
    assert.equal(o["ledgerBlockNumber"], "1");
    assert.equal(o["ledgerResult"], "blue");
    assert.deepEqual(o["ledgerEndorsers"], ["Org1MSP", "Org2MSP"]);
    const processed = codecs.ProcessedTransaction.decode(
      Buffer.from(String(o["ledgerProcessedTransaction"]), "base64"),
    );
    assert.equal(processed.validationCode, 0);
    assert.match(output, new RegExp(`LedgerTransaction asset-transaction: submitting transaction ${firstTxId}`));
    assert.deepEqual(
      transactions(sandbox).map((t) => [t.txId, t.codeName]),
      [[firstTxId, "VALID"]],
    );
    assert.equal(sandbox.worldState().get("asset-1")?.value.toString(), "blue");
  });

  it("refreshes from the ledger and changes nothing on a second up", async () => {
    outputs.push((await stack.refresh()).output);
    const refreshed = dynamicResources(await stack.exportState())[0]?.outputs;
    assert.deepEqual(
      [refreshed?.["txId"], refreshed?.["validationCode"], refreshed?.["blockNumber"]],
      [firstTxId, "VALID", "1"],
    );
    const up = await stack.up();
    outputs.push(up.output);
    assert.match(up.stdout, /^\s+3 unchanged$/m);
    assert.equal(up.outputs["ledgerTxId"], firstTxId);
    assert.equal(sandbox.transactionCount(), 1);
  });

  it("submits a new transaction (a replace) when the args change: two on the ledger", async () => {
    await stack.setConfig({
      ledgerFunction: { value: "UpdateAsset" },
      ledgerArgs: { value: JSON.stringify(["asset-1", "red"]) },
    });
    const preview = await stack.preview();
    outputs.push(preview.output);
    assert.equal(changeSummary(preview.events)["replace"], 1);
    const up = await stack.up();
    outputs.push(up.output);
    assert.notEqual(up.outputs["ledgerTxId"], firstTxId);
    assert.equal(up.outputs["ledgerValidationCode"], "VALID");
    assert.equal(up.outputs["ledgerResult"], "red");
    assert.deepEqual(
      transactions(sandbox).map((t) => [t.txId, t.codeName]),
      [
        [firstTxId, "VALID"],
        [up.outputs["ledgerTxId"], "VALID"],
      ],
    );
    assert.equal(dynamicResources(await stack.exportState()).length, 1);
  });

  it("fails with MVCC_READ_CONFLICT when a concurrent writer updates the key while the resource submits", async () => {
    const writer = sandbox.newClientIdentity("Org1MSP", "writer");
    const writerGateway = connect({
      address: sandbox.address,
      identity: newIdentity(writer.mspId, writer.certificatePem),
      signer: newPrivateKeySigner(writer.privateKeyPem),
      trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
    });
    let written: Promise<unknown> | undefined;
    onHold = () => {
      // Our transaction is held by the orderer (endorsed against asset-1's current version); the writer commits first.
      onHold = undefined;
      sandbox.setFaults({ commitDelayMs: 0 });
      written = writerGateway.submitTransaction({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "UpdateAsset",
        args: ["asset-1", "yellow"],
      });
    };
    try {
      sandbox.setFaults({ commitDelayMs: HOLD_MS });
      await stack.setConfig({ ledgerArgs: { value: JSON.stringify(["asset-1", "green"]) } });
      const before = transactions(sandbox).length;
      const failed = await stack.up({ allowFailure: true });
      outputs.push(failed.output);
      assert.notEqual(failed.code, 0);
      await written;
      assert.match(
        failed.stdout,
        /validation code MVCC_READ_CONFLICT \(11\): a key read during simulation was changed by a transaction committed in between/,
      );
      const made = transactions(sandbox).slice(before);
      assert.deepEqual(
        made.map((t) => t.codeName),
        ["VALID", "MVCC_READ_CONFLICT"],
      );
      assert.equal(sandbox.worldState().get("asset-1")?.value.toString(), "yellow");
      // The invalid transaction changed nothing; the next up submits a new one (its txId is burnt).
      const up = await stack.up();
      outputs.push(up.output);
      assert.equal(up.outputs["ledgerValidationCode"], "VALID");
      assert.match(up.stdout, /was committed earlier as MVCC_READ_CONFLICT; submitting a new transaction/);
      assert.equal(transactions(sandbox).length, before + 3);
      assert.equal(sandbox.worldState().get("asset-1")?.value.toString(), "green");
    } finally {
      onHold = undefined;
      sandbox.setFaults({ commitDelayMs: 0 });
      writerGateway.close();
    }
  });

  it("keeps the private key and transient data out of state and output except as Pulumi secrets", async () => {
    const deployment = await stack.exportState({ showSecrets: true });
    const plain = plainStrings(deployment).join("\n");
    const secrets = JSON.stringify(deployment);
    const printed = outputs.join("\n");
    assert.ok(outputs.length >= 7, "every command's output is checked");
    for (const line of keyLines(me.privateKeyPem)) {
      assert.ok(secrets.includes(line), "the key is in the state as a secret (read and delete need it)");
      assert.ok(!plain.includes(line), "no key bytes outside a secret");
      assert.ok(!printed.includes(line), "no key bytes in what the CLI printed");
    }
    assert.ok(!plain.includes(TRANSIENT));
    assert.ok(!printed.includes(TRANSIENT));
    // At rest (the CLI's logs as written, the backend's stacks, history and backups) only ciphertext. With
    // privateKeyPem the key is a Pulumi secret in the state, so `pulumi logs decrypt` and `stack export
    // --show-secrets` do show it: test/e2e/ledger-signers.test.ts covers the references, which leave no key anywhere.
    const atRest = stackFilesAtRest(stack);
    assert.ok(atRest.includes(firstTxId), "the scan reads the backend's files");
    for (const line of keyLines(me.privateKeyPem)) assert.ok(!atRest.includes(line), "no key bytes at rest");
    assert.ok(!atRest.includes(TRANSIENT));
    const submission = dynamicResources(await stack.exportState())[0];
    assert.equal(submission?.outputs?.["transientData"], undefined);
  });
});

describe("examples/ledger after kill -9 of pulumi up (pulumi CLI, Fabric sandbox)", function () {
  this.timeout(600_000);

  it("adopts the committed transaction on the re-run: exactly one transaction with that txId", async () => {
    const sandbox = await startFabricSandbox({
      sleep: (ms) => {
        onHold?.();
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const me = sandbox.newClientIdentity("Org1MSP", "deployer");
    const stack = await initProjectStack({
      projectDir: PROJECT,
      config: stackConfig(sandbox, me, "CreateAsset", ["asset-9", "violet"]),
    });
    try {
      let cliPid: number | undefined;
      let killed = false;
      onHold = () => {
        // The orderer holds our submitted transaction: kill the whole `pulumi up` now, mid-submit.
        if (cliPid === undefined || killed) return;
        killed = killCommand(cliPid, "tree").killed.length > 0;
      };
      sandbox.setFaults({ commitDelayMs: HOLD_MS });
      const interrupted = await stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) });
      assert.ok(killed, "the kill happened while the orderer held the transaction");
      assert.notEqual(interrupted.code, 0);
      await waitFor(() => sandbox.transactionCount() === 1, 30_000, "the held transaction to commit");
      const committed = transactions(sandbox)[0];
      assert.equal(committed?.codeName, "VALID");
      assert.equal((await stack.exportState()).pending_operations?.length, 1);

      const locked = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
      assert.match(locked.output, /delete the lock file with `pulumi cancel`/);
      await stack.run(["cancel", "--yes"]);
      await stack.refresh({ clearPendingCreates: true });
      assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
      const { outputs, stdout } = await stack.up();
      assert.equal(outputs["ledgerTxId"], committed.txId);
      assert.equal(outputs["ledgerValidationCode"], "VALID");
      assert.equal(outputs["ledgerResult"], "violet");
      assert.match(
        stdout,
        new RegExp(`adopted transaction ${committed.txId}, already committed in block 1 \\(VALID\\)`),
      );
      assert.equal(transactions(sandbox).filter((t) => t.txId === committed.txId).length, 1);
      assert.equal(sandbox.transactionCount(), 1);
    } finally {
      onHold = undefined;
      await stack.dispose();
      await sandbox.close();
    }
  });
});
