/**
 * The LedgerTransaction component's behaviours through the real engine (examples/ledger, the plain `pulumi` CLI), one
 * body per behaviour, run against every target by test/e2e/ledger-component.test.ts and on a SmartBFT network by
 * test/e2e/ledger-component-bft.test.ts: VALID with the txId the preview showed; MVCC_READ_CONFLICT from a concurrent
 * writer that commits between the component's endorsement and its submission (the gateway proxy holds the
 * endorsement's answer until the writer's transaction is committed); kill -9 of the whole `pulumi up` once the
 * transaction is committed but before the provider hears it (the proxy holds CommitStatus's answer), and the re-run
 * adopts it: one transaction on the ledger. Everything is observed through the proxy and read back through qscc.
 */
import { strict as assert } from "node:assert";
import { peer } from "@hyperledger/fabric-protos";
import { isRunning, killCommand, roleOf } from "./kill-stack";
import { GATEWAY } from "./gateway-proxy";
import {
  commitStatusOf,
  componentStack,
  runUntilHeld,
  runWithConcurrentWriter,
  submits,
  submittedTxId,
  uniqueKey,
} from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";
import { invocationArgs } from "./ledger-reader";
import { changeSummary, dynamicResources } from "./project-stack";

const TRANSIENT = "transient-value-never-in-state";

/** preview shows the txId and the simulated result; up submits exactly that transaction once: VALID. */
export async function submitsValid(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("valid");
  const start = await t.reader.height();
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [key, "blue"],
    transientNote: TRANSIENT,
    previewEndorse: true,
  });
  try {
    const previewMark = t.proxy.calls.length;
    const preview = await stack.preview({ diff: true });
    assert.deepEqual(changeSummary(preview.events), { create: 3 }); // stack, component, submission
    const txId = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.stdout)?.[1];
    assert.ok(txId, preview.stdout);
    assert.match(preview.stdout, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"blue"/);
    assert.ok(t.proxy.paths(previewMark).includes(GATEWAY.endorse), "the preview endorsed");
    assert.deepEqual(submits(t.proxy, previewMark), [], "the preview submitted nothing");
    assert.deepEqual(await t.reader.naming(key, start), []);

    const upMark = t.proxy.calls.length;
    const up = await stack.up();
    const o = up.outputs;
    assert.equal(o["ledgerTxId"], txId);
    assert.equal(o["ledgerValidationCode"], "VALID");
    assert.equal(o["ledgerValidationCodeNumber"], 0);
    assert.equal(o["ledgerResult"], "blue");
    assert.equal(o["ledgerBlockNumber"], String(await t.reader.blockOf(txId)));
    assert.deepEqual([...(o["ledgerEndorsers"] as string[])].sort(), ["Org1MSP", "Org2MSP"]);
    assert.match(up.output, new RegExp(`LedgerTransaction asset-transaction: submitting transaction ${txId}`));
    assert.deepEqual(submits(t.proxy, upMark).map(submittedTxId), [txId], "one Submit, of the previewed txId");

    // The ProcessedTransaction in the outputs is the peer's own answer to GetTransactionByID, byte for byte.
    const exported = Buffer.from(String(o["ledgerProcessedTransaction"]), "base64");
    const processed = peer.ProcessedTransaction.deserializeBinary(exported);
    assert.equal(processed.getValidationcode(), 0);
    assert.equal(invocationArgs(processed.getTransactionenvelope()?.serializeBinary() ?? new Uint8Array(0)).txId, txId);
    const fromPeer = await t.reader.processed(txId);
    assert.ok(fromPeer);
    assert.deepEqual(exported, Buffer.from(fromPeer.serializeBinary()));

    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => [e.txId, e.codeName, ...e.args]),
      [[txId, "VALID", "CreateAsset", key, "blue"]],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "blue");
    assert.equal(dynamicResources(await stack.exportState()).length, 1);
  } finally {
    await stack.dispose();
  }
}

/**
 * The component's UpdateAsset is endorsed against the key's current version; before it is submitted, another
 * organization's client commits its own update of the key; the component's transaction is then committed as
 * MVCC_READ_CONFLICT and the update fails with that code. The next `up` submits a new transaction, VALID.
 */
export async function failsOnReadConflict(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("mvcc");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "UpdateAsset", args: [key, "green"] });
  try {
    const {
      result: failed,
      created,
      concurrent,
      submitted,
    } = await runWithConcurrentWriter(t, key, () => stack.up({ allowFailure: true }));
    assert.notEqual(failed.code, 0);
    const [conflicted] = submitted;
    assert.ok(conflicted !== undefined && submitted.length === 1, "the component submitted its transaction once");
    assert.match(
      failed.stdout,
      new RegExp(
        `transaction ${conflicted} was committed in block \\d+ with validation code MVCC_READ_CONFLICT \\(11\\): ` +
          "a key read during simulation was changed by a transaction committed in between",
      ),
    );
    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => [e.txId, e.codeName, ...e.args]),
      [
        [created, "VALID", "CreateAsset", key, "white"],
        [concurrent, "VALID", "UpdateAsset", key, "yellow"],
        [conflicted, "MVCC_READ_CONFLICT", "UpdateAsset", key, "green"],
      ],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "yellow");

    // The invalid transaction changed nothing and burnt its txId: the next up submits a new one.
    await t.reader.settled(await t.reader.blockOf(conflicted));
    const up = await stack.up();
    assert.equal(up.outputs["ledgerValidationCode"], "VALID");
    assert.match(
      up.stdout,
      new RegExp(`transaction ${conflicted} was committed earlier as MVCC_READ_CONFLICT; submitting a new transaction`),
    );
    const entries = await t.reader.naming(key, start);
    assert.deepEqual(
      entries.slice(3).map((e) => [e.txId, e.codeName, ...e.args]),
      [[up.outputs["ledgerTxId"], "VALID", "UpdateAsset", key, "green"]],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "green");
  } finally {
    await stack.dispose();
  }
}

/**
 * kill -9 of the whole `pulumi up` (CLI, language host and program, provider) when the transaction is committed but
 * the provider has not heard it — the proxy holds CommitStatus's answer, so the engine cannot have written the
 * resource. `pulumi cancel`, `refresh --clear-pending-creates` and `up` then adopt the committed transaction: nothing
 * is submitted again, and the ledger holds exactly one transaction with that txId.
 */
export async function adoptsAfterKill(t: ComponentTarget): Promise<void> {
  const key = uniqueKey("kill");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "violet"], transientNote: TRANSIENT });
  try {
    const held = t.proxy.hold(GATEWAY.commitStatus);
    const mark = t.proxy.calls.length;
    let cliPid: number | undefined;
    const { call, command } = await runUntilHeld(
      stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) }),
      held,
      "the commit status of the submitted transaction",
    );
    const [submitted] = submits(t.proxy, mark);
    assert.ok(submitted !== undefined);
    assert.equal(submitted.status, 0, "the orderer accepted the transaction");
    const txId = submittedTxId(submitted);
    const committed = commitStatusOf(call);
    assert.equal(committed.code, 0, "the peer reports it committed VALID");
    assert.ok(cliPid !== undefined);
    const pid = cliPid;
    const kill = killCommand(pid, "tree");
    // (the plugin's launcher and its Node process)
    const providers = kill.killed.filter((p) => roleOf(p, pid) === "provider");
    assert.ok(providers.length > 0, "the provider process, waiting for the held answer, was killed");
    const interrupted = await command;
    assert.equal(interrupted.signal, "SIGKILL");
    // SIGKILL is delivered asynchronously: a multi-threaded Node process takes a moment to tear down. Bounded wait,
    // failing with the pids and states of what still runs.
    await kill.gone();
    assert.deepEqual(
      providers.filter((p) => isRunning(p)),
      [],
    );
    held.release(); // its client is gone: nothing to answer
    assert.equal((await stack.exportState()).pending_operations?.length, 1, "the create is pending in the state");

    const locked = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    assert.match(locked.output, /delete the lock file with `pulumi cancel`/);
    await stack.run(["cancel", "--yes"]);
    const after = t.proxy.calls.length;
    await stack.refresh({ clearPendingCreates: true });
    assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
    const { outputs, stdout } = await stack.up();
    assert.equal(outputs["ledgerTxId"], txId);
    assert.equal(outputs["ledgerValidationCode"], "VALID");
    assert.equal(outputs["ledgerResult"], "violet");
    assert.equal(outputs["ledgerBlockNumber"], String(committed.block));
    assert.match(
      stdout,
      new RegExp(`adopted transaction ${txId}, already committed in block ${String(committed.block)} \\(VALID\\)`),
    );
    assert.deepEqual(submits(t.proxy, after), [], "nothing was submitted after the kill");
    assert.deepEqual(
      (await t.reader.entries(start)).filter((e) => e.txId === txId).map((e) => [e.codeName, ...e.args]),
      [["VALID", "CreateAsset", key, "violet"]],
      "exactly one transaction with that txId on the ledger",
    );
  } finally {
    await stack.dispose();
  }
}
