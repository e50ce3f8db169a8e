import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import { codecs } from "../../../provider/ledger/codec";
import { buildProposal } from "../../../provider/ledger/proposal";
import { unwrap } from "../../../provider/ledger/unwrap";
import {
  chaincodeAction,
  endorse,
  newMember,
  newOrg,
  prepare,
  proposalResponsePayload,
  signEnvelope,
} from "./fixtures";
import type { TestMember } from "./fixtures";

const u8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (b: Uint8Array | string): string => (typeof b === "string" ? b : new TextDecoder().decode(b));
const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");

describe("the whole envelope chain against @hyperledger/fabric-protos", () => {
  let client: TestMember;
  let peer1: TestMember;
  let peer2: TestMember;

  before(async () => {
    const org1 = await newOrg("Org1MSP");
    const org2 = await newOrg("Org2MSP");
    client = await newMember(org1, "client");
    peer1 = await newMember(org1, "peer0");
    peer2 = await newMember(org2, "peer0");
  });

  it("decodes every level of our signed transaction with fabric-protos, which re-encodes each to the same bytes", async () => {
    const proposal = buildProposal({
      identity: client.identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["asset1", "blue"],
      transientData: { secret: "s3cr3t" },
      now: () => new Date("2026-06-01T12:00:00.123Z"),
    });
    const prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
    const envelopeBytes = await signEnvelope(
      prepare(proposal, prp, [await endorse(peer1, prp), await endorse(peer2, prp)]),
      client,
    );

    const envelope = fp.common.Envelope.deserializeBinary(envelopeBytes);
    assert.equal(hex(envelope.serializeBinary()), hex(envelopeBytes));
    const payload = fp.common.Payload.deserializeBinary(envelope.getPayload_asU8());
    assert.equal(hex(payload.serializeBinary()), hex(envelope.getPayload_asU8()));
    const header = payload.getHeader()!;
    const chdr = fp.common.ChannelHeader.deserializeBinary(header.getChannelHeader_asU8());
    assert.equal(hex(chdr.serializeBinary()), hex(proposal.channelHeader));
    assert.deepEqual(
      [chdr.getType(), chdr.getEpoch(), chdr.getChannelId(), chdr.getTxId()],
      [3, 0, "mychannel", proposal.txId],
    );
    assert.deepEqual(
      [chdr.getTimestamp()!.getSeconds(), chdr.getTimestamp()!.getNanos()],
      [1_780_315_200, 123_000_000],
    );
    const ext = fp.peer.ChaincodeHeaderExtension.deserializeBinary(chdr.getExtension_asU8());
    assert.equal(ext.getChaincodeId()!.getName(), "basic");
    const shdr = fp.common.SignatureHeader.deserializeBinary(header.getSignatureHeader_asU8());
    assert.equal(hex(shdr.serializeBinary()), hex(proposal.signatureHeader));
    const creator = fp.msp.SerializedIdentity.deserializeBinary(shdr.getCreator_asU8());
    assert.equal(creator.getMspid(), "Org1MSP");
    assert.equal(text(creator.getIdBytes_asU8()), text(client.identity.credentials));
    assert.equal(shdr.getNonce_asU8().length, 24);

    const tx = fp.peer.Transaction.deserializeBinary(payload.getData_asU8());
    assert.equal(hex(tx.serializeBinary()), hex(payload.getData_asU8()));
    assert.equal(tx.getActionsList().length, 1);
    const action = tx.getActionsList()[0]!;
    assert.equal(hex(action.getHeader_asU8()), hex(proposal.signatureHeader));
    const cap = fp.peer.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8());
    assert.equal(hex(cap.serializeBinary()), hex(action.getPayload_asU8()));
    const cpp = fp.peer.ChaincodeProposalPayload.deserializeBinary(cap.getChaincodeProposalPayload_asU8());
    assert.equal(cpp.getTransientmapMap().getLength(), 0);
    const spec = fp.peer.ChaincodeInvocationSpec.deserializeBinary(cpp.getInput_asU8()).getChaincodeSpec()!;
    assert.deepEqual(spec.getInput()!.getArgsList_asU8().map(text), ["CreateAsset", "asset1", "blue"]);
    assert.equal(spec.getType(), fp.peer.ChaincodeSpec.Type.NODE);
    const endorsed = cap.getAction()!;
    assert.deepEqual(
      endorsed
        .getEndorsementsList()
        .map((e) => fp.msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid()),
      ["Org1MSP", "Org2MSP"],
    );
    const prpMsg = fp.peer.ProposalResponsePayload.deserializeBinary(endorsed.getProposalResponsePayload_asU8());
    assert.equal(hex(prpMsg.getProposalHash_asU8()), hex(proposal.proposalHash));
    const cca = fp.peer.ChaincodeAction.deserializeBinary(prpMsg.getExtension_asU8());
    assert.equal(hex(cca.serializeBinary()), hex(prpMsg.getExtension_asU8()));
    assert.deepEqual([cca.getChaincodeId()!.getName(), cca.getChaincodeId()!.getVersion()], ["basic", "1.0"]);
    assert.equal(text(cca.getResponse()!.getPayload_asU8()), "ok");
    const rwset = fp.ledger.rwset.TxReadWriteSet.deserializeBinary(cca.getResults_asU8());
    const kv = fp.ledger.rwset.kvrwset.KVRWSet.deserializeBinary(rwset.getNsRwsetList()[0]!.getRwset_asU8());
    assert.deepEqual(
      kv.getWritesList().map((w) => [w.getKey(), text(w.getValue_asU8())]),
      [["asset1", "blue"]],
    );

    const processed = new fp.peer.ProcessedTransaction();
    processed.setTransactionenvelope(envelope);
    processed.setValidationcode(fp.peer.TxValidationCode.VALID);
    const ours = codecs.ProcessedTransaction.decode(processed.serializeBinary());
    assert.equal(hex(codecs.Envelope.encode(ours.transactionEnvelope!)), hex(envelopeBytes));
  });

  it("unwraps a transaction built with fabric-protos down to its KV writes", () => {
    const id = new fp.msp.SerializedIdentity();
    id.setMspid("Org1MSP");
    id.setIdBytes(client.identity.credentials);
    const shdr = new fp.common.SignatureHeader();
    shdr.setCreator(id.serializeBinary());
    shdr.setNonce(u8("n".repeat(24)));
    const ccid = new fp.peer.ChaincodeID();
    ccid.setName("basic");
    const ext = new fp.peer.ChaincodeHeaderExtension();
    ext.setChaincodeId(ccid);
    const chdr = new fp.common.ChannelHeader();
    chdr.setType(fp.common.HeaderType.ENDORSER_TRANSACTION);
    chdr.setChannelId("mychannel");
    chdr.setTxId("t".repeat(64));
    chdr.setExtension$(ext.serializeBinary());
    const write = new fp.ledger.rwset.kvrwset.KVWrite();
    write.setKey("k");
    write.setValue(u8("v"));
    const kv = new fp.ledger.rwset.kvrwset.KVRWSet();
    kv.setWritesList([write]);
    const ns = new fp.ledger.rwset.NsReadWriteSet();
    ns.setNamespace("basic");
    ns.setRwset(kv.serializeBinary());
    const rw = new fp.ledger.rwset.TxReadWriteSet();
    rw.setNsRwsetList([ns]);
    const response = new fp.peer.Response();
    response.setStatus(200);
    response.setPayload(u8("result"));
    const versioned = new fp.peer.ChaincodeID();
    versioned.setName("basic");
    versioned.setVersion("2");
    const cca = new fp.peer.ChaincodeAction();
    cca.setResults(rw.serializeBinary());
    cca.setResponse(response);
    cca.setChaincodeId(versioned);
    const prp = new fp.peer.ProposalResponsePayload();
    prp.setProposalHash(u8("h"));
    prp.setExtension$(cca.serializeBinary());
    const endorsement = new fp.peer.Endorsement();
    endorsement.setEndorser(id.serializeBinary());
    endorsement.setSignature(u8("sig"));
    const endorsed = new fp.peer.ChaincodeEndorsedAction();
    endorsed.setProposalResponsePayload(prp.serializeBinary());
    endorsed.setEndorsementsList([endorsement]);
    const cap = new fp.peer.ChaincodeActionPayload();
    cap.setChaincodeProposalPayload(u8("cpp"));
    cap.setAction(endorsed);
    const action = new fp.peer.TransactionAction();
    action.setHeader(shdr.serializeBinary());
    action.setPayload(cap.serializeBinary());
    const tx = new fp.peer.Transaction();
    tx.setActionsList([action]);
    const header = new fp.common.Header();
    header.setChannelHeader(chdr.serializeBinary());
    header.setSignatureHeader(shdr.serializeBinary());
    const payload = new fp.common.Payload();
    payload.setHeader(header);
    payload.setData(tx.serializeBinary());
    const envelope = new fp.common.Envelope();
    envelope.setPayload(payload.serializeBinary());
    envelope.setSignature(u8("client-sig"));

    const u = unwrap(envelope.serializeBinary());
    assert.equal(u.channelHeader.txId, "t".repeat(64));
    assert.equal(u.creator.mspid, "Org1MSP");
    assert.equal(u.headerExtension.chaincodeId?.name, "basic");
    assert.deepEqual(u.chaincodeAction.chaincodeId, { path: "", name: "basic", version: "2" });
    assert.equal(text(u.chaincodeAction.response!.payload), "result");
    assert.deepEqual(u.namespaces, [
      {
        namespace: "basic",
        kvRwSet: {
          reads: [],
          rangeQueriesInfo: [],
          writes: [{ key: "k", isDelete: false, value: u8("v") }],
          metadataWrites: [],
        },
      },
    ]);
    assert.equal(text(u.endorsedAction.endorsements[0]!.signature), "sig");
    assert.equal(hex(codecs.Payload.encode(u.payload)), hex(payload.serializeBinary()));
    assert.equal(hex(codecs.Transaction.encode(u.transaction)), hex(tx.serializeBinary()));
  });
});
