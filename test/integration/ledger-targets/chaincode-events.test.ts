/**
 * Chaincode events through our gateway client (provider/ledger/chaincode-events.ts) against every ledger target: from
 * a start block, from the next commit, after a checkpointed transaction; only valid transactions' events; close and
 * abort; the gateway's refusals. On a shared network other workers' transactions emit events too, so each test
 * follows its own transactions' ids.
 */
import { strict as assert } from "node:assert";
import {
  type ChaincodeEvent,
  type Checkpoint,
  type CloseableAsyncIterable,
} from "../../../provider/ledger/chaincode-events";
import { ChaincodeEventsError } from "../../../provider/errors/ledger/chaincode-events-error";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { startFabricSandbox } from "../../../sandbox/fabric";
import { ledgerTargets, type LedgerTarget } from "../../helpers/ledger-targets";
import { call, failure, submitEverywhere, TARGET_TEST_TIMEOUT_MS, text, uniqueKey } from "./helpers";

type Seen = [bigint, string, string, string];

/** Reads events until every id in `txIds` has been seen; returns the events of those transactions, in order. */
async function eventsOf(events: CloseableAsyncIterable<ChaincodeEvent>, txIds: readonly string[]): Promise<Seen[]> {
  const wanted = new Set(txIds);
  const seen: Seen[] = [];
  const pending = new Set(txIds);
  for await (const event of events) {
    if (!wanted.has(event.transactionId)) continue;
    seen.push([event.blockNumber, event.transactionId, event.eventName, text(event.payload)]);
    pending.delete(event.transactionId);
    if (pending.size === 0) break;
  }
  return seen;
}

for (const target of ledgerTargets()) {
  describe(`chaincode events through our gateway client against ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
    });
    after(async () => {
      gateway.close();
      await ledger.close();
    });

    /** Every peer has the block afterwards: the next endorsement may read the write on either organization's peer. */
    const submit = (fn: string, args: readonly string[]) => submitEverywhere(ledger, gateway, call(ledger, fn, args));

    it("streams the events of committed transactions from a start block, in block order, with their payloads", async () => {
      const key = uniqueKey("events");
      const created = await submit("CreateAsset", [key, "blue"]);
      const updated = await submit("UpdateAsset", [key, "green"]);
      const deleted = await submit("DeleteAsset", [key]);
      const events = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode, {
        startBlock: created.status.blockNumber,
      });
      try {
        const ids = [created, updated, deleted].map((s) => s.transactionId);
        assert.deepEqual(await eventsOf(events, ids), [
          [created.status.blockNumber, created.transactionId, "AssetCreated", key],
          [updated.status.blockNumber, updated.transactionId, "AssetUpdated", key],
          [deleted.status.blockNumber, deleted.transactionId, "AssetDeleted", key],
        ]);
      } finally {
        events.close();
      }
    });

    it("starts at the next committed block when no start is given: an earlier transaction's event never comes", async () => {
      const before = await submit("PutAsset", [uniqueKey("before"), "x"]);
      const events = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode);
      try {
        const key = uniqueKey("next");
        const after = await submit("PutAsset", [key, "y"]);
        const iterator = events[Symbol.asyncIterator]();
        let first: ChaincodeEvent | undefined;
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) {
          assert.notEqual(next.value.transactionId, before.transactionId);
          if (next.value.transactionId === after.transactionId) {
            first = next.value;
            break;
          }
        }
        assert.deepEqual(
          [first?.blockNumber, first?.eventName, text(first?.payload ?? new Uint8Array())],
          [after.status.blockNumber, "AssetPut", key],
        );
      } finally {
        events.close();
      }
    });

    it("resumes after a checkpointed transaction: its event and those before it are skipped", async () => {
      const key = uniqueKey("checkpoint");
      const done = await submit("PutAsset", [key, "1"]);
      const next = await submit("PutAsset", [key, "2"]);
      const last = await submit("PutAsset", [key, "3"]);
      const checkpoint: Checkpoint = {
        getBlockNumber: () => done.status.blockNumber,
        getTransactionId: () => done.transactionId,
      };
      // startBlock 0 is overridden by the checkpoint's block.
      const events = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode, { startBlock: 0n, checkpoint });
      try {
        const seen = await eventsOf(events, [next.transactionId, last.transactionId]);
        assert.deepEqual(
          seen.map(([block, id]) => [block, id]),
          [
            [next.status.blockNumber, next.transactionId],
            [last.status.blockNumber, last.transactionId],
          ],
        );
      } finally {
        events.close();
      }
    });

    it("sends no event of a transaction that committed invalid (MVCC_READ_CONFLICT)", async () => {
      const key = uniqueKey("invalid");
      const seed = await submit("PutAsset", [key, "blue"]);
      const winner = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "green"])).endorse();
      const loser = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "red"])).endorse();
      const winnerStatus = await (await winner.submit()).getStatus();
      const loserStatus = await (await loser.submit()).getStatus();
      assert.deepEqual([winnerStatus.codeName, loserStatus.codeName], ["VALID", "MVCC_READ_CONFLICT"]);
      const sentinel = await submit("PutAsset", [key, "after"]);
      const events = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode, {
        startBlock: seed.status.blockNumber,
      });
      const ids = [seed, { transactionId: winner.getTransactionId() }, { transactionId: loser.getTransactionId() }];
      const seen: string[] = [];
      try {
        for await (const event of events) {
          if (ids.some((t) => t.transactionId === event.transactionId)) seen.push(event.transactionId);
          if (event.transactionId === sentinel.transactionId) break;
        }
      } finally {
        events.close();
      }
      assert.deepEqual(seen, [seed.transactionId, winner.getTransactionId()]);
    });

    it("ends the iteration when closed while waiting, and rejects with the abort reason when aborted", async () => {
      const closing = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode);
      const waiting = closing[Symbol.asyncIterator]().next();
      closing.close();
      assert.deepEqual(await waiting, { done: true, value: undefined });

      const controller = new AbortController();
      const aborted = await gateway.getChaincodeEvents(ledger.channel, ledger.chaincode, {
        signal: controller.signal,
      });
      const pending = aborted[Symbol.asyncIterator]().next();
      const reason = new Error("no longer needed");
      controller.abort(reason);
      assert.equal(await failure(pending), reason);
    });

    it("refuses events of a channel that does not exist, and a client of another CA (the channel's Readers)", async () => {
      const elsewhere = await gateway.getChaincodeEvents("elsewhere", ledger.chaincode, { startBlock: 0n });
      const missing = await failure(eventsOf(elsewhere, ["-"]));
      assert.ok(missing instanceof ChaincodeEventsError);
      assert.deepEqual(
        [missing.code, missing.message, missing.channelId, missing.chaincodeName],
        [
          7,
          "/gateway.Gateway/ChaincodeEvents failed (gRPC 7): Failed to get policy manager for channel [elsewhere]",
          "elsewhere",
          ledger.chaincode,
        ],
      );
      const foreign = await startFabricSandbox({ organizations: ["Org1MSP"] });
      const stranger = ledger.connectOurs({ identity: foreign.newClientIdentity("Org1MSP") });
      try {
        const denied = await failure(
          eventsOf(await stranger.getChaincodeEvents(ledger.channel, ledger.chaincode, { startBlock: 0n }), ["-"]),
        );
        assert.ok(denied instanceof ChaincodeEventsError);
        assert.deepEqual([denied.code, denied.details], [7, []]);
        assert.match(denied.message, /with policy \[\/Channel\/Application\/Readers\]/);
      } finally {
        stranger.close();
        await foreign.close();
      }
    });

    it("serves events to a peer identity, a member of the channel's Readers", async () => {
      const key = uniqueKey("peer-reader");
      const put = await submit("PutAsset", [key, "v"]);
      const peer = ledger.connectOurs({ identity: ledger.peer("Org1MSP") });
      try {
        const events = await peer.getChaincodeEvents(ledger.channel, ledger.chaincode, {
          startBlock: put.status.blockNumber,
        });
        try {
          assert.deepEqual(await eventsOf(events, [put.transactionId]), [
            [put.status.blockNumber, put.transactionId, "AssetPut", key],
          ]);
        } finally {
          events.close();
        }
      } finally {
        peer.close();
      }
    });
  });
}
