/**
 * A LedgerTransactions refresh (ledger-transactions-refresh.ts): the recorded txIds looked up with a bound on the
 * lookups in flight (an injected lookup the test settles by hand: it records the count, no timing), each once; a
 * failed lookup names its item and the others' answers are kept; and the read itself through a scripted gateway on
 * 127.0.0.1, one qscc call per recorded item, an item the ledger lacks leaving the outputs.
 */
import { strict as assert } from "node:assert";
import { connect } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import type { LedgerTransactionsCommitted } from "../../../provider/resources/ledger/ledger-shapes";
import { ledgerTransactionsProvider } from "../../../provider/resources/ledger/ledger-transactions";
import { lookUpRecorded, refreshFailure } from "../../../provider/resources/ledger/ledger-transactions-refresh";
import {
  DEFAULT_MAX_IN_FLIGHT,
  lookupLimit,
  submissionLimit,
} from "../../../provider/resources/ledger/ledger-transactions-inputs";
import type { LedgerTransactionsOutputs } from "../../../provider/resources/ledger/ledger-transactions-inputs";
import { startFakeGateway } from "../ledger/fake-gateway";
import { newMember, newOrg, NOW } from "../ledger/fixtures";

const URN = "urn:pulumi:dev::demo::pulumi-nodejs:dynamic/ledger:LedgerTransactions::batch";

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const recorded = (key: string, txId = key.padStart(64, "0")): LedgerTransactionsCommitted => ({
  key,
  txId,
  validationCode: "VALID",
  validationCodeNumber: 0,
  blockNumber: "5",
});

describe("LedgerTransactions refresh lookups", () => {
  it("looks every recorded txId up once, at most the limit at once; found kept, absent missing", async () => {
    const committed = Array.from({ length: 40 }, (_, i) => recorded(`k${String(i)}`));
    const asked: string[] = [];
    const waiting: (() => void)[] = [];
    const state = { inFlight: 0, peak: 0 };
    // Every third txId is not on the ledger.
    const find = (txId: string): Promise<unknown> => {
      asked.push(txId);
      state.inFlight++;
      state.peak = Math.max(state.peak, state.inFlight);
      const absent = (asked.length - 1) % 3 === 2;
      return new Promise<unknown>((resolve) => {
        waiting.push(() => {
          resolve(absent ? undefined : { validationCode: 0 });
        });
      }).finally(() => state.inFlight--);
    };
    const run = lookUpRecorded(committed, 16, find);
    await turn();
    assert.equal(asked.length, 16);
    while (waiting.length > 0) {
      waiting.shift()?.();
      await turn();
      assert.ok(state.inFlight <= 16, `in flight: ${String(state.inFlight)}`);
    }
    const found = await run;
    assert.equal(state.peak, 16);
    assert.deepEqual(
      asked,
      committed.map((c) => c.txId),
      "each txId once, in list order",
    );
    assert.deepEqual(
      found.missing.map((c) => c.key),
      committed.filter((_, i) => i % 3 === 2).map((c) => c.key),
    );
    assert.deepEqual(
      found.kept.map((c) => c.key),
      committed.filter((_, i) => i % 3 !== 2).map((c) => c.key),
    );
    assert.deepEqual(found.failed, []);
  });

  it("reports a failed lookup with its item and keeps the others' answers; the error names the item", async () => {
    const committed = ["a", "b", "c", "d"].map((k) => recorded(k));
    const unavailable = new GatewayError({
      code: 14,
      details: [],
      method: "/gateway.Gateway/Evaluate",
      message: "Connection dropped",
    });
    const find = (txId: string): Promise<unknown> => {
      if (txId === committed[1]?.txId) return Promise.reject(unavailable);
      return Promise.resolve(txId === committed[2]?.txId ? undefined : { validationCode: 0 });
    };
    const found = await lookUpRecorded(committed, 2, find);
    assert.deepEqual(
      found.kept.map((c) => c.key),
      ["a", "d"],
    );
    assert.deepEqual(
      found.missing.map((c) => c.key),
      ["c"],
    );
    assert.deepEqual(found.failed, [{ item: committed[1], error: unavailable }]);
    const error = refreshFailure("LedgerTransactions batch", found);
    assert.ok(error instanceof LedgerError);
    assert.equal(
      error.message,
      `LedgerTransactions batch: refresh could not read 1 of 4 recorded transactions back, so the state is unchanged: ` +
        `'b' (${committed[1]?.txId ?? ""}): /gateway.Gateway/Evaluate failed (gRPC 14): Connection dropped`,
    );
    assert.equal(error.transactionId, committed[1]?.txId);
    assert.equal(error.cause, unavailable);
  });

  it("groups failed items by what they failed with and names the first 20 of each", () => {
    const failed = Array.from({ length: 25 }, (_, i) => ({
      item: recorded(`k${String(i)}`, `t${String(i)}`),
      error: new Error(i === 3 ? "other" : "down"),
    }));
    const error = refreshFailure("LedgerTransactions batch", { kept: [recorded("x")], missing: [], failed });
    const down = failed
      .filter((_, i) => i !== 3)
      .slice(0, 20)
      .map((f) => `'${f.item.key}' (${f.item.txId})`)
      .join(", ");
    assert.equal(
      error.message,
      "LedgerTransactions batch: refresh could not read 25 of 26 recorded transactions back, so the state is " +
        `unchanged: ${down} and 4 more: down; 'k3' (t3): other`,
    );
    assert.equal(error.transactionId, undefined);
  });

  it("uses maxInFlight for lookups whether or not the batch is ordered; submissions one at a time when ordered", () => {
    assert.deepEqual(
      [lookupLimit({}), lookupLimit({ maxInFlight: 4 }), submissionLimit({ maxInFlight: 4 })],
      [DEFAULT_MAX_IN_FLIGHT, 4, 4],
    );
    assert.deepEqual([lookupLimit({ maxInFlight: 4 }), submissionLimit({ ordered: true, maxInFlight: 4 })], [4, 1]);
  });
});

describe("LedgerTransactions read (a scripted gateway on 127.0.0.1)", () => {
  it("asks qscc once per recorded item; one the ledger lacks leaves the outputs", async () => {
    const org = await newOrg("Org1MSP");
    const client = await newMember(org, "deployer");
    const fake = await startFakeGateway({ endorsers: [await newMember(org, "peer0")] });
    try {
      const gateway = connect({
        address: fake.address,
        identity: client.identity,
        signer: client.signer,
        trustedMsps: [{ mspId: "Org1MSP", rootCertificates: [org.caPem] }],
        now: NOW,
      });
      const submitted = await gateway
        .submitTransaction({
          channelId: "opsledger",
          chaincodeName: "assets",
          functionName: "CreateAsset",
          args: ["a"],
        })
        .finally(() => {
          gateway.close();
        });
      const [a, b] = [recorded("a", submitted.transactionId), recorded("b", "f".repeat(64))];
      const props = {
        __urn: URN,
        gateway: { address: fake.address },
        channel: "opsledger",
        chaincode: "assets",
        identity: { mspId: "Org1MSP", certificatePem: Buffer.from(client.identity.credentials).toString("utf8") },
        credentials: { privateKeyPem: client.privateKeyPem },
        trustedRootCertificates: { Org1MSP: org.caPem },
        transactions: [],
        maxInFlight: 2,
        committed: [a, b],
        __planned: { a: a.txId, b: b.txId },
        __generations: { a: 1, b: 1 },
      } satisfies LedgerTransactionsOutputs;
      const mark = fake.calls.length;
      const result = await ledgerTransactionsProvider.read("batch-id", props);
      assert.deepEqual(result, {
        id: "batch-id",
        props: { ...props, committed: [a], __planned: { a: a.txId }, __generations: { a: 1 } },
      });
      assert.deepEqual(
        fake.calls.slice(mark).map((c) => [c.method, c.signatureValid]),
        [
          ["Evaluate", true],
          ["Evaluate", true],
        ],
      );
    } finally {
      await fake.close();
    }
  });
});
