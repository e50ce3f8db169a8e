/**
 * examples/ledger (ledger.LedgerTransaction) on the real Pulumi engine against an in-process Fabric sandbox: preview
 * shows the txId, up (VALID), up again (no change), args changed (a new transaction), an MVCC conflict made by a
 * concurrent writer, secrets in state and output, and kill -9 mid-submit (the re-run adopts the committed transaction).
 */
import { strict as assert } from "node:assert";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { codecs, connect, newIdentity, newPrivateKeySigner } from "../../provider/ledger";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox, SandboxIdentity } from "../../sandbox/fabric";
import { createThrowawayStack, dynamicResources } from "../helpers/pulumi-harness";
import type { ThrowawayStack } from "../helpers/pulumi-harness";
import { killPulumiUp, waitFor } from "../helpers/kill-stack";
import { plainStrings } from "../helpers/sandbox-config";
// eslint-disable-next-line @typescript-eslint/no-require-imports -- examples/ledger uses `export =`
import ledgerProgram = require("../../examples/ledger");

const TRANSIENT = "transient-value-never-in-state";
const HOLD_MS = 3000;

/** The sandbox's orderer calls `sleep` while it holds a submitted transaction: the hook marks "mid-submit". */
let onHold: (() => void) | undefined;

function stackConfig(
  project: string,
  sandbox: FabricSandbox,
  me: SandboxIdentity,
  fn: string,
  args: string[],
): ConfigMap {
  return {
    [`${project}:ledgerGateway`]: { value: sandbox.address },
    [`${project}:ledgerChannel`]: { value: sandbox.channel },
    [`${project}:ledgerChaincode`]: { value: sandbox.chaincode },
    [`${project}:ledgerFunction`]: { value: fn },
    [`${project}:ledgerArgs`]: { value: JSON.stringify(args) },
    [`${project}:ledgerMspId`]: { value: me.mspId },
    [`${project}:ledgerCertificatePem`]: { value: me.certificatePem },
    [`${project}:ledgerPrivateKeyPem`]: { value: me.privateKeyPem, secret: true },
    [`${project}:ledgerTransientData`]: { value: JSON.stringify({ note: TRANSIENT }), secret: true },
    [`${project}:ledgerTrustedRootCertificates`]: { value: JSON.stringify(sandbox.caCertificates) },
  };
}

function transactions(sandbox: FabricSandbox) {
  return sandbox.blocks().flatMap((b) => b.transactions.map((t) => ({ ...t, block: b.number })));
}

/** The base64 body lines of a PEM key: what must never appear outside a secret. */
function keyLines(pem: string): string[] {
  return pem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
}

async function upFailure(stack: ThrowawayStack): Promise<string> {
  return stack.up().then(
    () => "completed",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}

describe("examples/ledger: LedgerTransaction (real engine, Fabric sandbox)", function () {
  this.timeout(600_000);
  let sandbox: FabricSandbox;
  let me: SandboxIdentity;
  let stack: ThrowawayStack;
  const project = "ledger-e2e";

  before(async () => {
    sandbox = await startFabricSandbox({
      sleep: (ms) => {
        onHold?.();
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    me = sandbox.newClientIdentity("Org1MSP", "deployer");
    stack = await createThrowawayStack({
      projectName: project,
      program: ledgerProgram,
      config: {
        ...stackConfig(project, sandbox, me, "CreateAsset", ["asset-1", "blue"]),
        [`${project}:ledgerPreviewEndorse`]: { value: "true" },
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
    assert.equal(preview.changeSummary["create"], 3); // stack, component, submission
    const shown = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.output)?.[1];
    assert.ok(shown, preview.output);
    firstTxId = shown;
    assert.match(preview.output, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"blue"/);
    assert.equal(sandbox.transactionCount(), 0);
  });

  it("submits on up: VALID, with the previewed txId, block, result, endorsers and the ProcessedTransaction", async () => {
    const { outputs, output } = await stack.up();
    assert.equal(outputs["ledgerTxId"]?.value, firstTxId);
    assert.equal(outputs["ledgerValidationCode"]?.value, "VALID");
    assert.equal(outputs["ledgerValidationCodeNumber"]?.value, 0);
    assert.equal(outputs["ledgerBlockNumber"]?.value, "1");
    assert.equal(outputs["ledgerResult"]?.value, "blue");
    assert.deepEqual(outputs["ledgerEndorsers"]?.value, ["Org1MSP", "Org2MSP"]);
    const processed = codecs.ProcessedTransaction.decode(
      Buffer.from(String(outputs["ledgerProcessedTransaction"]?.value), "base64"),
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
    await stack.refresh();
    const refreshed = dynamicResources(await stack.exportState())[0]?.outputs;
    assert.deepEqual(
      [refreshed?.["txId"], refreshed?.["validationCode"], refreshed?.["blockNumber"]],
      [firstTxId, "VALID", "1"],
    );
    const { outputs, output } = await stack.up();
    assert.match(output, /3 unchanged/);
    assert.equal(outputs["ledgerTxId"]?.value, firstTxId);
    assert.equal(sandbox.transactionCount(), 1);
  });

  it("submits a new transaction (a replace) when the args change: two on the ledger", async () => {
    await stack.setConfig({
      [`${project}:ledgerFunction`]: { value: "UpdateAsset" },
      [`${project}:ledgerArgs`]: { value: JSON.stringify(["asset-1", "red"]) },
    });
    const preview = await stack.preview();
    assert.equal(preview.changeSummary["replace"], 1);
    const { outputs } = await stack.up();
    assert.notEqual(outputs["ledgerTxId"]?.value, firstTxId);
    assert.equal(outputs["ledgerValidationCode"]?.value, "VALID");
    assert.equal(outputs["ledgerResult"]?.value, "red");
    assert.deepEqual(
      transactions(sandbox).map((t) => [t.txId, t.codeName]),
      [
        [firstTxId, "VALID"],
        [outputs["ledgerTxId"]?.value, "VALID"],
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
      await stack.setConfig({ [`${project}:ledgerArgs`]: { value: JSON.stringify(["asset-1", "green"]) } });
      const before = transactions(sandbox).length;
      const message = await upFailure(stack);
      await written;
      assert.match(
        message,
        /validation code MVCC_READ_CONFLICT \(11\): a key read during simulation was changed by a transaction committed in between/,
      );
      const made = transactions(sandbox).slice(before);
      assert.deepEqual(
        made.map((t) => t.codeName),
        ["VALID", "MVCC_READ_CONFLICT"],
      );
      assert.equal(sandbox.worldState().get("asset-1")?.value.toString(), "yellow");
      // The invalid transaction changed nothing; the next up submits a new one (its txId is burnt).
      const { outputs, output } = await stack.up();
      assert.equal(outputs["ledgerValidationCode"]?.value, "VALID");
      assert.match(output, /was committed earlier as MVCC_READ_CONFLICT; submitting a new transaction/);
      assert.equal(transactions(sandbox).length, before + 3);
      assert.equal(sandbox.worldState().get("asset-1")?.value.toString(), "green");
    } finally {
      onHold = undefined;
      sandbox.setFaults({ commitDelayMs: 0 });
      writerGateway.close();
    }
  });

  it("keeps the private key and transient data out of state and output except as Pulumi secrets", async () => {
    const exported = await stack.cli(["stack", "export", "--show-secrets"]);
    assert.equal(exported.code, 0, exported.stderr);
    const deployment = JSON.parse(exported.stdout) as unknown;
    const plain = plainStrings(deployment).join("\n");
    const secrets = JSON.stringify(deployment);
    for (const line of keyLines(me.privateKeyPem)) {
      assert.ok(secrets.includes(line), "the key is in the state as a secret (read and delete need it)");
      assert.ok(!plain.includes(line), "no key bytes outside a secret");
      assert.ok(!stack.lastOutput().includes(line));
    }
    assert.ok(!plain.includes(TRANSIENT));
    assert.ok(!stack.lastOutput().includes(TRANSIENT));
    const submission = dynamicResources(await stack.exportState())[0];
    assert.equal(submission?.outputs?.["transientData"], undefined);
  });
});

describe("examples/ledger after kill -9 of pulumi up (real engine, Fabric sandbox)", function () {
  this.timeout(600_000);

  it("adopts the committed transaction on the re-run: exactly one transaction with that txId", async () => {
    const sandbox = await startFabricSandbox({
      sleep: (ms) => {
        onHold?.();
        return new Promise((resolve) => setTimeout(resolve, ms));
      },
    });
    const me = sandbox.newClientIdentity("Org1MSP", "deployer");
    const project = "ledger-crash";
    const stack = await createThrowawayStack({
      projectName: project,
      program: ledgerProgram,
      config: stackConfig(project, sandbox, me, "CreateAsset", ["asset-9", "violet"]),
    });
    try {
      let held = false;
      onHold = () => {
        held = true;
      };
      sandbox.setFaults({ commitDelayMs: HOLD_MS });
      const run = upFailure(stack);
      await waitFor(() => held, 120_000, "the transaction to reach the orderer");
      killPulumiUp(stack.stack.name, "tree");
      assert.notEqual(await run, "completed");
      await waitFor(() => sandbox.transactionCount() === 1, 30_000, "the held transaction to commit");
      const committed = transactions(sandbox)[0];
      assert.equal(committed?.codeName, "VALID");
      assert.equal((await stack.exportState()).pending_operations?.length, 1);

      const cancel = await stack.cli(["cancel", "--yes"]);
      assert.equal(cancel.code, 0, cancel.stderr);
      await stack.refresh({ clearPendingCreates: true });
      assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
      const { outputs, output } = await stack.up();
      assert.equal(outputs["ledgerTxId"]?.value, committed.txId);
      assert.equal(outputs["ledgerValidationCode"]?.value, "VALID");
      assert.equal(outputs["ledgerResult"]?.value, "violet");
      assert.match(
        output,
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
