/**
 * Our gateway client and the official @hyperledger/fabric-gateway client side by side on the same target — the
 * sandbox, real Fabric 2.5 and real Fabric 3.1: the same operations give the same results, codes and errors
 * (evaluate, submit, commit status, chaincode events, an endorsement failure, a chaincode error, a policy failure,
 * qscc), and each client reads what the other wrote, through the other organization's gateway.
 */
import { strict as assert } from "node:assert";
import * as official from "@hyperledger/fabric-gateway";
import { type ChaincodeEvent } from "../../../provider/ledger/chaincode-events";
import { codecs } from "../../../provider/ledger/codec";
import { CommitError } from "../../../provider/errors/ledger/commit-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { ledgerTargets, type LedgerTarget, type OfficialConnection } from "../../helpers/ledger-targets";
import { call, failure, submitEverywhere, TARGET_TEST_TIMEOUT_MS, text, uniqueKey } from "./helpers";

/** The gateway's own words in an error of either client: without the client's prefix and our details suffix. */
function serverMessage(error: unknown): string {
  assert.ok(error instanceof Error);
  if (error instanceof official.GatewayError) return error.message.replace(/^\d+ [A-Z_]+: /, "");
  assert.ok(error instanceof GatewayError, String(error));
  const text = error.message.replace(/^\/gateway\.Gateway\/\w+ failed \(gRPC \d+\): /, "");
  const suffix = error.details.map((d) => `${d.mspId}@${d.address}: ${d.message}`).join("; ");
  return suffix === "" ? text : text.slice(0, -(suffix.length + 3));
}

/** What both clients' gateway errors carry: the gRPC code, the gateway's message, the ErrorDetails. */
function gatewayFailure(error: unknown): [number, string, unknown[]] {
  assert.ok(error instanceof GatewayError || error instanceof official.GatewayError, String(error));
  const details = error.details.map((d) => ({ address: d.address, mspId: d.mspId, message: d.message }));
  return [error.code, serverMessage(error), details];
}

type EventTuple = [bigint, string, string, string, string];

async function eventTuples(
  events: AsyncIterable<official.ChaincodeEvent | ChaincodeEvent> & { close(): void },
  txIds: readonly string[],
): Promise<EventTuple[]> {
  const pending = new Set(txIds);
  const seen: EventTuple[] = [];
  try {
    for await (const e of events) {
      if (!txIds.includes(e.transactionId)) continue;
      seen.push([e.blockNumber, e.chaincodeName, e.transactionId, e.eventName, text(e.payload)]);
      pending.delete(e.transactionId);
      if (pending.size === 0) break;
    }
  } finally {
    events.close();
  }
  return seen;
}

for (const target of ledgerTargets(["2.5.16", "3.1.5"])) {
  describe(`our client and the official client side by side on ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let ours: Gateway;
    let theirs: OfficialConnection;
    let contract: official.Contract;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      ours = ledger.connectOurs();
      theirs = ledger.connectOfficial();
      contract = theirs.gateway.getNetwork(ledger.channel).getContract(ledger.chaincode);
    });
    after(async () => {
      ours.close();
      theirs.close();
      await ledger.close();
    });

    it("evaluates to the same bytes through both clients", async () => {
      const prefix = uniqueKey("range");
      await ours.submitTransaction(call(ledger, "PutAsset", [`${prefix}-a`, "alpha"]));
      await contract.submitTransaction("PutAsset", `${prefix}-b`, "beta");
      for (const [fn, args] of [
        ["ReadAsset", [`${prefix}-a`]],
        ["AssetExists", [`${prefix}-b`]],
        ["AssetExists", [`${prefix}-z`]],
        ["GetAssetsByRange", [`${prefix}-`, `${prefix}.`]],
      ] as const) {
        const mine = Buffer.from(await ours.evaluateTransaction(call(ledger, fn, args)));
        assert.deepEqual(mine, Buffer.from(await contract.evaluateTransaction(fn, ...args)), fn);
      }
      assert.equal(
        text(await contract.evaluateTransaction("GetAssetsByRange", `${prefix}-`, `${prefix}.`)),
        JSON.stringify([
          { key: `${prefix}-a`, value: "alpha" },
          { key: `${prefix}-b`, value: "beta" },
        ]),
      );
    });

    it("submits through both with the same result and status, and each reads the other's write and commit status", async () => {
      const [mine, yours] = [uniqueKey("ours"), uniqueKey("official")];
      const transaction = await ours.newProposal(call(ledger, "CreateAsset", [mine, "blue"])).endorse();
      const commit = await transaction.submit();
      const ourStatus = await commit.getStatus();
      const other = ledger.connectOfficial("Org2MSP");
      const submitted = await other.gateway
        .getNetwork(ledger.channel)
        .getContract(ledger.chaincode)
        .submitAsync("CreateAsset", { arguments: [yours, "red"] });
      const theirStatus = await submitted.getStatus();
      other.close();
      assert.deepEqual([text(transaction.getResult()), text(submitted.getResult())], ["blue", "red"]);
      assert.deepEqual(
        [ourStatus.code, ourStatus.successful, theirStatus.code, theirStatus.successful],
        [0, true, 0, true],
      );
      await ledger.waitForBlock(theirStatus.blockNumber);
      await ledger.waitForBlock(ourStatus.blockNumber);
      // Ours reads the official client's write (made through Org2's gateway) through Org1's, and its commit status.
      assert.equal(text(await ours.evaluateTransaction(call(ledger, "ReadAsset", [yours]))), "red");
      const theirsSeenByUs = await ours.getCommitStatus(ledger.channel, submitted.getTransactionId());
      assert.deepEqual([theirsSeenByUs.code, theirsSeenByUs.blockNumber], [theirStatus.code, theirStatus.blockNumber]);
      // The official client reads ours, and answers our own commit status request, signed by itself.
      assert.equal(text(await contract.evaluateTransaction("ReadAsset", mine)), "blue");
      const oursSeenByThem = await theirs.gateway.newCommit(commit.getBytes()).getStatus();
      assert.deepEqual(oursSeenByThem, {
        blockNumber: ourStatus.blockNumber,
        code: 0,
        successful: true,
        transactionId: transaction.getTransactionId(),
      });
    });

    it("streams the same chaincode events through both clients from the same start block", async () => {
      const key = uniqueKey("events");
      // Each write is on both organizations' peers before the next endorsement reads it.
      const created = await submitEverywhere(ledger, ours, call(ledger, "CreateAsset", [key, "1"]));
      const updated = await contract.submitAsync("UpdateAsset", { arguments: [key, "2"] });
      await ledger.waitForBlock((await updated.getStatus()).blockNumber);
      const deleted = await ours.submitTransaction(call(ledger, "DeleteAsset", [key]));
      const ids = [created.transactionId, updated.getTransactionId(), deleted.transactionId];
      const start = { startBlock: created.status.blockNumber };
      const mine = await eventTuples(await ours.getChaincodeEvents(ledger.channel, ledger.chaincode, start), ids);
      const yours = await eventTuples(
        await theirs.gateway.getNetwork(ledger.channel).getChaincodeEvents(ledger.chaincode, start),
        ids,
      );
      assert.deepEqual(mine, yours);
      assert.deepEqual(
        mine.map(([, chaincode, id, name, payload]) => [chaincode, id, name, payload]),
        [
          [ledger.chaincode, ids[0], "AssetCreated", key],
          [ledger.chaincode, ids[1], "AssetUpdated", key],
          [ledger.chaincode, ids[2], "AssetDeleted", key],
        ],
      );
    });

    it("fails endorsement of a chaincode error with the same code, message and ErrorDetails", async () => {
      const key = uniqueKey("exists");
      await contract.submitTransaction("CreateAsset", key, "blue");
      const mine = await failure(ours.submitTransaction(call(ledger, "CreateAsset", [key, "red"])));
      const yours = await failure(contract.submitTransaction("CreateAsset", key, "red"));
      assert.ok(mine instanceof EndorseError && yours instanceof official.EndorseError);
      assert.deepEqual(gatewayFailure(mine), gatewayFailure(yours));
      assert.deepEqual(gatewayFailure(mine).slice(0, 2), [
        10,
        "failed to endorse transaction, see attached details for more info",
      ]);
    });

    it("fails evaluation of a chaincode error with the same code, message and ErrorDetails", async () => {
      const key = uniqueKey("missing");
      const mine = await failure(ours.evaluateTransaction(call(ledger, "ReadAsset", [key])));
      const yours = await failure(contract.evaluateTransaction("ReadAsset", key));
      assert.deepEqual(gatewayFailure(mine), gatewayFailure(yours));
      assert.deepEqual(gatewayFailure(mine).slice(0, 2), [
        2,
        `evaluate call to endorser returned error: chaincode response 500, the asset ${key} does not exist`,
      ]);
      const unknown = "f".repeat(64);
      const notFoundByUs = await failure(ours.getTransactionById(ledger.channel, unknown));
      const notFoundByThem = await failure(
        theirs.gateway
          .getNetwork(ledger.channel)
          .getContract("qscc")
          .evaluateTransaction("GetTransactionByID", ledger.channel, unknown),
      );
      assert.deepEqual(gatewayFailure(notFoundByUs), gatewayFailure(notFoundByThem));
    });

    it("fails a transaction endorsed by one organization with CommitError ENDORSEMENT_POLICY_FAILURE in both", async () => {
      const only = { endorsingOrganizations: ["Org1MSP"] };
      const mine = await failure(ours.submitTransaction(call(ledger, "PutAsset", [uniqueKey("p"), "v"], only)));
      const yours = await failure(contract.submit("PutAsset", { arguments: [uniqueKey("p"), "v"], ...only }));
      assert.ok(mine instanceof CommitError && yours instanceof official.CommitError);
      assert.deepEqual([mine.validationCode, yours.code], [10, 10]);
      assert.equal(
        yours.message,
        `Transaction ${yours.transactionId} failed to commit with status code 10 (ENDORSEMENT_POLICY_FAILURE)`,
      );
      assert.ok(
        mine.message.startsWith(
          `Transaction ${mine.transactionId} failed to commit with status code 10 (ENDORSEMENT_POLICY_FAILURE): `,
        ),
      );
      assert.equal(
        (await ours.getCommitStatus(ledger.channel, yours.transactionId)).codeName,
        "ENDORSEMENT_POLICY_FAILURE",
      );
    });

    it("reports the same commit status for an invalid transaction (MVCC_READ_CONFLICT) in both", async () => {
      const key = uniqueKey("mvcc");
      const seed = await contract.submitAsync("PutAsset", { arguments: [key, "blue"] });
      await ledger.waitForBlock((await seed.getStatus()).blockNumber);
      const first = await contract.newProposal("UpdateAsset", { arguments: [key, "green"] }).endorse();
      const second = await contract.newProposal("UpdateAsset", { arguments: [key, "red"] }).endorse();
      await (await first.submit()).getStatus();
      const theirStatus = await (await second.submit()).getStatus();
      const ourStatus = await ours.getCommitStatus(ledger.channel, second.getTransactionId());
      assert.deepEqual(
        [theirStatus.code, theirStatus.successful, theirStatus.blockNumber],
        [ourStatus.code, ourStatus.successful, ourStatus.blockNumber],
      );
      assert.deepEqual([ourStatus.code, ourStatus.codeName], [11, "MVCC_READ_CONFLICT"]);
    });

    it("reads the same ProcessedTransaction through qscc in both, byte for byte", async () => {
      const submitted = await contract.submitAsync("PutAsset", { arguments: [uniqueKey("qscc"), "v"] });
      await submitted.getStatus();
      const raw = await theirs.gateway
        .getNetwork(ledger.channel)
        .getContract("qscc")
        .evaluateTransaction("GetTransactionByID", ledger.channel, submitted.getTransactionId());
      const decoded = await ours.getTransactionById(ledger.channel, submitted.getTransactionId());
      assert.deepEqual(Buffer.from(codecs.ProcessedTransaction.encode(decoded)), Buffer.from(raw));
    });
  });
}
