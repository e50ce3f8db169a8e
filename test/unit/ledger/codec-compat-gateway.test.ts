import * as fp from "@hyperledger/fabric-protos";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { codecs } from "../../../provider/ledger/codec";
import type * as m from "../../../provider/ledger/messages";
import { assertCompatible, empty, fabricEnvelope, fabricResponse, u8 } from "./compat-helpers";

describe("codec byte compatibility with @hyperledger/fabric-protos: gateway and google.rpc", () => {
  it("encodes the gateway messages identically", () => {
    const g = fp.gateway;
    const signedProposal = new fp.peer.SignedProposal();
    signedProposal.setProposalBytes(u8("pb"));
    signedProposal.setSignature(u8("sg"));
    const ourSigned = { proposalBytes: u8("pb"), signature: u8("sg") };
    const endorse = new g.EndorseRequest();
    endorse.setTransactionId("tx");
    endorse.setChannelId("ch");
    endorse.setProposedTransaction(signedProposal);
    endorse.setEndorsingOrganizationsList(["Org1MSP", "Org2MSP"]);
    const ourEndorse = {
      transactionId: "tx",
      channelId: "ch",
      proposedTransaction: ourSigned,
      endorsingOrganizations: ["Org1MSP", "Org2MSP"],
    };
    assertCompatible(codecs.EndorseRequest, ourEndorse, endorse, g.EndorseRequest);
    const endorseResponse = new g.EndorseResponse();
    endorseResponse.setPreparedTransaction(fabricEnvelope(u8("p"), empty()));
    const ourEnvelope = { payload: u8("p"), signature: empty() };
    assertCompatible(codecs.EndorseResponse, { preparedTransaction: ourEnvelope }, endorseResponse, g.EndorseResponse);
    const submit = new g.SubmitRequest();
    submit.setTransactionId("tx");
    submit.setChannelId("ch");
    submit.setPreparedTransaction(fabricEnvelope(u8("p"), u8("s")));
    const ourSubmit = {
      transactionId: "tx",
      channelId: "ch",
      preparedTransaction: { payload: u8("p"), signature: u8("s") },
    };
    assertCompatible(codecs.SubmitRequest, ourSubmit, submit, g.SubmitRequest);
    const request = new g.CommitStatusRequest();
    request.setTransactionId("tx");
    request.setChannelId("ch");
    request.setIdentity(u8("id"));
    assertCompatible(
      codecs.CommitStatusRequest,
      { transactionId: "tx", channelId: "ch", identity: u8("id") },
      request,
      g.CommitStatusRequest,
    );
    const signedRequest = new g.SignedCommitStatusRequest();
    signedRequest.setRequest(request.serializeBinary());
    signedRequest.setSignature(u8("s"));
    const ourSignedRequest = { request: request.serializeBinary(), signature: u8("s") };
    assertCompatible(codecs.SignedCommitStatusRequest, ourSignedRequest, signedRequest, g.SignedCommitStatusRequest);
    const status = new g.CommitStatusResponse();
    status.setResult(fp.peer.TxValidationCode.INVALID_CHAINCODE);
    status.setBlockNumber(1234567);
    assertCompatible(
      codecs.CommitStatusResponse,
      { result: 25, blockNumber: 1234567n },
      status,
      g.CommitStatusResponse,
    );
    const evaluate = new g.EvaluateRequest();
    evaluate.setTransactionId("tx");
    evaluate.setChannelId("ch");
    evaluate.setProposedTransaction(signedProposal);
    evaluate.setTargetOrganizationsList(["Org1MSP"]);
    const ourEvaluate = {
      transactionId: "tx",
      channelId: "ch",
      proposedTransaction: ourSigned,
      targetOrganizations: ["Org1MSP"],
    };
    assertCompatible(codecs.EvaluateRequest, ourEvaluate, evaluate, g.EvaluateRequest);
    const evaluateResponse = new g.EvaluateResponse();
    evaluateResponse.setResult(fabricResponse(200, "", u8("r")));
    const ourEvaluateResponse = { result: { status: 200, message: "", payload: u8("r") } };
    assertCompatible(codecs.EvaluateResponse, ourEvaluateResponse, evaluateResponse, g.EvaluateResponse);
    const detail = new g.ErrorDetail();
    detail.setAddress("peer0:7051");
    detail.setMspId("Org1MSP");
    detail.setMessage("chaincode response 500");
    const ourDetail = { address: "peer0:7051", mspId: "Org1MSP", message: "chaincode response 500" };
    assertCompatible(codecs.ErrorDetail, ourDetail, detail, g.ErrorDetail);
    const proposed = new g.ProposedTransaction();
    proposed.setTransactionId("tx");
    proposed.setProposal(signedProposal);
    const ourProposed = { transactionId: "tx", proposal: ourSigned, endorsingOrganizations: [] };
    assertCompatible(codecs.ProposedTransaction, ourProposed, proposed, g.ProposedTransaction);
    const prepared = new g.PreparedTransaction();
    prepared.setTransactionId("tx");
    prepared.setEnvelope(fabricEnvelope(u8("p"), u8("s")));
    const ourPrepared = { transactionId: "tx", envelope: { payload: u8("p"), signature: u8("s") } };
    assertCompatible(codecs.PreparedTransaction, ourPrepared, prepared, g.PreparedTransaction);
  });

  it("encodes google.rpc.Status with Any-wrapped ErrorDetail identically", () => {
    const detail = new fp.gateway.ErrorDetail();
    detail.setMspId("Org2MSP");
    const any = new Any();
    any.setTypeUrl("type.googleapis.com/gateway.ErrorDetail");
    any.setValue(detail.serializeBinary());
    const theirs = new fp.google.rpc.Status();
    theirs.setCode(10);
    theirs.setMessage("aborted");
    theirs.setDetailsList([any]);
    const ours: m.RpcStatus = {
      code: 10,
      message: "aborted",
      details: [{ typeUrl: "type.googleapis.com/gateway.ErrorDetail", value: detail.serializeBinary() }],
    };
    assertCompatible(codecs.RpcStatus, ours, theirs, fp.google.rpc.Status);
  });
});
