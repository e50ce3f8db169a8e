import { strict as assert } from "node:assert";
import {
  codecs,
  CommitError,
  EndorseError,
  GatewayError,
  isTransactionNotFound,
  unwrap,
  validationCodeMeaning,
  type Gateway,
} from "../../../provider/ledger";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { committed, connectOurs, failure, ledgerCodes, text } from "./helpers";

describe("ledger gateway client against the Fabric sandbox", () => {
  let sandbox: FabricSandbox;
  let gateway: Gateway;
  let channelId: string;
  let chaincodeName: string;
  const delays: number[] = [];
  let sleepHook: (ms: number) => Promise<void> = () => Promise.resolve();

  before(async () => {
    sandbox = await startFabricSandbox({ port: 0, sleep: (ms) => sleepHook(ms) });
    gateway = connectOurs(sandbox, sandbox.newClientIdentity("Org1MSP"));
    channelId = sandbox.channel;
    chaincodeName = sandbox.chaincode;
  });
  after(async () => {
    gateway.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    delays.length = 0;
    sleepHook = () => Promise.resolve();
  });

  it("submits a transaction that commits VALID in block 1 with the chaincode result", async () => {
    const submitted = await gateway.submitTransaction({
      channelId,
      chaincodeName,
      functionName: "CreateAsset",
      args: ["asset1", "blue"],
    });
    assert.equal(text(submitted.result), "blue");
    assert.deepEqual(submitted.status, {
      transactionId: submitted.transactionId,
      code: 0,
      codeName: "VALID",
      successful: true,
      blockNumber: 1n,
    });
    assert.match(submitted.transactionId, /^[0-9a-f]{64}$/);
    assert.deepEqual(ledgerCodes(sandbox), [[submitted.transactionId, "VALID"]]);
    assert.deepEqual(
      submitted.verification?.endorsers.map((e) => e.mspId),
      ["Org1MSP", "Org2MSP"],
    );
    const second = await gateway.submitTransaction({
      channelId,
      chaincodeName,
      functionName: "UpdateAsset",
      args: ["asset1", "green"],
    });
    assert.deepEqual([second.status.codeName, second.status.blockNumber], ["VALID", 2n]);
    assert.deepEqual(sandbox.worldState().get("asset1"), {
      value: Buffer.from("green"),
      version: { blockNum: 2n, txNum: 0 },
    });
  });

  it("evaluates without ordering anything", async () => {
    await gateway.submitTransaction({ channelId, chaincodeName, functionName: "PutAsset", args: ["asset1", "blue"] });
    const before = sandbox.blocks().length;
    const value = await gateway.evaluateTransaction({
      channelId,
      chaincodeName,
      functionName: "ReadAsset",
      args: ["asset1"],
    });
    assert.equal(text(value), "blue");
    const exists = await gateway.evaluateTransaction({
      channelId,
      chaincodeName,
      functionName: "AssetExists",
      args: ["asset2"],
    });
    assert.equal(text(exists), "false");
    assert.equal(sandbox.blocks().length, before);
  });

  it("surfaces a chaincode error from evaluate as a GatewayError with the gRPC code", async () => {
    const err = await failure(
      gateway.evaluateTransaction({ channelId, chaincodeName, functionName: "ReadAsset", args: ["missing"] }),
    );
    assert.ok(err instanceof GatewayError);
    assert.equal(err.name, "GatewayError");
    assert.equal(err.code, 2);
    assert.equal(err.method, "/gateway.Gateway/Evaluate");
    assert.equal(
      err.message,
      "/gateway.Gateway/Evaluate failed (gRPC 2): evaluate call to endorser returned error: chaincode response 500, the asset missing does not exist [Org1MSP@peer0.org1msp:7051: chaincode response 500, the asset missing does not exist]",
    );
    assert.deepEqual(err.details, [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message: "chaincode response 500, the asset missing does not exist",
      },
    ]);
  });

  it("fetches the committed transaction by id through qscc, whose envelope decodes and whose code matches", async () => {
    const submitted = await gateway.submitTransaction({
      channelId,
      chaincodeName,
      functionName: "CreateAsset",
      args: ["asset7", "red"],
    });
    const processed = await gateway.getTransactionById(channelId, submitted.transactionId);
    assert.equal(processed.validationCode, 0);
    assert.ok(processed.transactionEnvelope !== undefined);
    const envelopeBytes = codecs.Envelope.encode(processed.transactionEnvelope);
    assert.deepEqual(Buffer.from(envelopeBytes), sandbox.blocks()[1]?.transactions[0]?.envelope);
    const decoded = unwrap(envelopeBytes);
    assert.equal(decoded.channelHeader.txId, submitted.transactionId);
    assert.equal(decoded.channelHeader.channelId, channelId);
    assert.equal(decoded.headerExtension.chaincodeId?.name, chaincodeName);
    assert.deepEqual(
      decoded.namespaces.map((n) => [n.namespace, n.kvRwSet.writes.map((w) => [w.key, text(w.value)])]),
      [[chaincodeName, [["asset7", "red"]]]],
    );
    assert.deepEqual([decoded.event?.eventName, decoded.event?.txId], ["AssetCreated", submitted.transactionId]);
  });

  it("reports an unknown transaction id as not found", async () => {
    const missing = "0".repeat(64);
    const err = await failure(gateway.getTransactionById(channelId, missing));
    assert.ok(err instanceof GatewayError);
    assert.equal(isTransactionNotFound(err), true);
    assert.equal(err.code, 2);
    const reason = `chaincode response 500, Failed to get transaction with id ${missing}, error no such transaction ID [${missing}] in index`;
    assert.equal(
      err.message,
      `/gateway.Gateway/Evaluate failed (gRPC 2): evaluate call to endorser returned error: ${reason} [Org1MSP@peer0.org1msp:7051: ${reason}]`,
    );
    // The error carries the id of the qscc query proposal, not the id looked up.
    assert.match(err.transactionId ?? "", /^[0-9a-f]{64}$/);
    assert.notEqual(err.transactionId, missing);
  });

  it("reports MVCC_READ_CONFLICT by name when two writers endorse against the same version", async () => {
    await gateway.submitTransaction({ channelId, chaincodeName, functionName: "PutAsset", args: ["asset1", "blue"] });
    const request = { channelId, chaincodeName, functionName: "UpdateAsset" };
    const [first, second] = await Promise.all([
      gateway.newProposal({ ...request, args: ["asset1", "green"] }).endorse(),
      gateway.newProposal({ ...request, args: ["asset1", "yellow"] }).endorse(),
    ]);
    const firstStatus = await (await first.submit()).getStatus();
    const secondStatus = await (await second.submit()).getStatus();
    assert.deepEqual([firstStatus.codeName, firstStatus.blockNumber], ["VALID", 2n]);
    assert.deepEqual(
      [secondStatus.code, secondStatus.codeName, secondStatus.successful, secondStatus.blockNumber],
      [11, "MVCC_READ_CONFLICT", false, 3n],
    );
    assert.equal(text(sandbox.worldState().get("asset1")?.value ?? new Uint8Array()), "green");
  });

  it("rejects the losing one of two concurrent submitTransaction writers with MVCC_READ_CONFLICT", async () => {
    await gateway.submitTransaction({ channelId, chaincodeName, functionName: "PutAsset", args: ["asset1", "blue"] });
    // Both transactions are endorsed against version (1, 0); the orderer holds each block until both are submitted.
    const held: (() => void)[] = [];
    sleepHook = (ms) => {
      delays.push(ms);
      return new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === 2) for (const release of held) release();
      });
    };
    sandbox.setFaults({ commitDelayMs: 5 });
    const write = (value: string) =>
      gateway.submitTransaction({ channelId, chaincodeName, functionName: "UpdateAsset", args: ["asset1", value] });
    const outcomes = await Promise.allSettled([write("green"), write("yellow")]);
    assert.deepEqual(delays, [5, 5]);
    const winners = outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value);
    const losers = outcomes.filter((o) => o.status === "rejected").map((o): unknown => o.reason);
    assert.equal(winners.length, 1);
    assert.equal(losers.length, 1);
    const err = losers[0];
    assert.ok(err instanceof CommitError);
    assert.deepEqual([err.validationCode, err.validationCodeName, err.blockNumber], [11, "MVCC_READ_CONFLICT", 3n]);
    assert.equal(
      err.message,
      `Transaction ${err.transactionId} failed to commit with status code 11 (MVCC_READ_CONFLICT): ${validationCodeMeaning(11)}`,
    );
    assert.deepEqual(ledgerCodes(sandbox).slice(1), [
      [winners[0]?.transactionId, "VALID"],
      [err.transactionId, "MVCC_READ_CONFLICT"],
    ]);
    assert.equal(
      text(sandbox.worldState().get("asset1")?.value ?? new Uint8Array()),
      text(winners[0]?.result ?? new Uint8Array()),
    );
  });

  it("reports ENDORSEMENT_POLICY_FAILURE by name when only one of three organizations endorses", async () => {
    const err = await failure(
      gateway.submitTransaction({
        channelId,
        chaincodeName,
        functionName: "PutAsset",
        args: ["asset1", "blue"],
        endorsingOrganizations: ["Org1MSP"],
      }),
    );
    assert.ok(err instanceof CommitError);
    assert.deepEqual(
      [err.validationCode, err.validationCodeName, err.blockNumber],
      [10, "ENDORSEMENT_POLICY_FAILURE", 1n],
    );
    assert.equal(
      err.message,
      `Transaction ${err.transactionId} failed to commit with status code 10 (ENDORSEMENT_POLICY_FAILURE): ${validationCodeMeaning(10)}`,
    );
    assert.deepEqual(ledgerCodes(sandbox), [[err.transactionId, "ENDORSEMENT_POLICY_FAILURE"]]);
    assert.deepEqual(committed(sandbox, 1).endorsedAction.endorsements.length, 1);
    assert.equal(sandbox.worldState().size, 0);
  });

  it("fails endorsement with the unreachable required organization's ErrorDetail", async () => {
    sandbox.setFaults({ failEndorsementFor: ["Org2MSP", "Org3MSP"] });
    const err = await failure(
      gateway.submitTransaction({
        channelId,
        chaincodeName,
        functionName: "PutAsset",
        args: ["asset1", "blue"],
        endorsingOrganizations: ["Org1MSP", "Org2MSP"],
      }),
    );
    assert.ok(err instanceof EndorseError);
    assert.equal(err.name, "EndorseError");
    assert.equal(err.code, 10);
    assert.equal(err.transactionId.length, 64);
    assert.deepEqual(err.details, [
      {
        address: "peer0.org2msp:7051",
        mspId: "Org2MSP",
        message: "failed to connect to endorsing peer peer0.org2msp:7051: connection refused",
      },
    ]);
    assert.equal(
      err.message,
      "/gateway.Gateway/Endorse failed (gRPC 10): failed to collect enough transaction endorsements, see attached details for more info [Org2MSP@peer0.org2msp:7051: failed to connect to endorsing peer peer0.org2msp:7051: connection refused]",
    );
    assert.equal(sandbox.transactionCount(), 0);
  });

  it("records DUPLICATE_TXID when the same signed envelope is submitted twice", async () => {
    const transaction = await gateway
      .newProposal({ channelId, chaincodeName, functionName: "PutAsset", args: ["asset1", "blue"] })
      .endorse();
    const first = await (await transaction.submit()).getStatus();
    const signed = transaction.getBytes();
    const signature = codecs.PreparedTransaction.decode(signed).envelope?.signature ?? new Uint8Array(0);
    assert.equal(signature.length > 0, true);
    const again = gateway.newSignedTransaction(signed, signature);
    assert.equal(again.getTransactionId(), transaction.getTransactionId());
    await again.submit();
    const id = transaction.getTransactionId();
    assert.deepEqual([first.codeName, first.blockNumber], ["VALID", 1n]);
    assert.deepEqual(ledgerCodes(sandbox), [
      [id, "VALID"],
      [id, "DUPLICATE_TXID"],
    ]);
    assert.deepEqual(sandbox.blocks()[2]?.transactions[0]?.envelope, sandbox.blocks()[1]?.transactions[0]?.envelope);
    const processed = await gateway.getTransactionById(channelId, id);
    assert.equal(processed.validationCode, 0, "the index keeps the first occurrence");
  });
});
