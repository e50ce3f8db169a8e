/**
 * The LedgerTransaction component's behaviours through the real engine (examples/ledger, the plain `pulumi` CLI), one
 * body per behaviour, run on every target that shows them: test/e2e/ledger-component.test.ts (the Fabric sandbox,
 * Raft 2.5.16 and 3.1.5) and test/e2e/ledger-component-bft.test.ts (3.1.5 with SmartBFT ordering). Each body also runs
 * through the resource plugin (`face` YAML: examples/ledger's YAML twin, test/helpers/faces.ts), in
 * test/e2e/ledger-plugin.test.ts. Everything is observed through the gateway proxy and read back through qscc, the
 * same way on every target and face.
 */
import { strict as assert } from "node:assert";
import { isRunning, killCommand } from "./kill-stack";
import { TYPESCRIPT, isProvider } from "./faces";
import type { Face } from "./faces";
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
import { assertPreviewedAndSubmittedValid, previewAndSubmit, VALID_VALUE } from "./ledger-component-valid";
import type { PreviewedSubmission } from "./ledger-component-valid";
import type { ProjectStack } from "./project-stack";

/** The transient data (`{ note }`) of the VALID and kill bodies' stacks. */
export const TRANSIENT = "transient-value-never-in-state";

/**
 * preview shows the txId and the simulated result; up submits exactly that transaction once: VALID (on 2.5.16 the
 * first up of test/e2e/ledger-component-lifecycle.test.ts's stack is asserted the same way). `inspect` then looks at
 * the stack as the preview and up left it (before it is removed).
 */
export async function submitsValid(
  t: ComponentTarget,
  face: Face = TYPESCRIPT,
  inspect?: (stack: ProjectStack, submission: PreviewedSubmission) => Promise<void>,
): Promise<void> {
  const key = uniqueKey("valid");
  const start = await t.reader.height();
  const stack = await componentStack(
    t,
    {
      fn: "CreateAsset",
      args: [key, VALID_VALUE],
      transientNote: TRANSIENT,
      previewEndorse: true,
    },
    face,
  );
  try {
    const submission = await previewAndSubmit(t, stack, key, start, face);
    await assertPreviewedAndSubmittedValid(t, submission);
    await inspect?.(stack, submission);
  } finally {
    await stack.dispose();
  }
}

/**
 * The component's UpdateAsset is endorsed against the key's current version; before it is submitted, another
 * organization's client commits its own update of the key; the component's transaction is then committed as
 * MVCC_READ_CONFLICT and the update fails with that code. The next `up` submits a new transaction, VALID.
 */
export async function failsOnReadConflict(t: ComponentTarget, face: Face = TYPESCRIPT): Promise<void> {
  const key = uniqueKey("mvcc");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "UpdateAsset", args: [key, "green"] }, face);
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
export async function adoptsAfterKill(t: ComponentTarget, face: Face = TYPESCRIPT): Promise<void> {
  const key = uniqueKey("kill");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "violet"], transientNote: TRANSIENT }, face);
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
    // (the dynamic-provider plugin's launcher and its Node process; or pulumi-resource-opsledger)
    const providers = kill.killed.filter((p) => isProvider(face, p));
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
