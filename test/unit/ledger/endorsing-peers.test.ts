import { strict as assert } from "node:assert";
import { codecs } from "../../../provider/ledger/codec";
import type { Gateway, ProposalRequest } from "../../../provider/ledger/gateway-client";
import { awaitPeersAtBlock } from "../../../provider/ledger/endorsing-peers";
import { awaitEndorsingPeers, DEFAULT_ENDORSER_CATCH_UP_MS } from "../../../provider/ledger/endorsing-peers";

const TX = "a".repeat(64);

/** A gateway whose qscc answers for `mspId` only from its n-th question on (Infinity: never). */
function gatewayAnsweringFrom(
  from: Readonly<Record<string, number>>,
  asked: ProposalRequest[],
): Pick<Gateway, "evaluateTransaction"> {
  return {
    evaluateTransaction(request) {
      asked.push(request);
      const mspId = request.targetOrganizations?.[0] ?? "";
      const count = asked.filter((r) => r.targetOrganizations?.[0] === mspId).length;
      if (count >= (from[mspId] ?? 1)) return Promise.resolve(new Uint8Array([1]));
      return Promise.reject(new Error(`no such transaction ID [${TX}] in index`));
    },
  };
}

function fakeClock(): { now: () => number; sleep: (ms: number) => Promise<void>; pauses: number[] } {
  let t = 0;
  const pauses: number[] = [];
  return {
    now: () => t,
    sleep: (ms) => {
      pauses.push(ms);
      t += ms;
      return Promise.resolve();
    },
    pauses,
  };
}

describe("LedgerTransaction: waiting for the endorsing organizations' peers after a commit", () => {
  it("asks each endorsing organization's peer through qscc, targeted at it, until it reports the transaction", async () => {
    const asked: ProposalRequest[] = [];
    const clock = fakeClock();
    const gateway = gatewayAnsweringFrom({ Org1MSP: 1, Org2MSP: 3 }, asked) as Gateway;
    const behind = await awaitEndorsingPeers(gateway, "opsledger", TX, ["Org1MSP", "Org2MSP"], clock);
    assert.deepEqual(behind, []);
    assert.deepEqual(
      asked.map((r) => [r.targetOrganizations, r.chaincodeName, r.functionName, r.args]),
      [
        [["Org1MSP"], "qscc", "GetTransactionByID", ["opsledger", TX]],
        [["Org2MSP"], "qscc", "GetTransactionByID", ["opsledger", TX]],
        [["Org2MSP"], "qscc", "GetTransactionByID", ["opsledger", TX]],
        [["Org2MSP"], "qscc", "GetTransactionByID", ["opsledger", TX]],
      ],
      "an organization that answered is not asked again",
    );
    assert.deepEqual(clock.pauses, [50, 100], "growing pauses between rounds");
  });

  it("returns at once when every peer has it, and asks each organization once", async () => {
    const asked: ProposalRequest[] = [];
    const clock = fakeClock();
    const gateway = gatewayAnsweringFrom({}, asked) as Gateway;
    assert.deepEqual(await awaitEndorsingPeers(gateway, "c", TX, ["Org1MSP", "Org2MSP", "Org1MSP"], clock), []);
    assert.equal(asked.length, 2);
    assert.deepEqual(clock.pauses, []);
  });

  it("gives up after the wait and names the organizations whose peer never reported the transaction", async () => {
    const asked: ProposalRequest[] = [];
    const clock = fakeClock();
    const gateway = gatewayAnsweringFrom({ Org2MSP: Infinity }, asked) as Gateway;
    const behind = await awaitEndorsingPeers(gateway, "c", TX, ["Org1MSP", "Org2MSP"], clock);
    assert.deepEqual(behind, ["Org2MSP"]);
    assert.equal(clock.now(), DEFAULT_ENDORSER_CATCH_UP_MS, "the whole wait, not a moment more");
    assert.deepEqual(clock.pauses.slice(0, 6), [50, 100, 200, 400, 800, 1000]);
    assert.ok(clock.pauses.every((p) => p <= 1000));
  });
});

/** A gateway whose GetChainInfo for `mspId` answers the heights of `heights[mspId]` in turn (then the last). */
function gatewayAtHeights(
  heights: Readonly<Record<string, readonly bigint[]>>,
  asked: ProposalRequest[],
): Pick<Gateway, "evaluateTransaction"> {
  return {
    evaluateTransaction(request) {
      asked.push(request);
      const mspId = request.targetOrganizations?.[0] ?? "";
      const answers = heights[mspId] ?? [];
      const count = asked.filter((r) => r.targetOrganizations?.[0] === mspId).length;
      const height = answers[Math.min(count, answers.length) - 1];
      if (height === undefined) return Promise.reject(new Error("peer unreachable"));
      const info = { height, currentBlockHash: new Uint8Array(32), previousBlockHash: new Uint8Array(32) };
      return Promise.resolve(codecs.BlockchainInfo.encode(info));
    },
  };
}

describe("LedgerTransactions: one wait for the endorsing organizations' peers per batch (block height)", () => {
  it("asks each organization's peer for its chain's height until it is past the block, once per round", async () => {
    const asked: ProposalRequest[] = [];
    const clock = fakeClock();
    const gateway = gatewayAtHeights({ Org1MSP: [13n], Org2MSP: [11n, 12n, 13n] }, asked) as Gateway;
    assert.deepEqual(await awaitPeersAtBlock(gateway, "opsledger", 12n, ["Org1MSP", "Org2MSP", "Org1MSP"], clock), []);
    assert.deepEqual(
      asked.map((r) => [r.targetOrganizations, r.chaincodeName, r.functionName, r.args]),
      [
        [["Org1MSP"], "qscc", "GetChainInfo", ["opsledger"]],
        [["Org2MSP"], "qscc", "GetChainInfo", ["opsledger"]],
        [["Org2MSP"], "qscc", "GetChainInfo", ["opsledger"]],
        [["Org2MSP"], "qscc", "GetChainInfo", ["opsledger"]],
      ],
      "height 12 has not committed block 12; 13 has",
    );
    assert.deepEqual(clock.pauses, [50, 100]);
  });

  it("names the organizations whose peer stayed below the block, or did not answer, after the whole wait", async () => {
    const asked: ProposalRequest[] = [];
    const clock = fakeClock();
    const gateway = gatewayAtHeights({ Org1MSP: [4n], Org3MSP: [] }, asked) as Gateway;
    const behind = await awaitPeersAtBlock(gateway, "c", 5n, ["Org1MSP", "Org3MSP"], clock);
    assert.deepEqual(behind, ["Org1MSP", "Org3MSP"]);
    assert.equal(clock.now(), DEFAULT_ENDORSER_CATCH_UP_MS);
  });
});
