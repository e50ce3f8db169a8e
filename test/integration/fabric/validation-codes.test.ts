import { strict as assert } from "node:assert";
import { createPublicKey, verify } from "node:crypto";
import { common, ledger, peer } from "@hyperledger/fabric-protos";
import {
  startFabricSandbox,
  type CommitRawResult,
  type FabricSandbox,
  type SandboxIdentity,
} from "../../../sandbox/fabric";
import { craft, envelopeOf, signPrepared, toHighS, type CraftSpec } from "./craft";
import { connectOfficial, sha256, type Connection } from "./helpers";

/**
 * The committer's verdict on crafted transactions (Fabric's core/committer/txvalidator), each reached by one deliberate
 * defect.
 */
describe("Fabric sandbox committer", () => {
  let sandbox: FabricSandbox;
  let foreign: FabricSandbox;
  let creator: SandboxIdentity;
  let endorsers: SandboxIdentity[];
  let connection: Connection;

  const spec = (overrides: Partial<CraftSpec> = {}): CraftSpec => ({
    creator,
    channel: sandbox.channel,
    chaincode: sandbox.chaincode,
    endorsers,
    ...overrides,
  });
  const commit = async (overrides: Partial<CraftSpec> = {}): Promise<CommitRawResult> =>
    sandbox.commitRaw((await craft(spec(overrides))).envelope);
  const verdict = (r: CommitRawResult): [number, string] => [r.code, r.codeName];

  before(async () => {
    sandbox = await startFabricSandbox();
    // Same organization names, different CAs: its identities are unknown to `sandbox`.
    foreign = await startFabricSandbox();
    creator = sandbox.newClientIdentity("Org1MSP");
    endorsers = [sandbox.newPeerIdentity("Org1MSP"), sandbox.newPeerIdentity("Org2MSP")];
    connection = connectOfficial(sandbox, creator);
  });
  after(async () => {
    connection.close();
    await sandbox.close();
    await foreign.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  it("commits a well-formed crafted transaction as VALID and applies its write", async () => {
    const crafted = await craft(spec());
    assert.deepEqual(await sandbox.commitRaw(crafted.envelope), {
      txId: crafted.txId,
      code: 0,
      codeName: "VALID",
      reason: "",
      blockNumber: 1n,
    });
    assert.deepEqual(
      [...sandbox.worldState().entries()],
      [["k", { value: Buffer.from("v"), version: { blockNum: 1n, txNum: 0 } }]],
    );
  });

  it("marks an empty block entry NIL_ENVELOPE", async () => {
    assert.deepEqual(await sandbox.commitRaw(new Uint8Array()), {
      txId: "",
      code: 1,
      codeName: "NIL_ENVELOPE",
      reason: "nil envelope",
      blockNumber: 1n,
    });
    assert.equal(sandbox.transactionCount(), 1);
  });

  it("marks bytes that are not an Envelope INVALID_OTHER_REASON", async () => {
    assert.deepEqual(verdict(await sandbox.commitRaw(Buffer.from([0x0a, 0xff]))), [255, "INVALID_OTHER_REASON"]);
  });

  it("marks an unparsable payload BAD_PAYLOAD", async () => {
    const result = await sandbox.commitRaw(envelopeOf(Buffer.from([0x0a, 0x05, 0x01]), Buffer.from([1])));
    assert.deepEqual(verdict(result), [2, "BAD_PAYLOAD"]);
  });

  it("marks a bad common header BAD_COMMON_HEADER (epoch, header type, nonce, missing header)", async () => {
    assert.deepEqual(verdict(await commit({ epoch: 1 })), [3, "BAD_COMMON_HEADER"]);
    assert.deepEqual(verdict(await commit({ headerType: common.HeaderType.MESSAGE })), [3, "BAD_COMMON_HEADER"]);
    assert.deepEqual(verdict(await commit({ nonce: new Uint8Array() })), [3, "BAD_COMMON_HEADER"]);
    const headerless = new common.Payload();
    headerless.setData(Buffer.from("data"));
    const result = await sandbox.commitRaw(envelopeOf(headerless.serializeBinary(), Buffer.from([1])));
    assert.deepEqual([result.code, result.reason], [3, "header is nil"]);
  });

  it("indexes a transaction refused for its common header under its txId, as Fabric's block store does", async () => {
    // blkstorage indexes every envelope by GetOrComputeTxIDFromEnvelope, whatever its code: qscc finds it, and the
    // txId is taken (the validator's duplicate check asks the same index).
    const nonce = Buffer.alloc(24, 3);
    const refused = await craft(spec({ nonce, epoch: 1 }));
    assert.deepEqual(verdict(await sandbox.commitRaw(refused.envelope)), [3, "BAD_COMMON_HEADER"]);
    const qscc = connection.gateway.getNetwork(sandbox.channel).getContract("qscc");
    const found = peer.ProcessedTransaction.deserializeBinary(
      await qscc.evaluateTransaction("GetTransactionByID", sandbox.channel, refused.txId),
    );
    assert.equal(found.getValidationcode(), 3);
    const retry = await craft(spec({ nonce }));
    assert.equal(retry.txId, refused.txId);
    assert.deepEqual(verdict(await sandbox.commitRaw(retry.envelope)), [9, "DUPLICATE_TXID"]);
  });

  it("marks a tampered envelope signature BAD_CREATOR_SIGNATURE", async () => {
    const crafted = await craft(spec());
    const signature = Buffer.from(crafted.signature);
    signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 0x01;
    const result = await sandbox.commitRaw(envelopeOf(crafted.payload, signature));
    assert.deepEqual(
      [result.code, result.reason],
      [4, "creator: signature verification failed: the signature is invalid"],
    );
  });

  it("marks a high-S envelope signature BAD_CREATOR_SIGNATURE although it is mathematically valid", async () => {
    const crafted = await craft(spec());
    const highS = toHighS(crafted.signature);
    const key = createPublicKey(creator.certificatePem);
    assert.equal(verify("sha256", crafted.payload, { key, dsaEncoding: "der" }, highS), true);
    const result = await sandbox.commitRaw(envelopeOf(crafted.payload, highS));
    assert.deepEqual(
      [result.code, result.reason],
      [4, "creator: signature verification failed: Invalid S. Must be smaller than half the order"],
    );
  });

  it("marks creators outside the channel's MSPs BAD_CREATOR_SIGNATURE", async () => {
    const unknownMsp = { ...creator, mspId: "Org9MSP" };
    const result = await commit({ creator: unknownMsp });
    assert.deepEqual([result.code, result.reason], [4, "creator: MSP Org9MSP is unknown"]);
    const otherCa = await commit({ creator: foreign.newClientIdentity("Org1MSP") });
    assert.deepEqual([otherCa.code, otherCa.reason], [4, "creator: x509: certificate signed by unknown authority"]);
  });

  it("marks a transaction id that is not SHA-256(nonce ‖ creator) BAD_PROPOSAL_TXID", async () => {
    assert.deepEqual(verdict(await commit({ txId: "0".repeat(64) })), [8, "BAD_PROPOSAL_TXID"]);
  });

  it("marks a malformed endorser transaction INVALID_ENDORSER_TRANSACTION (two actions, proposal hash)", async () => {
    const twoActions = await commit({ actionCount: 2 });
    assert.deepEqual(
      [twoActions.code, twoActions.reason],
      [5, "only one action per transaction is supported, tx contains 2"],
    );
    const badHash = await commit({ proposalHash: sha256(Buffer.from("another proposal")) });
    assert.deepEqual([badHash.code, badHash.reason], [5, "proposal hash does not match"]);
  });

  it("marks CONFIG_UPDATE UNSUPPORTED_TX_PAYLOAD and CONFIG INVALID_CONFIG_TRANSACTION", async () => {
    assert.deepEqual(verdict(await commit({ headerType: common.HeaderType.CONFIG_UPDATE })), [
      7,
      "UNSUPPORTED_TX_PAYLOAD",
    ]);
    assert.deepEqual(verdict(await commit({ headerType: common.HeaderType.CONFIG })), [
      6,
      "INVALID_CONFIG_TRANSACTION",
    ]);
  });

  it("marks a transaction for another channel TARGET_CHAIN_NOT_FOUND", async () => {
    assert.deepEqual(verdict(await commit({ channel: "elsewhere" })), [14, "TARGET_CHAIN_NOT_FOUND"]);
  });

  it("marks the second commit of one transaction DUPLICATE_TXID and applies its write once", async () => {
    const crafted = await craft(spec({ namespaces: [{ namespace: "assets", writes: [{ key: "k", value: "once" }] }] }));
    assert.deepEqual(verdict(await sandbox.commitRaw(crafted.envelope)), [0, "VALID"]);
    const again = await sandbox.commitRaw(crafted.envelope);
    assert.deepEqual(
      [again.code, again.reason, again.blockNumber],
      [9, `duplicate transaction found [${crafted.txId}]`, 2n],
    );
    assert.deepEqual(sandbox.worldState().get("k")?.version, { blockNum: 1n, txNum: 0 });
  });

  it("marks an unparsable chaincode header extension BAD_HEADER_EXTENSION", async () => {
    assert.deepEqual(verdict(await commit({ extension: Buffer.from([0x12, 0x05]) })), [19, "BAD_HEADER_EXTENSION"]);
  });

  it("marks an unparsable chaincode action BAD_RESPONSE_PAYLOAD", async () => {
    assert.deepEqual(verdict(await commit({ prpExtension: Buffer.from([0x0a, 0x09]) })), [21, "BAD_RESPONSE_PAYLOAD"]);
  });

  it("marks results that are not a read-write set BAD_RWSET, nested sets included", async () => {
    assert.deepEqual(verdict(await commit({ results: Buffer.from([0x12, 0x03, 0x0a]) })), [22, "BAD_RWSET"]);
    const nested = new ledger.rwset.TxReadWriteSet();
    const ns = new ledger.rwset.NsReadWriteSet();
    ns.setNamespace("assets");
    ns.setRwset(Buffer.from([0x1a, 0x7f]));
    nested.setNsRwsetList([ns]);
    assert.deepEqual(verdict(await commit({ results: nested.serializeBinary() })), [22, "BAD_RWSET"]);
  });

  it("marks a wrong chaincode identity INVALID_CHAINCODE (empty version, other name, undefined namespace)", async () => {
    const noVersion = await commit({ actionChaincodeId: { name: "assets", version: "" } });
    assert.deepEqual([noVersion.code, noVersion.reason], [25, "empty chaincode version"]);
    const otherName = await commit({ actionChaincodeId: { name: "ledgerless", version: "1.0" } });
    assert.deepEqual(
      [otherName.code, otherName.reason],
      [25, "chaincode name ledgerless in the action differs from assets in the header"],
    );
    const otherNamespace = await commit({
      namespaces: [
        { namespace: "assets", writes: [{ key: "k", value: "v" }] },
        { namespace: "ledgerless", writes: [{ key: "k", value: "v" }] },
      ],
    });
    assert.deepEqual(
      [otherNamespace.code, otherNamespace.reason],
      [25, "no chaincode definition for ledgerless on opsledger"],
    );
    const otherChaincode = await commit({
      chaincode: "ledgerless",
      namespaces: [{ namespace: "ledgerless", writes: [{ key: "k" }] }],
    });
    assert.deepEqual(verdict(otherChaincode), [25, "INVALID_CHAINCODE"]);
    assert.equal(sandbox.worldState().size, 0);
  });

  it("marks a missing action chaincode id or a foreign event INVALID_OTHER_REASON", async () => {
    assert.deepEqual(verdict(await commit({ actionChaincodeId: null })), [255, "INVALID_OTHER_REASON"]);
    const event = new peer.ChaincodeEvent();
    event.setChaincodeId("ledgerless");
    event.setEventName("Spoofed");
    const spoofed = await commit({ events: event.serializeBinary() });
    assert.deepEqual([spoofed.code, spoofed.reason], [255, "chaincode event from ledgerless, expected assets"]);
  });

  it("marks a namespace that appears twice ILLEGAL_WRITESET", async () => {
    const write = { namespace: "assets", writes: [{ key: "k", value: "v" }] };
    assert.deepEqual(verdict(await commit({ namespaces: [write, write] })), [23, "ILLEGAL_WRITESET"]);
  });

  it("marks endorsements that do not satisfy the majority policy ENDORSEMENT_POLICY_FAILURE", async () => {
    const [org1, org2] = endorsers as [SandboxIdentity, SandboxIdentity];
    const cases: [string, Partial<CraftSpec>][] = [
      ["one organization", { endorsers: [org1] }],
      ["two peers of one organization", { endorsers: [org1, sandbox.newPeerIdentity("Org1MSP")] }],
      ["a client instead of a peer", { endorsers: [org1, sandbox.newClientIdentity("Org2MSP")] }],
      ["a peer of an unknown CA", { endorsers: [org1, foreign.newPeerIdentity("Org2MSP")] }],
      ["a signature by the wrong key", { endorsers: [org1, { ...org2, privateKeyPem: creator.privateKeyPem }] }],
      ["high-S endorsement signatures", { endorsementSignature: toHighS }],
      ["no endorsements", { endorsers: [] }],
    ];
    for (const [name, overrides] of cases) {
      assert.deepEqual(verdict(await commit(overrides)), [10, "ENDORSEMENT_POLICY_FAILURE"], name);
    }
    const result = await commit({ endorsers: [org1, sandbox.newClientIdentity("Org2MSP")] });
    assert.equal(
      result.reason,
      "endorsement policy MAJORITY of [Org1MSP.peer, Org2MSP.peer, Org3MSP.peer] not satisfied (valid endorsements by Org1MSP); endorsement 1: Org2MSP identity has role client, not peer",
    );
    assert.equal(sandbox.worldState().size, 0);
  });

  it("marks a stale read MVCC_READ_CONFLICT: two writers endorsed on the same version", async () => {
    await connection.contract.submitTransaction("CreateAsset", "asset1", "blue");
    const first = await connection.contract.newProposal("UpdateAsset", { arguments: ["asset1", "green"] }).endorse();
    const second = await connection.contract.newProposal("UpdateAsset", { arguments: ["asset1", "red"] }).endorse();
    assert.deepEqual(verdict(await sandbox.commitRaw(await signPrepared(first.getBytes(), creator))), [0, "VALID"]);
    const stale = await sandbox.commitRaw(await signPrepared(second.getBytes(), creator));
    assert.deepEqual(
      [stale.txId, stale.code, stale.codeName, stale.reason],
      [second.getTransactionId(), 11, "MVCC_READ_CONFLICT", "assets/asset1 was read at version 1:0 but is now at 2:0"],
    );
    assert.deepEqual(sandbox.worldState().get("asset1"), {
      value: Buffer.from("green"),
      version: { blockNum: 2n, txNum: 0 },
    });
  });

  it("marks a range read whose results changed PHANTOM_READ_CONFLICT", async () => {
    await connection.contract.submitTransaction("CreateAsset", "a1", "one");
    await connection.contract.submitTransaction("CreateAsset", "a3", "three");
    const unchanged = await connection.contract.newProposal("GetAssetsByRange", { arguments: ["a", "b"] }).endorse();
    assert.deepEqual(verdict(await sandbox.commitRaw(await signPrepared(unchanged.getBytes(), creator))), [0, "VALID"]);
    const scan = await connection.contract.newProposal("GetAssetsByRange", { arguments: ["a", "b"] }).endorse();
    assert.equal(Buffer.from(scan.getResult()).toString(), '[{"key":"a1","value":"one"},{"key":"a3","value":"three"}]');
    await connection.contract.submitTransaction("CreateAsset", "a2", "two");
    const phantom = await sandbox.commitRaw(await signPrepared(scan.getBytes(), creator));
    assert.deepEqual(
      [phantom.code, phantom.codeName, phantom.reason],
      [12, "PHANTOM_READ_CONFLICT", "assets: range [a, b) returned 2 keys at endorsement, 3 now"],
    );
  });

  it("checks in Fabric's order: signature before txId, txId before structure, policy before MVCC", async () => {
    const crafted = await craft(spec({ txId: "f".repeat(64) }));
    const badBoth = await sandbox.commitRaw(envelopeOf(crafted.payload, toHighS(crafted.signature)));
    assert.deepEqual(verdict(badBoth), [4, "BAD_CREATOR_SIGNATURE"]);
    assert.deepEqual(verdict(await commit({ txId: "e".repeat(64), actionCount: 2 })), [8, "BAD_PROPOSAL_TXID"]);
    const staleAndUnderEndorsed = await commit({
      endorsers: [endorsers[0]!],
      namespaces: [{ namespace: "assets", reads: [{ key: "k", version: { blockNum: 7, txNum: 0 } }] }],
    });
    assert.deepEqual(verdict(staleAndUnderEndorsed), [10, "ENDORSEMENT_POLICY_FAILURE"]);
    const staleOnly = await commit({
      namespaces: [{ namespace: "assets", reads: [{ key: "k", version: { blockNum: 7, txNum: 0 } }] }],
    });
    assert.deepEqual(verdict(staleOnly), [11, "MVCC_READ_CONFLICT"]);
  });

  it("records every verdict in its block and applies only valid writes", async () => {
    await commit({ epoch: 1, namespaces: [{ namespace: "assets", writes: [{ key: "x", value: "1" }] }] });
    await commit({ namespaces: [{ namespace: "assets", writes: [{ key: "y", value: "2" }] }] });
    const underEndorsed = await craft(
      spec({ endorsers: [], namespaces: [{ namespace: "assets", writes: [{ key: "z", value: "3" }] }] }),
    );
    await sandbox.commitRaw(underEndorsed.envelope);
    assert.deepEqual(
      sandbox.blocks().map((b) => b.transactions.map((t) => t.codeName)),
      [[], ["BAD_COMMON_HEADER"], ["VALID"], ["ENDORSEMENT_POLICY_FAILURE"]],
    );
    assert.deepEqual([...sandbox.worldState().keys()], ["y"]);
    assert.deepEqual(sandbox.blocks()[3]!.transactions[0]!.envelope, Buffer.from(underEndorsed.envelope));
    const filter = common.Block.deserializeBinary(sandbox.blocks()[3]!.bytes).getMetadata()!.getMetadataList_asU8()[2];
    assert.deepEqual([...filter!], [10]);
  });
});
