/**
 * ledger.LedgerTransactions (many transactions in one resource) through the real engine (a user's project,
 * test/helpers/ledger-batch-project.ts, the plain `pulumi` CLI) on the Fabric sandbox and real Fabric 2.5.16, behind
 * the gateway proxy that shows every call and holds an answer where a point in time is needed:
 * - the preview shows each item's txId, and up submits exactly those, once, with no qscc lookup or read per item
 *   (the endorsing peers waited for once, by block height: decision 0050); reordering and inserting items changes no
 *   txId and submits only the new one; changing an item submits one new transaction for it; removing one sends
 *   nothing, and the preview says so;
 * - an item committed as MVCC_READ_CONFLICT fails the resource naming its key and code, the committed item stays
 *   recorded, and the next up submits the rest (a new transaction for the invalid item);
 * - kill -9 of the whole `pulumi up` with one item committed and the next submitted (the orderer accepted it; the
 *   proxy holds Submit's answer, so the provider cannot have asked its commit status): the re-run adopts both and
 *   submits only the third.
 */
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { evaluation, GATEWAY } from "../helpers/gateway-proxy";
import { batchStack, batchType, committedOf } from "../helpers/ledger-batch-project";
import type { BatchItem, BatchStack } from "../helpers/ledger-batch-project";
import { startComponentTarget, submits, submittedTxId, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { TYPESCRIPT, YAML, isProvider } from "../helpers/faces";
import type { Face } from "../helpers/faces";
import { isRunning, killCommand } from "../helpers/kill-stack";
import { ledgerTargets } from "../helpers/ledger-targets";
import { stripAnsi } from "../helpers/project-stack";

/** key → txId of each item the preview's step for the resource shows (its checked inputs). */
function previewedTxIds(events: readonly EngineEvent[], face: Face): Record<string, string> {
  const type = batchType(face);
  const step = events.find((e) => e.resourcePreEvent?.metadata.type === type)?.resourcePreEvent?.metadata;
  const items = (step?.new?.inputs["transactions"] ?? []) as { key: string; txId?: string }[];
  return Object.fromEntries(items.map((i) => [i.key, i.txId ?? "(none)"]));
}

const create = (key: string, value: string): BatchItem => ({ key, function: "CreateAsset", args: [key, value] });

/** The sandbox through both faces; real Fabric 2.5.16 through the component. */
const RUNS = ledgerTargets(["2.5.16"]).flatMap((target) =>
  (target.kind === "sandbox" ? [TYPESCRIPT, YAML] : [TYPESCRIPT]).map((face) => ({
    target,
    face,
  })),
);

for (const { target, face } of RUNS) {
  describe(`LedgerTransactions through the pulumi CLI (${target.label}, ${face.key})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      t = await startComponentTarget(target);
    });
    after(async () => {
      await t.close();
    });

    it("previews each item's txId and submits exactly those once; reorder, insert, change and remove", async () => {
      const [a, b, c] = [uniqueKey("a"), uniqueKey("b"), uniqueKey("c")];
      const s: BatchStack = await batchStack(t, [create(a, "red"), create(b, "blue")], { face });
      try {
        const preview = await s.stack.preview();
        const planned = previewedTxIds(preview.events, face);
        assert.deepEqual(Object.keys(planned), [a, b]);
        for (const txId of Object.values(planned)) assert.match(txId, /^[0-9a-f]{64}$/);
        assert.ok(
          stripAnsi(preview.stdout).includes(
            `LedgerTransactions batch: 2 to submit: ${a} → ${String(planned[a])}, ${b} → ${String(planned[b])}`,
          ),
          `the preview names each item's txId:\n${preview.stdout}`,
        );
        let mark = t.proxy.calls.length;
        const first = await s.stack.up();
        assert.deepEqual(
          committedOf(first.outputs).map((x) => [x.key, x.txId, x.validationCode, x.validationCodeNumber]),
          [
            [a, planned[a], "VALID", 0],
            [b, planned[b], "VALID", 0],
          ],
        );
        assert.deepEqual(submits(t.proxy, mark).map(submittedTxId).sort(), [planned[a], planned[b]].sort());
        // An item makes a script's calls: no qscc lookup or read of its txId (decision 0050); the endorsing peers
        // are waited for once, by their chain's height.
        const asked = t.proxy.calls
          .slice(mark)
          .filter((call) => call.path === GATEWAY.evaluate)
          .map((call) => evaluation(call));
        assert.deepEqual(
          asked.filter((e) => e.args[0] === "GetTransactionByID"),
          [],
          "no GetTransactionByID per item",
        );
        assert.ok(
          asked.some((e) => e.args[0] === "GetChainInfo" && e.targets.length === 1),
          `the endorsing peers' heights are asked: ${JSON.stringify(asked)}`,
        );
        mark = t.proxy.calls.length;
        await s.stack.refresh();
        assert.deepEqual(
          t.proxy.paths(mark),
          [GATEWAY.evaluate, GATEWAY.evaluate],
          "refresh reads each recorded txId back through qscc, and nothing else",
        );

        // Reordered, with an item inserted first: the two keep their txIds; only the new one is submitted.
        await s.setItems([create(c, "green"), create(b, "blue"), create(a, "red")]);
        const again = previewedTxIds((await s.stack.preview()).events, face);
        assert.equal(again[a], planned[a]);
        assert.equal(again[b], planned[b]);
        assert.match(again[c] ?? "", /^[0-9a-f]{64}$/);
        mark = t.proxy.calls.length;
        const inserted = await s.stack.up();
        assert.deepEqual(submits(t.proxy, mark).map(submittedTxId), [again[c]]);
        assert.deepEqual(
          committedOf(inserted.outputs).map((x) => [x.key, x.txId]),
          [
            [c, again[c]],
            [b, planned[b]],
            [a, planned[a]],
          ],
        );

        // b's transaction changes: one new transaction for b, none for the others.
        await s.setItems([
          create(c, "green"),
          { key: b, function: "UpdateAsset", args: [b, "black"] },
          create(a, "red"),
        ]);
        const changed = previewedTxIds((await s.stack.preview()).events, face);
        assert.notEqual(changed[b], planned[b]);
        assert.deepEqual([changed[a], changed[c]], [planned[a], again[c]]);
        mark = t.proxy.calls.length;
        const updated = await s.stack.up();
        assert.deepEqual(submits(t.proxy, mark).map(submittedTxId), [changed[b]]);
        assert.equal(committedOf(updated.outputs).find((x) => x.key === b)?.txId, changed[b]);
        assert.equal(await t.reader.evaluate("ReadAsset", b), "black");

        // a leaves the list: the preview says its transaction stays on the ledger; up sends nothing.
        await s.setItems([create(c, "green"), { key: b, function: "UpdateAsset", args: [b, "black"] }]);
        const removing = await s.stack.preview();
        assert.match(
          stripAnsi(removing.stdout),
          new RegExp(`'${a}' is no longer listed: its transaction ${String(planned[a])} stays on the ledger`),
        );
        mark = t.proxy.calls.length;
        const removed = await s.stack.up();
        assert.deepEqual(
          t.proxy.paths(mark).filter((p) => p !== GATEWAY.evaluate),
          [],
          "removing an item endorses and submits nothing",
        );
        assert.deepEqual(
          committedOf(removed.outputs).map((x) => x.key),
          [c, b],
        );
        assert.equal(await t.reader.evaluate("ReadAsset", a), "red");
      } finally {
        await s.dispose();
      }
    });

    it("an MVCC_READ_CONFLICT item fails the resource by key and code; the committed stay recorded; up submits the rest", async () => {
      const [ok1, conflict, ok3] = [uniqueKey("ok1"), uniqueKey("mvcc"), uniqueKey("ok3")];
      const writer = t.ledger.connectOurs({ mspId: t.ledger.organizations[1] ?? "" });
      const write = (fn: string, value: string) =>
        writer.submitTransaction({
          channelId: t.ledger.channel,
          chaincodeName: t.ledger.chaincode,
          functionName: fn,
          args: [conflict, value],
        });
      const s = await batchStack(
        t,
        [
          create(ok1, "red"),
          { key: conflict, function: "UpdateAsset", args: [conflict, "green"] },
          create(ok3, "blue"),
        ],
        { ordered: true, face },
      );
      try {
        const created = await write("CreateAsset", "white");
        await t.reader.settled(Number(created.status.blockNumber));
        const mark = t.proxy.calls.length;
        // In list order, the conflicting item's Endorse is the second: hold its answer until another client's
        // update of the key is committed, so the item is submitted with an out-of-date read.
        const firstEndorse = t.proxy.nextRequest((call) => call.path === GATEWAY.endorse);
        const running = s.stack.up({ allowFailure: true });
        await firstEndorse;
        const held = t.proxy.hold(GATEWAY.endorse);
        let concurrent: string;
        try {
          await Promise.race([held.reached, running.then((r) => assert.fail(`up ended first:\n${r.output}`))]);
          concurrent = (await write("UpdateAsset", "yellow")).transactionId;
        } finally {
          held.release();
        }
        const failed = await running;
        assert.notEqual(failed.code, 0);
        const submitted = submits(t.proxy, mark).map(submittedTxId);
        assert.equal(submitted.length, 2, "ok1 and the conflicting item were submitted; ok3 was not started");
        const [ok1TxId, conflicted] = submitted;
        const out = stripAnsi(failed.output).replace(/\s+/g, " ");
        assert.match(out, /LedgerTransactions batch: 1 of 3 transactions failed; 1 not started/);
        assert.match(
          out,
          new RegExp(
            `'${conflict}': LedgerTransaction [^ ]+: transaction ${String(conflicted)} was committed in block \\d+ with validation code MVCC_READ_CONFLICT \\(11\\)`,
          ),
        );
        assert.match(
          out,
          /An invalid transaction changes nothing on the ledger; run the update again to submit a new transaction/,
        );
        assert.doesNotMatch(out, /allowInvalid/, "a list item has no allowInvalid to offer");
        assert.equal(await t.reader.evaluate("ReadAsset", conflict), "yellow");
        assert.ok(concurrent !== "");
        // The engine recorded the committed item with the error (ErrorResourceInitFailed).
        const state = await s.stack.exportState();
        const resource = state.resources?.find((r) => r.type === batchType(face));
        assert.deepEqual(
          ((resource?.outputs?.["committed"] ?? []) as { key: string; txId: string }[]).map((x) => [x.key, x.txId]),
          [[ok1, ok1TxId]],
        );

        // The next up submits a new transaction for the invalid item and the one not started; ok1 is not sent.
        const again = t.proxy.calls.length;
        const up = await s.stack.up();
        const resubmitted = submits(t.proxy, again).map(submittedTxId);
        const committed = committedOf(up.outputs);
        assert.deepEqual(
          committed.map((x) => [x.key, x.validationCode]),
          [
            [ok1, "VALID"],
            [conflict, "VALID"],
            [ok3, "VALID"],
          ],
        );
        assert.deepEqual(resubmitted, [committed[1]?.txId, committed[2]?.txId]);
        assert.notEqual(committed[1]?.txId, conflicted);
        assert.equal(await t.reader.evaluate("ReadAsset", conflict), "green");
      } finally {
        writer.close();
        await s.dispose();
      }
    });

    it("kill -9 with one item committed and the next submitted: the re-run adopts both and submits only the rest", async () => {
      const keys = [uniqueKey("k1"), uniqueKey("k2"), uniqueKey("k3")];
      const s = await batchStack(
        t,
        keys.map((k) => create(k, "violet")),
        { ordered: true, face },
      );
      try {
        const start = await t.reader.height();
        const mark = t.proxy.calls.length;
        const firstSubmit = t.proxy.nextRequest((call) => call.path === GATEWAY.submit);
        let cliPid: number | undefined;
        const running = s.stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) });
        await Promise.race([firstSubmit, running.then((r) => assert.fail(`up ended first:\n${r.output}`))]);
        // In list order, the next Submit is the second item's, sent once the first is committed.
        const held = t.proxy.hold(GATEWAY.submit);
        const call = await Promise.race([
          held.reached,
          running.then((r) => assert.fail(`up ended first:\n${r.output}`)),
        ]);
        assert.equal(call.status, 0, "the orderer accepted the second item");
        assert.ok(cliPid !== undefined);
        const kill = killCommand(cliPid, "tree");
        assert.ok(
          kill.killed.some((p) => isProvider(face, p)),
          "the provider process was killed",
        );
        assert.equal((await running).signal, "SIGKILL");
        await kill.gone();
        assert.deepEqual(
          kill.killed.filter((p) => isRunning(p)),
          [],
        );
        held.release();
        const [tx1, tx2] = submits(t.proxy, mark).map(submittedTxId);
        assert.ok(tx1 !== undefined && tx2 !== undefined);
        // Proven points: the first item is committed VALID; the second reaches the ledger without the provider (the
        // gateway's CommitStatus answers once it is committed, as the creator asks it).
        const ours = t.ledger.connectOurs();
        let second;
        try {
          second = await ours.getCommitStatus(t.ledger.channel, tx2, { deadline: Date.now() + 120_000 });
        } finally {
          ours.close();
        }
        assert.equal(second.codeName, "VALID");
        await t.reader.settled(Number(second.blockNumber));
        assert.equal((await t.reader.processed(tx1))?.getValidationcode(), 0);
        assert.equal((await s.stack.exportState()).pending_operations?.length, 1, "the create is pending");

        await s.stack.run(["cancel", "--yes"]);
        await s.stack.refresh({ clearPendingCreates: true });
        const after = t.proxy.calls.length;
        const up = await s.stack.up();
        const committed = committedOf(up.outputs);
        assert.deepEqual(
          committed.map((x) => [x.key, x.validationCode]),
          keys.map((k) => [k, "VALID"]),
        );
        assert.deepEqual(
          committed.slice(0, 2).map((x) => x.txId),
          [tx1, tx2],
        );
        const out = stripAnsi(up.stdout);
        for (const txId of [tx1, tx2]) assert.match(out, new RegExp(`adopted transaction ${txId}, already committed`));
        assert.deepEqual(submits(t.proxy, after).map(submittedTxId), [committed[2]?.txId], "only the third was sent");
        const entries = await t.reader.entries(start);
        for (const x of committed) {
          assert.deepEqual(
            entries.filter((e) => e.txId === x.txId).map((e) => e.codeName),
            ["VALID"],
            `exactly one entry of ${x.key}'s transaction`,
          );
        }
      } finally {
        await s.dispose();
      }
    });
  });
}
