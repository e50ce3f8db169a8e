/**
 * The Fabric sandbox's gateway at the wire level, for what only the sandbox has or says its own way: its default
 * configuration (three organizations, majority policy), its messages for undecodable requests, qscc over
 * transactions committed with commitRaw, and the visibility modes. What real Fabric's gateway does too (ACLs, unknown
 * channels and chaincodes, ErrorDetails, refusals of Submit, qscc) runs against the sandbox and a real network in
 * test/integration/ledger-targets/.
 */
import { strict as assert } from "node:assert";
import { common, gateway, peer } from "@hyperledger/fabric-protos";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { craftProposal, envelopeOf, inspectEnvelope, signPrepared } from "./craft";
import { callGateway, connectOfficial, endorserMspIds, rejection, sha256, signWith, type Connection } from "./helpers";

describe("Fabric sandbox gateway", () => {
  let sandbox: FabricSandbox;
  let client: SandboxIdentity;
  let connection: Connection;

  before(async () => {
    sandbox = await startFabricSandbox();
    client = sandbox.newClientIdentity("Org1MSP");
    connection = connectOfficial(sandbox, client);
  });
  after(async () => {
    connection.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("collects endorsements from a majority of its three organizations (its default policy), its own first", async () => {
    await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
    const stored = sandbox.blocks()[1]?.transactions[0];
    assert.ok(stored);
    assert.deepEqual(endorserMspIds(stored.envelope), ["Org1MSP", "Org2MSP"]);
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
