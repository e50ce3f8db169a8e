import { strict as assert } from "node:assert";
import { checkpointers, CommitError, EndorseError, GatewayError } from "@hyperledger/fabric-gateway";
import { common, peer } from "@hyperledger/fabric-protos";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { connectOfficial, endorserMspIds, text, type Connection } from "./helpers";

describe("Fabric sandbox with the official @hyperledger/fabric-gateway client", () => {
  let sandbox: FabricSandbox;
  let connection: Connection;

  before(async () => {
    sandbox = await startFabricSandbox();
    connection = connectOfficial(sandbox, sandbox.newClientIdentity("Org1MSP"));
  });
  after(async () => {
    connection.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("submits a transaction and evaluates it back", async () => {
    const result = await connection.contract.submitTransaction("CreateAsset", "asset1", "blue");
    assert.equal(text(result), "blue");
    assert.equal(text(await connection.contract.evaluateTransaction("ReadAsset", "asset1")), "blue");
    assert.equal(text(await connection.contract.evaluateTransaction("AssetExists", "asset2")), "false");
    assert.deepEqual(
      [...sandbox.worldState().entries()],
      [["asset1", { value: Buffer.from("blue"), version: { blockNum: 1n, txNum: 0 } }]],
    );
    assert.equal(sandbox.transactionCount(), 1);
  });

  it("reports commit status VALID with the block number of each transaction", async () => {
    const first = await connection.contract.submitAsync("CreateAsset", { arguments: ["asset1", "blue"] });
    const firstStatus = await first.getStatus();
    const second = await connection.contract.submitAsync("UpdateAsset", { arguments: ["asset1", "green"] });
    const secondStatus = await second.getStatus();
    assert.deepEqual(firstStatus, {
      blockNumber: 1n,
      code: 0,
      successful: true,
      transactionId: first.getTransactionId(),
    });
    assert.deepEqual(secondStatus, {
      blockNumber: 2n,
      code: 0,
      successful: true,
      transactionId: second.getTransactionId(),
    });
    assert.deepEqual(
      sandbox.blocks().map((b) => [b.number, b.transactions.map((t) => [t.txId, t.codeName])]),
      [
        [0n, []],
        [1n, [[first.getTransactionId(), "VALID"]]],
        [2n, [[second.getTransactionId(), "VALID"]]],
      ],
    );
  });

  it("collects endorsements from a majority of organizations, the gateway's own first", async () => {
    await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
    const stored = sandbox.blocks()[1]?.transactions[0];
    assert.ok(stored);
    assert.deepEqual(endorserMspIds(stored.envelope), ["Org1MSP", "Org2MSP"]);
  });

  it("stores blocks that decode with fabric-protos, validation codes in the transactions filter", async () => {
    const status = await (
      await connection.contract.submitAsync("PutAsset", { arguments: ["asset1", "blue"] })
    ).getStatus();
    const block = common.Block.deserializeBinary(sandbox.blocks()[1]!.bytes);
    assert.equal(block.getHeader()?.getNumber(), 1);
    assert.equal(block.getData()?.getDataList().length, 1);
    assert.deepEqual(
      [...block.getMetadata()!.getMetadataList_asU8()[common.BlockMetadataIndex.TRANSACTIONS_FILTER]!],
      [peer.TxValidationCode.VALID],
    );
    const payload = common.Payload.deserializeBinary(
      common.Envelope.deserializeBinary(block.getData()!.getDataList_asU8()[0]!).getPayload_asU8(),
    );
    assert.equal(
      common.ChannelHeader.deserializeBinary(payload.getHeader()!.getChannelHeader_asU8()).getTxId(),
      status.transactionId,
    );
  });

  it("streams chaincode events of committed transactions", async () => {
    const events = await connection.gateway
      .getNetwork(sandbox.channel)
      .getChaincodeEvents(sandbox.chaincode, { startBlock: 0n });
    try {
      const created = await connection.contract.submitAsync("CreateAsset", { arguments: ["asset1", "blue"] });
      await created.getStatus();
      const deleted = await connection.contract.submitAsync("DeleteAsset", { arguments: ["asset1"] });
      await deleted.getStatus();
      const received: unknown[] = [];
      for await (const event of events) {
        received.push({ ...event, payload: text(event.payload) });
        if (received.length === 2) break;
      }
      assert.deepEqual(received, [
        {
          blockNumber: 1n,
          chaincodeName: "assets",
          eventName: "AssetCreated",
          transactionId: created.getTransactionId(),
          payload: "asset1",
        },
        {
          blockNumber: 2n,
          chaincodeName: "assets",
          eventName: "AssetDeleted",
          transactionId: deleted.getTransactionId(),
          payload: "asset1",
        },
      ]);
    } finally {
      events.close();
    }
  });

  it("resumes chaincode events after a checkpointed transaction", async () => {
    const ids: string[] = [];
    for (const key of ["a", "b", "c"]) {
      const submitted = await connection.contract.submitAsync("PutAsset", { arguments: [key, key] });
      await submitted.getStatus();
      ids.push(submitted.getTransactionId());
    }
    const checkpoint = checkpointers.inMemory();
    await checkpoint.checkpointTransaction(1n, ids[0]!);
    const events = await connection.gateway
      .getNetwork(sandbox.channel)
      .getChaincodeEvents(sandbox.chaincode, { checkpoint });
    try {
      const received: [bigint, string][] = [];
      for await (const event of events) {
        received.push([event.blockNumber, event.transactionId]);
        if (received.length === 2) break;
      }
      assert.deepEqual(received, [
        [2n, ids[1]],
        [3n, ids[2]],
      ]);
    } finally {
      events.close();
    }
  });

  it("rejects a chaincode error at endorsement with the endorser's ErrorDetail", async () => {
    await connection.contract.submitTransaction("CreateAsset", "asset1", "blue");
    const err = await connection.contract.submitTransaction("CreateAsset", "asset1", "red").then(
      () => assert.fail("expected an EndorseError"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof EndorseError);
    assert.equal(err.code, 10);
    assert.equal(err.message, "10 ABORTED: failed to endorse transaction, see attached details for more info");
    assert.deepEqual(err.details, [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message: "chaincode response 500, the asset asset1 already exists",
      },
    ]);
    assert.equal(sandbox.transactionCount(), 1);
  });

  it("turns a chaincode error at evaluation into UNKNOWN with the chaincode's message", async () => {
    const err = await connection.contract.evaluateTransaction("ReadAsset", "missing").then(
      () => assert.fail("expected a GatewayError"),
      (e: unknown) => e,
    );
    assert.ok(err instanceof GatewayError);
    assert.equal(err.code, 2);
    assert.equal(
      err.message,
      "2 UNKNOWN: evaluate call to endorser returned error: chaincode response 500, the asset missing does not exist",
    );
    assert.deepEqual(err.details, [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message: "chaincode response 500, the asset missing does not exist",
      },
    ]);
  });

  it("fails the second of two writers endorsed on the same version with MVCC_READ_CONFLICT", async () => {
    await connection.contract.submitTransaction("CreateAsset", "asset1", "blue");
    const first = await connection.contract.newProposal("UpdateAsset", { arguments: ["asset1", "green"] }).endorse();
    const second = await connection.contract.newProposal("UpdateAsset", { arguments: ["asset1", "red"] }).endorse();
    assert.deepEqual(await (await first.submit()).getStatus(), {
      blockNumber: 2n,
      code: 0,
      successful: true,
      transactionId: first.getTransactionId(),
    });
    // getStatus() reports an invalid transaction; only submit() turns it into a CommitError.
    assert.deepEqual(await (await second.submit()).getStatus(), {
      blockNumber: 3n,
      code: 11,
      successful: false,
      transactionId: second.getTransactionId(),
    });
    // A fresh proposal reads the new version and commits; the stale one stays on the ledger as invalid.
    await connection.contract.submitTransaction("UpdateAsset", "asset1", "red");
    assert.equal(sandbox.worldState().get("asset1")?.value.toString(), "red");
    assert.deepEqual(
      sandbox.blocks().map((b) => b.transactions.map((t) => t.codeName)),
      [[], ["VALID"], ["VALID"], ["MVCC_READ_CONFLICT"], ["VALID"]],
    );
  });

  it("raises CommitError for a transaction endorsed by fewer organizations than the policy needs", async () => {
    const err = await connection.contract
      .submit("PutAsset", { arguments: ["asset1", "blue"], endorsingOrganizations: ["Org3MSP"] })
      .then(
        () => assert.fail("expected a CommitError"),
        (e: unknown) => e,
      );
    assert.ok(err instanceof CommitError);
    assert.equal(err.code, 10);
    assert.equal(
      err.message,
      `Transaction ${err.transactionId} failed to commit with status code 10 (ENDORSEMENT_POLICY_FAILURE)`,
    );
    assert.equal(sandbox.worldState().size, 0);
  });
});

describe("Fabric sandbox over TLS", () => {
  it("serves the official client with a server certificate from its TLS root", async () => {
    const sandbox = await startFabricSandbox({ tls: true });
    const connection = connectOfficial(sandbox, sandbox.newClientIdentity("Org2MSP"), sandbox.tlsRootCertPem);
    try {
      assert.match(sandbox.tlsRootCertPem ?? "", /^-----BEGIN CERTIFICATE-----\n/);
      assert.equal(text(await connection.contract.submitTransaction("PutAsset", "asset1", "tls")), "tls");
      assert.equal(text(await connection.contract.evaluateTransaction("ReadAsset", "asset1")), "tls");
    } finally {
      connection.close();
      await sandbox.close();
    }
  });
});
