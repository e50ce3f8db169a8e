/**
 * The LedgerTransaction component's life from its first transaction on, through the real engine (examples/ledger, the
 * plain `pulumi` CLI) on real Fabric 2.5.16, one body per behaviour (test/helpers/ledger-component.ts): after the
 * first up (previewed with previewEndorse; what that preview and up show, test/e2e/ledger-component.test.ts asserts on
 * its own stack, on 2.5.16 too), a re-run and a refresh change nothing; new arguments make a new transaction (a replace);
 * allowInvalid records an invalid transaction with its code; onDestroy submits its compensating transaction exactly
 * once on destroy; a refused endorsement fails the update with the chaincode's words and orders nothing; and the
 * private key and transient data stay out of state and output except as Pulumi secrets.
 * What the provider sends is seen at the gateway proxy; the ledger is read through qscc.
 *
 * Not on the Fabric sandbox: its answers are held to real Fabric's at the client level by test/integration/
 * ledger-targets (the parity tables), and through the engine by test/e2e/ledger-signers.test.ts (a preview, up,
 * refresh and destroy with its onDestroy compensation for every signer kind), ledger-component.test.ts (MVCC, kill -9
 * adoption), ledger-migration, ledger-preview-plumbing and the ledger README's block (example-readmes).
 */
import { strict as assert } from "node:assert";
import { GATEWAY } from "../helpers/gateway-proxy";
import {
  componentStack,
  runWithConcurrentWriter,
  startComponentTarget,
  submits,
  submittedTxId,
  uniqueKey,
} from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { ledgerTargets } from "../helpers/ledger-targets";
import { changeSummary, dynamicResources } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { plainStrings } from "../helpers/sandbox-config";
import { stackFilesAtRest } from "../helpers/secrets-scan";

const TRANSIENT = "transient-value-never-in-state";

/** The base64 body lines of a PEM key: what must never appear outside a secret. */
function keyLines(pem: string): string[] {
  return pem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
}

/** A stack that has previewed and submitted CreateAsset(key, "blue"), and every command's output so far. */
interface Applied {
  readonly stack: ProjectStack;
  readonly key: string;
  readonly start: number;
  readonly txId: string;
  readonly outputs: string[];
}

/** The stack every test but the last three goes on using: its preview endorses (previewEndorse), as a user's may. */
async function applied(t: ComponentTarget): Promise<Applied> {
  const key = uniqueKey("life");
  const start = await t.reader.height();
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [key, "blue"],
    transientNote: TRANSIENT,
    previewEndorse: true,
  });
  const preview = await stack.preview({ diff: true });
  const up = await stack.up();
  assert.equal(up.outputs["ledgerValidationCode"], "VALID");
  return {
    stack,
    key,
    start,
    txId: String(up.outputs["ledgerTxId"]),
    outputs: [preview.output, up.output],
  };
}

/** refresh reads the transaction back from the ledger; a second up changes nothing and sends nothing to order. */
async function changesNothingOnRerun(t: ComponentTarget, a: Applied): Promise<void> {
  const block = await t.reader.blockOf(a.txId);
  const mark = t.proxy.calls.length;
  a.outputs.push((await a.stack.refresh()).output);
  const refreshed = dynamicResources(await a.stack.exportState())[0]?.outputs;
  assert.deepEqual(
    [refreshed?.["txId"], refreshed?.["validationCode"], refreshed?.["blockNumber"]],
    [a.txId, "VALID", String(block)],
  );
  assert.ok(t.proxy.paths(mark).includes(GATEWAY.evaluate), "refresh asked the ledger (qscc)");
  const upMark = t.proxy.calls.length;
  const up = await a.stack.up();
  a.outputs.push(up.output);
  assert.match(up.stdout, /^\s+3 unchanged$/m);
  assert.equal(up.outputs["ledgerTxId"], a.txId);
  assert.deepEqual(t.proxy.paths(upMark), [], "an unchanged up calls no gateway");
  assert.deepEqual(submits(t.proxy, mark), []);
  assert.deepEqual(
    (await t.reader.naming(a.key, a.start)).map((e) => [e.txId, e.codeName]),
    [[a.txId, "VALID"]],
  );
}

/** New arguments: the preview shows a replace, up submits a new transaction; both are on the ledger. */
async function replacesOnNewArguments(t: ComponentTarget, a: Applied): Promise<void> {
  await a.stack.setConfig({
    ledgerFunction: { value: "UpdateAsset" },
    ledgerArgs: { value: JSON.stringify([a.key, "red"]) },
  });
  const preview = await a.stack.preview();
  a.outputs.push(preview.output);
  assert.equal(changeSummary(preview.events)["replace"], 1);
  const mark = t.proxy.calls.length;
  const up = await a.stack.up();
  a.outputs.push(up.output);
  const txId = up.outputs["ledgerTxId"];
  assert.notEqual(txId, a.txId);
  assert.equal(up.outputs["ledgerValidationCode"], "VALID");
  assert.equal(up.outputs["ledgerResult"], "red");
  assert.deepEqual(submits(t.proxy, mark).map(submittedTxId), [txId]);
  assert.deepEqual(
    (await t.reader.naming(a.key, a.start)).map((e) => [e.txId, e.codeName, e.args[0]]),
    [
      [a.txId, "VALID", "CreateAsset"],
      [txId, "VALID", "UpdateAsset"],
    ],
  );
  assert.equal(await t.reader.evaluate("ReadAsset", a.key), "red");
  assert.equal(dynamicResources(await a.stack.exportState()).length, 1);
}

/** privateKeyPem and transient data: only as Pulumi secrets in the state, never in output or files at rest. */
async function keepsSecrets(t: ComponentTarget, a: Applied): Promise<void> {
  const deployment = await a.stack.exportState({ showSecrets: true });
  const plain = plainStrings(deployment).join("\n");
  const secrets = JSON.stringify(deployment);
  const printed = a.outputs.join("\n");
  assert.ok(a.outputs.length >= 6, "every command's output is checked");
  for (const line of keyLines(t.identity.privateKeyPem)) {
    assert.ok(secrets.includes(line), "the key is in the state as a secret (read and delete need it)");
    assert.ok(!plain.includes(line), "no key bytes outside a secret");
    assert.ok(!printed.includes(line), "no key bytes in what the CLI printed");
  }
  assert.ok(!plain.includes(TRANSIENT));
  assert.ok(!printed.includes(TRANSIENT));
  // At rest (the CLI's logs as written, the backend's stacks, history and backups) only ciphertext.
  // test/e2e/ledger-signers.test.ts covers the key references, which leave no key anywhere.
  const atRest = stackFilesAtRest(a.stack);
  assert.ok(atRest.includes(a.txId), "the scan reads the backend's files");
  for (const line of keyLines(t.identity.privateKeyPem)) assert.ok(!atRest.includes(line), "no key bytes at rest");
  assert.ok(!atRest.includes(TRANSIENT));
  assert.equal(dynamicResources(deployment)[0]?.outputs?.["transientData"], undefined);
}

/** With allowInvalid, a transaction committed as MVCC_READ_CONFLICT is the resource's outcome, not a failure. */
async function recordsInvalidWhenAllowed(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("allow");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "UpdateAsset", args: [key, "green"], allowInvalid: true });
  try {
    const { result, submitted } = await runWithConcurrentWriter(t, key, () => stack.up());
    const { outputs } = result;
    const [txId] = submitted;
    assert.ok(txId !== undefined && submitted.length === 1);
    assert.equal(outputs["ledgerTxId"], txId);
    assert.equal(outputs["ledgerValidationCode"], "MVCC_READ_CONFLICT");
    assert.equal(outputs["ledgerValidationCodeNumber"], 11);
    const block = await t.reader.blockOf(txId);
    assert.equal(outputs["ledgerBlockNumber"], String(block));
    assert.match(
      result.stdout,
      new RegExp(`transaction ${txId} committed in block ${String(block)}: MVCC_READ_CONFLICT`),
    );
    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => e.codeName),
      ["VALID", "VALID", "MVCC_READ_CONFLICT"],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "yellow", "the invalid transaction changed nothing");
    // Recorded: a re-run keeps it and submits nothing.
    const mark = t.proxy.calls.length;
    const again = await stack.up();
    assert.match(again.stdout, /^\s+3 unchanged$/m);
    assert.equal(again.outputs["ledgerValidationCode"], "MVCC_READ_CONFLICT");
    assert.deepEqual(submits(t.proxy, mark), []);
  } finally {
    await stack.dispose();
  }
}

/** A chaincode that refuses the proposal fails the update with its words and the refusing peer; nothing is ordered. */
async function failsOnRefusedEndorsement(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("refused");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "UpdateAsset", args: [key, "green"] });
  try {
    const mark = t.proxy.calls.length;
    const failed = await stack.up({ allowFailure: true });
    assert.notEqual(failed.code, 0);
    // The peer's address differs (the sandbox's peers are names, a real one's is its endpoint); the rest is Fabric's.
    assert.match(
      failed.stdout,
      new RegExp(
        "/gateway.Gateway/Endorse failed \\(gRPC 10\\): failed to endorse transaction, see attached details for more " +
          `info \\[Org1MSP@[\\w.-]+:\\d+: chaincode response 500, the asset ${key} does not exist\\]`,
      ),
    );
    assert.deepEqual(submits(t.proxy, mark), [], "nothing was submitted");
    assert.deepEqual(await t.reader.naming(key, start), []);
  } finally {
    await stack.dispose();
  }
}

/** destroy submits the onDestroy transaction once (VALID); the ledger keeps both transactions. */
async function compensatesOnDestroy(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("destroy");
  const start = await t.reader.height();
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [key, "blue"],
    onDestroy: { function: "DeleteAsset", args: [key] },
  });
  try {
    const up = await stack.up();
    const created = String(up.outputs["ledgerTxId"]);
    assert.equal(up.outputs["ledgerValidationCode"], "VALID");
    const mark = t.proxy.calls.length;
    const destroyed = await stack.destroy();
    const compensations = submits(t.proxy, mark);
    assert.equal(compensations.length, 1, "one Submit on destroy");
    const [compensation] = compensations.map(submittedTxId);
    assert.ok(compensation !== undefined);
    assert.equal(compensations[0]?.status, 0);
    assert.match(
      destroyed.output,
      new RegExp(`submitting transaction ${compensation} \\(${t.ledger.chaincode}\\.DeleteAsset on channel`),
    );
    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => [e.txId, e.codeName, e.args[0]]),
      [
        [created, "VALID", "CreateAsset"],
        [compensation, "VALID", "DeleteAsset"],
      ],
    );
    assert.equal(await t.reader.evaluate("AssetExists", key), "false");
    assert.deepEqual(dynamicResources(await stack.exportState()), []);
  } finally {
    await stack.dispose();
  }
}

for (const target of ledgerTargets().filter((f) => f.kind === "fabric")) {
  describe(`examples/ledger: a LedgerTransaction's life through the pulumi CLI (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    let a: Applied | undefined;
    before(async () => {
      t = await startComponentTarget(target);
      a = await applied(t);
    });
    after(async () => {
      await a?.stack.dispose();
      await t.close();
    });
    const first = (): Applied => {
      assert.ok(a !== undefined, "the first up ran");
      return a;
    };

    it("changes nothing on a re-run, and refresh reads the same transaction from the ledger", () =>
      changesNothingOnRerun(t, first()));
    it("submits a new transaction (a replace) when the arguments change: two on the ledger", () =>
      replacesOnNewArguments(t, first()));
    it("keeps the private key and transient data out of state and output except as Pulumi secrets", () =>
      keepsSecrets(t, first()));
    it("records a transaction committed as MVCC_READ_CONFLICT with its code when allowInvalid is set", () =>
      recordsInvalidWhenAllowed(t));
    it("submits the onDestroy transaction exactly once on destroy", () => compensatesOnDestroy(t));
    it("fails with the chaincode's refusal and the refusing peer, submitting nothing", () =>
      failsOnRefusedEndorsement(t));
  });
}
