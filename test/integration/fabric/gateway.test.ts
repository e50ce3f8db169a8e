import { strict as assert } from "node:assert";
import { EndorseError, GatewayError } from "@hyperledger/fabric-gateway";
import { common, gateway, peer } from "@hyperledger/fabric-protos";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { craftProposal, envelopeOf, inspectEnvelope, serialize, signPrepared } from "./craft";
import {
  callGateway,
  connectOfficial,
  errorDetailsOf,
  rejection,
  sha256,
  signWith,
  text,
  type Connection,
} from "./helpers";

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

describe("Fabric sandbox gateway", () => {
  let sandbox: FabricSandbox;
  let foreign: FabricSandbox;
  let client: SandboxIdentity;
  let connection: Connection;

  before(async () => {
    sandbox = await startFabricSandbox();
    foreign = await startFabricSandbox();
    client = sandbox.newClientIdentity("Org1MSP");
    connection = connectOfficial(sandbox, client);
  });
  after(async () => {
    connection.close();
    await sandbox.close();
    await foreign.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("rejects a client whose certificate was not issued by its MSP's CA, with ErrorDetail", async () => {
    const stranger = connectOfficial(sandbox, foreign.newClientIdentity("Org1MSP"));
    try {
      const err = await failure(stranger.contract.submitTransaction("PutAsset", "asset1", "blue"));
      assert.ok(err instanceof EndorseError);
      assert.equal(err.code, 10);
      assert.equal(err.message, "10 ABORTED: failed to endorse transaction, see attached details for more info");
      assert.deepEqual(err.details, [
        {
          address: "peer0.org1msp:7051",
          mspId: "Org1MSP",
          message: "error validating proposal: access denied: channel [opsledger] creator org [Org1MSP]",
        },
      ]);
      const evaluation = await failure(stranger.contract.evaluateTransaction("AssetExists", "asset1"));
      assert.ok(evaluation instanceof GatewayError);
      assert.equal(evaluation.code, 9);
      assert.equal(sandbox.transactionCount(), 0);
    } finally {
      stranger.close();
    }
  });

  it("rejects a client of an unknown MSP as creator org unknown", async () => {
    const stranger = connectOfficial(sandbox, { ...client, mspId: "Org9MSP" });
    try {
      const err = await failure(stranger.contract.submitTransaction("PutAsset", "asset1", "blue"));
      assert.ok(err instanceof EndorseError);
      assert.deepEqual(
        err.details.map((d) => d.message),
        ["error validating proposal: access denied: channel [opsledger] creator org unknown, creator is malformed"],
      );
    } finally {
      stranger.close();
    }
  });

  it("carries ErrorDetail as google.rpc.Status in grpc-status-details-bin", async () => {
    const proposal = await craftProposal({
      creator: foreign.newClientIdentity("Org2MSP"),
      channel: sandbox.channel,
      chaincode: sandbox.chaincode,
      args: ["ReadAsset", "asset1"],
    });
    const err = await rejection(callGateway(sandbox, "Evaluate", proposal.evaluateRequest));
    assert.equal(err.code, 9);
    assert.equal(
      err.details,
      "evaluate call to endorser returned error: error validating proposal: access denied: channel [opsledger] creator org [Org2MSP]",
    );
    assert.deepEqual(errorDetailsOf(err), [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message: "error validating proposal: access denied: channel [opsledger] creator org [Org2MSP]",
      },
    ]);
  });

  it("checks that the channel and chaincode exist", async () => {
    const elsewhere = connection.gateway.getNetwork("elsewhere").getContract(sandbox.chaincode);
    const noChannel = await failure(elsewhere.evaluateTransaction("AssetExists", "asset1"));
    assert.ok(noChannel instanceof GatewayError);
    assert.deepEqual([noChannel.code, noChannel.message], [9, "9 FAILED_PRECONDITION: channel 'elsewhere' not found"]);
    const other = connection.gateway.getNetwork(sandbox.channel).getContract("ledgerless");
    const noChaincode = await failure(other.submitTransaction("PutAsset", "asset1", "blue"));
    assert.ok(noChaincode instanceof EndorseError);
    assert.deepEqual(
      [noChaincode.code, noChaincode.message],
      [9, "9 FAILED_PRECONDITION: no peers available to endorse chaincode ledgerless in channel opsledger"],
    );
  });

  it("answers malformed requests with INVALID_ARGUMENT", async () => {
    const empty = new gateway.EndorseRequest();
    const missing = await rejection(callGateway(sandbox, "Endorse", empty.serializeBinary()));
    assert.deepEqual([missing.code, missing.details], [3, "the proposed transaction must contain a signed proposal"]);
    const signed = new peer.SignedProposal();
    signed.setProposalBytes(Buffer.from([0x0a, 0xff]));
    const garbage = new gateway.EndorseRequest();
    garbage.setProposedTransaction(signed);
    const bad = await rejection(callGateway(sandbox, "Endorse", garbage.serializeBinary()));
    assert.deepEqual([bad.code, bad.details], [3, "cannot decode protos.Proposal: index out of range: 2 + 1 > 2"]);
    const notARequest = await rejection(callGateway(sandbox, "Evaluate", Buffer.from([0x1a, 0x05])));
    assert.equal(notARequest.code, 3);
  });

  it("answers qscc GetTransactionByID with the ProcessedTransaction and its validation code", async () => {
    const qscc = connection.gateway.getNetwork(sandbox.channel).getContract("qscc");
    const valid = await connection.contract.submitAsync("PutAsset", { arguments: ["asset1", "blue"] });
    await valid.getStatus();
    const stale = await connection.contract.newProposal("UpdateAsset", { arguments: ["asset1", "red"] }).endorse();
    await connection.contract.submitTransaction("UpdateAsset", "asset1", "green");
    const staleEnvelope = await signPrepared(stale.getBytes(), client);
    assert.equal((await sandbox.commitRaw(staleEnvelope)).code, 11);

    const processed = peer.ProcessedTransaction.deserializeBinary(
      await qscc.evaluateTransaction("GetTransactionByID", sandbox.channel, stale.getTransactionId()),
    );
    assert.equal(processed.getValidationcode(), peer.TxValidationCode.MVCC_READ_CONFLICT);
    assert.deepEqual(Buffer.from(processed.getTransactionenvelope()!.serializeBinary()), Buffer.from(staleEnvelope));
    const ok = peer.ProcessedTransaction.deserializeBinary(
      await qscc.evaluateTransaction("GetTransactionByID", sandbox.channel, valid.getTransactionId()),
    );
    assert.equal(ok.getValidationcode(), peer.TxValidationCode.VALID);
    const payload = common.Payload.deserializeBinary(ok.getTransactionenvelope()!.getPayload_asU8());
    assert.equal(
      common.ChannelHeader.deserializeBinary(payload.getHeader()!.getChannelHeader_asU8()).getTxId(),
      valid.getTransactionId(),
    );
    const block = common.Block.deserializeBinary(
      await qscc.evaluateTransaction("GetBlockByTxID", sandbox.channel, valid.getTransactionId()),
    );
    assert.equal(block.getHeader()?.getNumber(), 1);
  });

  it("answers qscc GetTransactionByID for an unknown id with Fabric's not-found error", async () => {
    const qscc = connection.gateway.getNetwork(sandbox.channel).getContract("qscc");
    const err = await failure(qscc.evaluateTransaction("GetTransactionByID", sandbox.channel, "nope"));
    assert.ok(err instanceof GatewayError);
    assert.equal(err.code, 2);
    assert.equal(
      err.message,
      "2 UNKNOWN: evaluate call to endorser returned error: chaincode response 500, Failed to get transaction with id nope, error no such transaction ID [nope] in index",
    );
    assert.deepEqual(err.details, [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message:
          "chaincode response 500, Failed to get transaction with id nope, error no such transaction ID [nope] in index",
      },
    ]);
  });

  it("refuses an unsigned prepared transaction and one signed by someone else", async () => {
    const endorsed = await connection.contract.newProposal("PutAsset", { arguments: ["asset1", "blue"] }).endorse();
    const envelope = gateway.PreparedTransaction.deserializeBinary(endorsed.getBytes()).getEnvelope()!;
    const submit = (signature: Uint8Array): Promise<Buffer> => {
      const request = new gateway.SubmitRequest();
      request.setTransactionId(endorsed.getTransactionId());
      request.setChannelId(sandbox.channel);
      request.setPreparedTransaction(
        common.Envelope.deserializeBinary(envelopeOf(envelope.getPayload_asU8(), signature)),
      );
      return callGateway(sandbox, "Submit", request.serializeBinary());
    };
    const unsigned = await rejection(submit(new Uint8Array()));
    assert.deepEqual([unsigned.code, unsigned.details], [3, "prepared transaction must be signed"]);
    const forged = await rejection(
      submit(await signWith(sandbox.newClientIdentity("Org1MSP"), envelope.getPayload_asU8())),
    );
    assert.deepEqual(
      [forged.code, forged.details],
      [
        10,
        "received unsuccessful response from orderer: status=FORBIDDEN, info=implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Writers' sub-policies to be satisfied",
      ],
    );
    assert.equal(sandbox.transactionCount(), 0);
  });

  it("refuses commit status to a peer identity (policy Writers) and answers its client", async () => {
    const committed = await connection.contract.submitAsync("PutAsset", { arguments: ["asset1", "blue"] });
    await committed.getStatus();
    const request = async (identity: SandboxIdentity): Promise<Uint8Array> => {
      const body = new gateway.CommitStatusRequest();
      body.setTransactionId(committed.getTransactionId());
      body.setChannelId(sandbox.channel);
      body.setIdentity(serialize(identity));
      const signed = new gateway.SignedCommitStatusRequest();
      signed.setRequest(body.serializeBinary());
      signed.setSignature(await signWith(identity, body.serializeBinary()));
      return signed.serializeBinary();
    };
    const denied = await rejection(
      callGateway(sandbox, "CommitStatus", await request(sandbox.newPeerIdentity("Org2MSP"))),
    );
    assert.deepEqual(
      [denied.code, denied.details],
      [
        7,
        "failed evaluating policy on signed data during check policy [/Channel/Application/Writers]: [implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Writers' sub-policies to be satisfied]",
      ],
    );
    const status = gateway.CommitStatusResponse.deserializeBinary(
      await callGateway(sandbox, "CommitStatus", await request(client)),
    );
    assert.deepEqual([status.getResult(), status.getBlockNumber()], [peer.TxValidationCode.VALID, 1]);
  });

  it("evaluates without submitting: nothing reaches the ledger", async () => {
    assert.equal(text(await connection.contract.evaluateTransaction("PutAsset", "asset1", "blue")), "blue");
    assert.equal(sandbox.transactionCount(), 0);
    assert.equal(sandbox.worldState().size, 0);
  });

  it("honours the visibility modes it supports and builds the proposal hash over f(payload)", async () => {
    for (const [mode, expected] of [
      ["hash", (cpp: Uint8Array) => sha256(cpp)],
      ["nothing", () => Buffer.alloc(0)],
      ["full", (cpp: Uint8Array) => Buffer.from(cpp)],
    ] as const) {
      const proposal = await craftProposal({
        creator: client,
        channel: sandbox.channel,
        chaincode: sandbox.chaincode,
        args: ["PutAsset", `asset-${mode}`, "blue"],
        visibility: mode,
        transient: { secret: "never on the ledger" },
      });
      const response = gateway.EndorseResponse.deserializeBinary(
        await callGateway(sandbox, "Endorse", proposal.endorseRequest),
      );
      const prepared = response.getPreparedTransaction()!.serializeBinary();
      const parts = inspectEnvelope(prepared);
      const f = expected(proposal.payloadWithoutTransient);
      assert.deepEqual(Buffer.from(parts.chaincodeProposalPayload), f, mode);
      assert.deepEqual(
        Buffer.from(parts.proposalHash),
        sha256(proposal.channelHeader, proposal.signatureHeader, f),
        mode,
      );
      assert.equal(Buffer.from(prepared).includes(Buffer.from("never on the ledger")), false, mode);
      const signed = envelopeOf(parts.payload, await signWith(client, parts.payload));
      assert.equal((await sandbox.commitRaw(signed)).codeName, "VALID", mode);
    }
  });
});

describe("Fabric sandbox gateway with only full visibility, like a real peer", () => {
  it("ignores a requested hash visibility and returns the full payload", async () => {
    const sandbox = await startFabricSandbox({ supportsVisibility: ["full"] });
    try {
      const proposal = await craftProposal({
        creator: sandbox.newClientIdentity("Org3MSP"),
        channel: sandbox.channel,
        chaincode: sandbox.chaincode,
        args: ["PutAsset", "asset1", "blue"],
        visibility: "hash",
      });
      const response = gateway.EndorseResponse.deserializeBinary(
        await callGateway(sandbox, "Endorse", proposal.endorseRequest),
      );
      const parts = inspectEnvelope(response.getPreparedTransaction()!.serializeBinary());
      assert.deepEqual(Buffer.from(parts.chaincodeProposalPayload), Buffer.from(proposal.payloadWithoutTransient));
    } finally {
      await sandbox.close();
    }
  });
});
