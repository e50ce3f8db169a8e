import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { checkpointers, connect as connectOfficial, signers } from "@hyperledger/fabric-gateway";
import { ValidationError } from "../../../provider/errors/validation-error";
import { ChaincodeEventsError } from "../../../provider/errors/ledger/chaincode-events-error";
import type { ChaincodeEvent, CloseableAsyncIterable } from "../../../provider/ledger/chaincode-events";
import { connect } from "../../../provider/ledger/gateway-client";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { serializeIdentity } from "../../../provider/ledger/identity";
import { startFakeGateway } from "./fake-gateway";
import type { FakeEventsResponse, FakeGateway } from "./fake-gateway";
import { newMember, newOrg, NOW } from "./fixtures";
import type { TestMember } from "./fixtures";

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

const RESPONSES: FakeEventsResponse[] = [
  {
    blockNumber: 4,
    events: [
      { chaincodeId: "basic", txId: "tx-a", eventName: "Created", payload: "a" },
      { chaincodeId: "basic", txId: "tx-b", eventName: "Updated", payload: "b" },
    ],
  },
  { blockNumber: 9, events: [{ chaincodeId: "basic", txId: "tx-c", eventName: "Deleted", payload: "c" }] },
];

/** The events as plain tuples. */
function plain(events: readonly ChaincodeEvent[]): [bigint, string, string, string, string][] {
  return events.map((e) => [e.blockNumber, e.chaincodeName, e.transactionId, e.eventName, text(e.payload)]);
}

/** Reads `count` events, leaving the stream open. */
async function take(events: CloseableAsyncIterable<ChaincodeEvent>, count: number): Promise<ChaincodeEvent[]> {
  const iterator = events[Symbol.asyncIterator]();
  const out: ChaincodeEvent[] = [];
  while (out.length < count) {
    const next = await iterator.next();
    if (next.done === true) break;
    out.push(next.value);
  }
  return out;
}

describe("Gateway client chaincode events (against a scripted gateway on 127.0.0.1)", () => {
  let client: TestMember;
  let fake: FakeGateway;
  let gateway: Gateway;

  before(async () => {
    const org1 = await newOrg("Org1MSP");
    client = await newMember(org1, "client");
  });

  beforeEach(async () => {
    fake = await startFakeGateway({ endorsers: [], chaincodeEvents: { responses: RESPONSES } });
    gateway = connect({ address: fake.address, identity: client.identity, signer: client.signer, trustedMsps: [] });
  });

  afterEach(async () => {
    gateway.close();
    await fake.close();
  });

  it("sends a signed request for the chaincode from the start block and yields every event of each response", async () => {
    const events = await gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 4n });
    try {
      assert.deepEqual(plain(await take(events, 3)), [
        [4n, "basic", "tx-a", "Created", "a"],
        [4n, "basic", "tx-b", "Updated", "b"],
        [9n, "basic", "tx-c", "Deleted", "c"],
      ]);
    } finally {
      events.close();
    }
    const [call] = fake.eventsCalls;
    assert.ok(call !== undefined);
    assert.equal(call.signatureValid, true);
    assert.deepEqual(
      [call.request.getChannelId(), call.request.getChaincodeId(), call.request.getAfterTransactionId()],
      ["mychannel", "basic", ""],
    );
    assert.deepEqual(Buffer.from(call.request.getIdentity_asU8()), Buffer.from(serializeIdentity(client.identity)));
    assert.equal(call.request.getStartPosition()?.getSpecified()?.getNumber(), 4);
    await call.cancelled;
  });

  it("starts at the next commit without a start, and resumes after a checkpoint's transaction in its block", async () => {
    // One event read from each stream: the gateway has received the request before the next one is opened.
    const readOne = async (options: Parameters<Gateway["getChaincodeEvents"]>[2]): Promise<void> => {
      const events = await gateway.getChaincodeEvents("mychannel", "basic", options);
      assert.equal((await take(events, 1)).length, 1);
      events.close();
    };
    await readOne({});
    const checkpoint = checkpointers.inMemory();
    await checkpoint.checkpointTransaction(9n, "tx-b");
    await readOne({ startBlock: 2n, checkpoint });
    await readOne({ startBlock: 2n, checkpoint: checkpointers.inMemory() });
    const [next, resumed, fallback] = fake.eventsCalls.map((c) => c.request);
    assert.deepEqual(
      [next?.getStartPosition()?.getNextCommit() !== undefined, next?.getStartPosition()?.getSpecified()],
      [true, undefined],
    );
    // The checkpoint's block wins over startBlock; its transaction becomes after_transaction_id.
    assert.deepEqual(
      [resumed?.getStartPosition()?.getSpecified()?.getNumber(), resumed?.getAfterTransactionId()],
      [9, "tx-b"],
    );
    assert.deepEqual(
      [fallback?.getStartPosition()?.getSpecified()?.getNumber(), fallback?.getAfterTransactionId()],
      [2, ""],
    );
  });

  it("builds the same request bytes as the official client for the same identity and start", async () => {
    const official = connectOfficial({
      client: new grpc.Client(fake.address, grpc.credentials.createInsecure()),
      identity: { mspId: client.identity.mspId, credentials: client.identity.credentials },
      signer: signers.newPrivateKeySigner(crypto.createPrivateKey(client.privateKeyPem)),
    });
    try {
      const checkpoint = checkpointers.inMemory();
      await checkpoint.checkpointTransaction(12n, "tx-z");
      for (const [label, options] of Object.entries({
        none: {},
        startBlock: { startBlock: 3n },
        checkpoint: { checkpoint },
      })) {
        const theirs = official.getNetwork("mychannel").newChaincodeEventsRequest("basic", options);
        const ours = gateway.newChaincodeEventsRequest("mychannel", "basic", options);
        assert.deepEqual(Buffer.from(ours.getBytes()), Buffer.from(theirs.getBytes()), label);
        assert.deepEqual(Buffer.from(ours.getDigest()), Buffer.from(theirs.getDigest()));
      }
    } finally {
      official.close();
    }
  });

  it("signs offline: the digest signed elsewhere opens the stream through newSignedChaincodeEventsRequest", async () => {
    const unsigned = connect({ address: fake.address, identity: client.identity, trustedMsps: [], now: NOW });
    try {
      const request = unsigned.newChaincodeEventsRequest("mychannel", "basic", { startBlock: 0n });
      await assert.rejects(request.getEvents(), /No signer configured to sign the chaincode events request/);
      assert.equal(fake.eventsCalls.length, 0);
      const signed = unsigned.newSignedChaincodeEventsRequest(
        request.getBytes(),
        await client.signer(request.getDigest()),
      );
      const events = await signed.getEvents();
      try {
        assert.equal((await take(events, 1))[0]?.transactionId, "tx-a");
      } finally {
        events.close();
      }
      assert.equal(fake.eventsCalls[0]?.signatureValid, true);
    } finally {
      unsigned.close();
    }
  });

  it("ends the iteration when closed while waiting for the next block, and cancels the stream", async () => {
    const events = await gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 0n });
    const iterator = events[Symbol.asyncIterator]();
    for (let i = 0; i < 3; i++) assert.equal((await iterator.next()).done, false);
    const waiting = iterator.next();
    events.close();
    assert.deepEqual(await waiting, { done: true, value: undefined });
    await fake.eventsCalls[0]?.cancelled;
    assert.deepEqual(await iterator.next(), { done: true, value: undefined });
  });

  it("ends a for-await loop left with break, and a `using` block, by cancelling the stream", async () => {
    const events = await gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 0n });
    for await (const event of events) {
      assert.equal(event.transactionId, "tx-a");
      break;
    }
    await fake.eventsCalls[0]?.cancelled;
    {
      using scoped = await gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 0n });
      assert.equal((await take(scoped, 1))[0]?.transactionId, "tx-a");
    }
    await fake.eventsCalls[1]?.cancelled;
  });

  it("applies the chaincodeEventsOptions supplier: a passed deadline fails the stream with DEADLINE_EXCEEDED", async () => {
    const hurried = connect({
      address: fake.address,
      identity: client.identity,
      signer: client.signer,
      trustedMsps: [],
      chaincodeEventsOptions: () => ({ deadline: Date.now() - 1 }),
    });
    try {
      const events = await hurried.getChaincodeEvents("mychannel", "basic");
      await assert.rejects(take(events, 1), (e: unknown) => e instanceof ChaincodeEventsError && e.code === 4);
    } finally {
      hurried.close();
    }
  });

  it("rejects the iteration with the signal's reason when aborted, and never opens a stream for an aborted signal", async () => {
    const controller = new AbortController();
    const events = await gateway.getChaincodeEvents("mychannel", "basic", { signal: controller.signal });
    const iterator = events[Symbol.asyncIterator]();
    await take(events, 3);
    const waiting = iterator.next();
    const reason = new Error("the reader went away");
    controller.abort(reason);
    await assert.rejects(waiting, (e: unknown) => e === reason);
    await fake.eventsCalls[0]?.cancelled;
    await assert.rejects(
      gateway.getChaincodeEvents("mychannel", "basic", { signal: controller.signal }),
      (e: unknown) => e === reason,
    );
    assert.equal(fake.eventsCalls.length, 1);
  });

  it("throws the gateway's failure from the iterator as ChaincodeEventsError with its ErrorDetail", async () => {
    fake.options.chaincodeEvents = {
      responses: RESPONSES.slice(0, 1),
      failure: {
        code: grpc.status.PERMISSION_DENIED,
        detail: { address: "peer0:7051", mspId: "Org1MSP", message: "access denied" },
      },
    };
    const events = await gateway.getChaincodeEvents("mychannel", "basic");
    const received: ChaincodeEvent[] = [];
    const error = await (async () => {
      for await (const event of events) received.push(event);
    })().then(
      () => assert.fail("expected the iteration to fail"),
      (e: unknown) => e,
    );
    assert.deepEqual(
      received.map((e) => e.transactionId),
      ["tx-a", "tx-b"],
    );
    assert.ok(error instanceof ChaincodeEventsError && error instanceof GatewayError);
    assert.deepEqual(
      [error.name, error.code, error.method, error.channelId, error.chaincodeName],
      ["ChaincodeEventsError", grpc.status.PERMISSION_DENIED, "/gateway.Gateway/ChaincodeEvents", "mychannel", "basic"],
    );
    assert.deepEqual(error.details, [{ address: "peer0:7051", mspId: "Org1MSP", message: "access denied" }]);
    assert.equal(
      error.message,
      "/gateway.Gateway/ChaincodeEvents failed (gRPC 7): chaincode events failed [Org1MSP@peer0:7051: access denied]",
    );
  });

  it("refuses an empty channel or chaincode and a negative start block before sending anything", async () => {
    assert.throws(
      () => gateway.newChaincodeEventsRequest(" ", "", { startBlock: -1n }),
      (e: unknown) =>
        e instanceof ValidationError &&
        e.message ===
          "ChaincodeEventsRequest: invalid input: channelId: must not be empty; chaincodeName: must not be empty; startBlock: the block number must be a bigint from 0 to 2^64 - 1",
    );
    await assert.rejects(
      gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 2n ** 64n }),
      (e: unknown) => e instanceof ValidationError && e.failures[0]?.property === "startBlock",
    );
    assert.equal(fake.eventsCalls.length, 0);
  });
});
