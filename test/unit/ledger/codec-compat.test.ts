import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import { codecs } from "../../../provider/ledger/codec";
import type * as m from "../../../provider/ledger/messages";
import { MetaDataKeys } from "../../../provider/ledger/metadata-keys";
import { TxValidationCode } from "../../../provider/errors/ledger/validation-codes";
import {
  assertCompatible,
  CERT,
  empty,
  fabricChaincodeId,
  fabricEndorsement,
  fabricEnvelope,
  fabricResponse,
  hex,
  timestamp,
  u8,
} from "./compat-helpers";

describe("codec byte compatibility with @hyperledger/fabric-protos", () => {
  describe("transaction-side messages", () => {
    it("encodes ProcessedTransaction identically, with camelCase field names and a non-VALID code", () => {
      const theirs = new fp.peer.ProcessedTransaction();
      theirs.setTransactionenvelope(fabricEnvelope(u8("payload"), u8("sig")));
      theirs.setValidationcode(11);
      const ours: m.ProcessedTransaction = {
        transactionEnvelope: { payload: u8("payload"), signature: u8("sig") },
        validationCode: TxValidationCode.MVCC_READ_CONFLICT,
      };
      assertCompatible(codecs.ProcessedTransaction, ours, theirs, fp.peer.ProcessedTransaction);
    });

    it("encodes a VALID ProcessedTransaction without the validationCode field", () => {
      const theirs = new fp.peer.ProcessedTransaction();
      theirs.setTransactionenvelope(fabricEnvelope(u8("p"), empty()));
      const ours: m.ProcessedTransaction = {
        transactionEnvelope: { payload: u8("p"), signature: empty() },
        validationCode: 0,
      };
      assertCompatible(codecs.ProcessedTransaction, ours, theirs, fp.peer.ProcessedTransaction);
      assert.equal(hex(codecs.ProcessedTransaction.encode(ours)), "0a030a0170");
    });

    it("encodes Transaction and TransactionAction identically", () => {
      const action = new fp.peer.TransactionAction();
      action.setHeader(u8("signature-header"));
      action.setPayload(u8("action-payload"));
      const theirs = new fp.peer.Transaction();
      theirs.setActionsList([action]);
      const ours: m.Transaction = { actions: [{ header: u8("signature-header"), payload: u8("action-payload") }] };
      assertCompatible(codecs.Transaction, ours, theirs, fp.peer.Transaction);
      assertCompatible(codecs.TransactionAction, ours.actions[0]!, action, fp.peer.TransactionAction);
    });

    it("encodes ChaincodeActionPayload and ChaincodeEndorsedAction identically", () => {
      const endorsed = new fp.peer.ChaincodeEndorsedAction();
      endorsed.setProposalResponsePayload(u8("prp"));
      endorsed.setEndorsementsList([fabricEndorsement(u8("e1"), u8("s1")), fabricEndorsement(u8("e2"), u8("s2"))]);
      const theirs = new fp.peer.ChaincodeActionPayload();
      theirs.setChaincodeProposalPayload(u8("cpp"));
      theirs.setAction(endorsed);
      const ours: m.ChaincodeActionPayload = {
        chaincodeProposalPayload: u8("cpp"),
        action: {
          proposalResponsePayload: u8("prp"),
          endorsements: [
            { endorser: u8("e1"), signature: u8("s1") },
            { endorser: u8("e2"), signature: u8("s2") },
          ],
        },
      };
      assertCompatible(codecs.ChaincodeActionPayload, ours, theirs, fp.peer.ChaincodeActionPayload);
      assertCompatible(codecs.ChaincodeEndorsedAction, ours.action!, endorsed, fp.peer.ChaincodeEndorsedAction);
    });

    it("has every TxValidationCode and MetaDataKeys value of fabric-protos, including INVALID_CHAINCODE = 25", () => {
      assert.deepEqual({ ...TxValidationCode }, { ...fp.peer.TxValidationCode });
      assert.deepEqual({ ...MetaDataKeys }, { ...fp.peer.MetaDataKeys });
      assert.equal(TxValidationCode.INVALID_CHAINCODE, 25);
    });

    it("encodes SignedTransaction as Fabric 1.4 did (transaction_bytes = 1, signature = 2)", () => {
      const bytes = codecs.SignedTransaction.encode({ transactionBytes: u8("tx"), signature: u8("sg") });
      assert.equal(hex(bytes), "0a02747812027367");
      assert.deepEqual(codecs.SignedTransaction.decode(bytes), { transactionBytes: u8("tx"), signature: u8("sg") });
    });
  });

  describe("the envelope chain", () => {
    it("encodes Envelope, Payload and Header identically", () => {
      const header = new fp.common.Header();
      header.setChannelHeader(u8("ch"));
      header.setSignatureHeader(u8("sh"));
      const payload = new fp.common.Payload();
      payload.setHeader(header);
      payload.setData(u8("data"));
      const ourHeader: m.Header = { channelHeader: u8("ch"), signatureHeader: u8("sh") };
      assertCompatible(codecs.Header, ourHeader, header, fp.common.Header);
      assertCompatible(codecs.Payload, { header: ourHeader, data: u8("data") }, payload, fp.common.Payload);
      assertCompatible(
        codecs.Envelope,
        { payload: u8("p"), signature: u8("s") },
        fabricEnvelope(u8("p"), u8("s")),
        fp.common.Envelope,
      );
    });

    it("encodes ChannelHeader identically, omitting zero version and epoch and empty bytes", () => {
      const theirs = new fp.common.ChannelHeader();
      theirs.setType(3);
      theirs.setTimestamp(timestamp(1_700_000_000, 123_000_000));
      theirs.setChannelId("mychannel");
      theirs.setTxId("ab".repeat(32));
      theirs.setExtension$(u8("ext"));
      const ours: m.ChannelHeader = {
        type: 3,
        version: 0,
        timestamp: { seconds: 1_700_000_000n, nanos: 123_000_000 },
        channelId: "mychannel",
        txId: "ab".repeat(32),
        epoch: 0n,
        extension: u8("ext"),
        tlsCertHash: empty(),
      };
      assertCompatible(codecs.ChannelHeader, ours, theirs, fp.common.ChannelHeader);
    });

    it("encodes a large uint64 epoch identically", () => {
      const theirs = new fp.common.ChannelHeader();
      theirs.setEpoch(2 ** 40 + 7);
      const ours = codecs.ChannelHeader.decode(theirs.serializeBinary());
      assert.equal(ours.epoch, 2n ** 40n + 7n);
      assert.equal(hex(codecs.ChannelHeader.encode(ours)), hex(theirs.serializeBinary()));
    });

    it("encodes SignatureHeader and SerializedIdentity identically", () => {
      const id = new fp.msp.SerializedIdentity();
      id.setMspid("Org1MSP");
      id.setIdBytes(CERT);
      assertCompatible(codecs.SerializedIdentity, { mspid: "Org1MSP", idBytes: CERT }, id, fp.msp.SerializedIdentity);
      const sh = new fp.common.SignatureHeader();
      sh.setCreator(id.serializeBinary());
      sh.setNonce(u8("nonce"));
      assertCompatible(
        codecs.SignatureHeader,
        { creator: id.serializeBinary(), nonce: u8("nonce") },
        sh,
        fp.common.SignatureHeader,
      );
    });

    it("encodes the proposal messages identically", () => {
      const input = new fp.peer.ChaincodeInput();
      input.setArgsList([u8("CreateAsset"), u8("asset1")]);
      input.getDecorationsMap().set("d", u8("v"));
      input.setIsInit(true);
      const spec = new fp.peer.ChaincodeSpec();
      spec.setType(fp.peer.ChaincodeSpec.Type.NODE);
      spec.setChaincodeId(fabricChaincodeId("basic", ""));
      spec.setInput(input);
      const invocation = new fp.peer.ChaincodeInvocationSpec();
      invocation.setChaincodeSpec(spec);
      const ourInput: m.ChaincodeInput = {
        args: [u8("CreateAsset"), u8("asset1")],
        decorations: new Map([["d", u8("v")]]),
        isInit: true,
      };
      const ourSpec: m.ChaincodeSpec = {
        type: 2,
        chaincodeId: { path: "", name: "basic", version: "" },
        input: ourInput,
        timeout: 0,
      };
      assertCompatible(
        codecs.ChaincodeInvocationSpec,
        { chaincodeSpec: ourSpec },
        invocation,
        fp.peer.ChaincodeInvocationSpec,
      );

      const cpp = new fp.peer.ChaincodeProposalPayload();
      cpp.setInput(invocation.serializeBinary());
      cpp.getTransientmapMap().set("secret", u8("value"));
      const ourCpp: m.ChaincodeProposalPayload = {
        input: invocation.serializeBinary(),
        transientMap: new Map([["secret", u8("value")]]),
      };
      assertCompatible(codecs.ChaincodeProposalPayload, ourCpp, cpp, fp.peer.ChaincodeProposalPayload);

      const ext = new fp.peer.ChaincodeHeaderExtension();
      ext.setChaincodeId(fabricChaincodeId("basic", ""));
      const ourExt: m.ChaincodeHeaderExtension = {
        payloadVisibility: empty(),
        chaincodeId: { path: "", name: "basic", version: "" },
      };
      assertCompatible(codecs.ChaincodeHeaderExtension, ourExt, ext, fp.peer.ChaincodeHeaderExtension);

      const proposal = new fp.peer.Proposal();
      proposal.setHeader(u8("h"));
      proposal.setPayload(cpp.serializeBinary());
      assertCompatible(
        codecs.Proposal,
        { header: u8("h"), payload: cpp.serializeBinary(), extension: empty() },
        proposal,
        fp.peer.Proposal,
      );
      const signed = new fp.peer.SignedProposal();
      signed.setProposalBytes(proposal.serializeBinary());
      signed.setSignature(u8("sig"));
      const ourSigned = { proposalBytes: proposal.serializeBinary(), signature: u8("sig") };
      assertCompatible(codecs.SignedProposal, ourSigned, signed, fp.peer.SignedProposal);
    });

    it("encodes the response side identically", () => {
      const action = new fp.peer.ChaincodeAction();
      action.setResults(u8("rw"));
      action.setEvents(u8("ev"));
      action.setResponse(fabricResponse(200, "OK", u8("result")));
      action.setChaincodeId(fabricChaincodeId("basic", "1.0"));
      const ourAction: m.ChaincodeAction = {
        results: u8("rw"),
        events: u8("ev"),
        response: { status: 200, message: "OK", payload: u8("result") },
        chaincodeId: { path: "", name: "basic", version: "1.0" },
      };
      assertCompatible(codecs.ChaincodeAction, ourAction, action, fp.peer.ChaincodeAction);
      const prp = new fp.peer.ProposalResponsePayload();
      prp.setProposalHash(u8("hash"));
      prp.setExtension$(action.serializeBinary());
      const ourPrp = { proposalHash: u8("hash"), extension: action.serializeBinary() };
      assertCompatible(codecs.ProposalResponsePayload, ourPrp, prp, fp.peer.ProposalResponsePayload);
      const event = new fp.peer.ChaincodeEvent();
      event.setChaincodeId("basic");
      event.setTxId("tx");
      event.setEventName("Created");
      event.setPayload(u8("{}"));
      const ourEvent = { chaincodeId: "basic", txId: "tx", eventName: "Created", payload: u8("{}") };
      assertCompatible(codecs.ChaincodeEvent, ourEvent, event, fp.peer.ChaincodeEvent);
      const response = new fp.peer.ProposalResponse();
      response.setVersion(1);
      response.setResponse(fabricResponse(200, "", empty()));
      response.setPayload(prp.serializeBinary());
      response.setEndorsement(fabricEndorsement(u8("e"), u8("s")));
      const ourResponse: m.ProposalResponse = {
        version: 1,
        response: { status: 200, message: "", payload: empty() },
        payload: prp.serializeBinary(),
        endorsement: { endorser: u8("e"), signature: u8("s") },
      };
      assertCompatible(codecs.ProposalResponse, ourResponse, response, fp.peer.ProposalResponse);
    });

    it("encodes read/write sets identically", () => {
      const rwset = fp.ledger.rwset;
      const kvrwset = rwset.kvrwset;
      const version = new kvrwset.Version();
      version.setBlockNum(5);
      version.setTxNum(2);
      const read = new kvrwset.KVRead();
      read.setKey("asset1");
      read.setVersion(version);
      const absent = new kvrwset.KVRead();
      absent.setKey("asset2");
      const write = new kvrwset.KVWrite();
      write.setKey("asset1");
      write.setValue(u8("blue"));
      const del = new kvrwset.KVWrite();
      del.setKey("asset3");
      del.setIsDelete(true);
      const raw = new kvrwset.QueryReads();
      raw.setKvReadsList([read]);
      const range = new kvrwset.RangeQueryInfo();
      range.setStartKey("a");
      range.setEndKey("z");
      range.setItrExhausted(true);
      range.setRawReads(raw);
      const kv = new kvrwset.KVRWSet();
      kv.setReadsList([read, absent]);
      kv.setRangeQueriesInfoList([range]);
      kv.setWritesList([write, del]);
      const ourRead: m.KvRead = { key: "asset1", version: { blockNum: 5n, txNum: 2n } };
      const ourKv: m.KvRwSet = {
        reads: [ourRead, { key: "asset2" }],
        rangeQueriesInfo: [{ startKey: "a", endKey: "z", itrExhausted: true, rawReads: { kvReads: [ourRead] } }],
        writes: [
          { key: "asset1", isDelete: false, value: u8("blue") },
          { key: "asset3", isDelete: true, value: empty() },
        ],
        metadataWrites: [],
      };
      assertCompatible(codecs.KvRwSet, ourKv, kv, kvrwset.KVRWSet);
      const ns = new rwset.NsReadWriteSet();
      ns.setNamespace("basic");
      ns.setRwset(kv.serializeBinary());
      const tx = new rwset.TxReadWriteSet();
      tx.setNsRwsetList([ns]);
      const ourTx: m.TxReadWriteSet = {
        dataModel: 0,
        nsRwset: [{ namespace: "basic", rwset: kv.serializeBinary(), collectionHashedRwset: [] }],
      };
      assertCompatible(codecs.TxReadWriteSet, ourTx, tx, rwset.TxReadWriteSet);
    });
  });
});
