import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as fp from "@hyperledger/fabric-protos";
import { ConfigError } from "../../../provider/errors/config-error";
import { ValidationError } from "../../../provider/errors/validation-error";
import { connectEndorser } from "../../../provider/ledger/endorser-client";
import type { Endorser } from "../../../provider/ledger/endorser-client";
import { EndorserError } from "../../../provider/errors/ledger/endorser-error";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import { newMember, newOrg, NOW } from "./fixtures";
import type { TestMember } from "./fixtures";

/** A proposal as the scripted peer saw it, decoded with fabric-protos (not our codec). */
interface Seen {
  readonly channelId: string;
  readonly txId: string;
  readonly chaincode: string;
  readonly args: readonly string[];
  readonly creatorMsp: string;
  readonly signatureValid: boolean;
}

type Answer = { status: number; message?: string; payload?: string } | { grpcCode: grpc.status; message: string };

/** A peer's Endorser service on 127.0.0.1:0 that records each proposal and answers as scripted. */
async function startScriptedPeer(answer: () => Answer): Promise<{ address: string; seen: Seen[]; close(): void }> {
  const seen: Seen[] = [];
  const server = new grpc.Server();
  const implementation: fp.peer.IEndorserServer = {
    processProposal: (call, callback) => {
      const signed = call.request;
      const proposal = fp.peer.Proposal.deserializeBinary(signed.getProposalBytes_asU8());
      const header = fp.common.Header.deserializeBinary(proposal.getHeader_asU8());
      const channelHeader = fp.common.ChannelHeader.deserializeBinary(header.getChannelHeader_asU8());
      const signatureHeader = fp.common.SignatureHeader.deserializeBinary(header.getSignatureHeader_asU8());
      const creator = fp.msp.SerializedIdentity.deserializeBinary(signatureHeader.getCreator_asU8());
      const payload = fp.peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
      const spec = fp.peer.ChaincodeInvocationSpec.deserializeBinary(payload.getInput_asU8()).getChaincodeSpec();
      const key = new crypto.X509Certificate(Buffer.from(creator.getIdBytes_asU8())).publicKey;
      seen.push({
        channelId: channelHeader.getChannelId(),
        txId: channelHeader.getTxId(),
        chaincode: spec?.getChaincodeId()?.getName() ?? "",
        args: (spec?.getInput()?.getArgsList_asU8() ?? []).map((a) => Buffer.from(a).toString("utf8")),
        creatorMsp: creator.getMspid(),
        signatureValid: crypto.verify("sha256", signed.getProposalBytes_asU8(), key, signed.getSignature_asU8()),
      });
      const a = answer();
      if ("grpcCode" in a) {
        callback(
          Object.assign(new Error(a.message), { code: a.grpcCode, details: a.message, metadata: new grpc.Metadata() }),
        );
        return;
      }
      const response = new fp.peer.Response();
      response.setStatus(a.status);
      response.setMessage(a.message ?? "");
      response.setPayload(Buffer.from(a.payload ?? ""));
      const proposalResponse = new fp.peer.ProposalResponse();
      proposalResponse.setVersion(1);
      proposalResponse.setResponse(response);
      callback(null, proposalResponse);
    },
  };
  server.addService(fp.peer.EndorserService, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => {
      if (error === null) resolve(bound);
      else reject(error);
    });
  });
  return {
    address: `127.0.0.1:${String(port)}`,
    seen,
    close: () => {
      server.forceShutdown();
    },
  };
}

describe("Endorser client (against a scripted peer on 127.0.0.1)", () => {
  let admin: TestMember;
  let answer: Answer;
  let peer: Awaited<ReturnType<typeof startScriptedPeer>>;
  let endorser: Endorser;

  before(async () => {
    admin = await newMember(await newOrg("Org1MSP"), "Admin@org1");
    peer = await startScriptedPeer(() => answer);
    endorser = connectEndorser({
      address: peer.address,
      identity: admin.identity,
      signer: admin.signer,
      now: NOW,
    });
  });
  after(() => {
    endorser.close();
    peer.close();
  });
  beforeEach(() => {
    peer.seen.length = 0;
    answer = { status: 200, payload: "answered" };
  });

  it("sends a channelless proposal signed by the identity, as the peer CLI's install, and returns the answer", async () => {
    const response = await endorser.processProposal({
      chaincodeName: "_lifecycle",
      functionName: "QueryInstalledChaincodes",
      args: [new Uint8Array(0)],
    });
    assert.deepEqual(peer.seen, [
      {
        channelId: "",
        txId: response.transactionId,
        chaincode: "_lifecycle",
        args: ["QueryInstalledChaincodes", ""],
        creatorMsp: "Org1MSP",
        signatureValid: true,
      },
    ]);
    assert.deepEqual(
      [response.status, Buffer.from(response.payload).toString(), response.proposalResponse.version],
      [200, "answered", 1],
    );
  });

  it("sends a proposal to a channel's chaincode when channelId is given", async () => {
    await endorser.processProposal({ channelId: "opsledger", chaincodeName: "cscc", functionName: "GetChannels" });
    assert.deepEqual(
      peer.seen.map((s) => [s.channelId, s.chaincode, s.args]),
      [["opsledger", "cscc", ["GetChannels"]]],
    );
  });

  it("rejects a response status of 400 or more with EndorserError naming the peer, the call and the peer's words", async () => {
    answer = { status: 500, message: "Failed to authorize invocation due to failed ACL check: not an admin" };
    const error = await endorser
      .processProposal({ chaincodeName: "_lifecycle", functionName: "InstallChaincode" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    assert.ok(error instanceof EndorserError && error instanceof LedgerError);
    assert.deepEqual([error.status, error.code, error.address], [500, undefined, peer.address]);
    assert.equal(
      error.message,
      `_lifecycle InstallChaincode on the peer at ${peer.address}: the peer answered status 500: ` +
        "Failed to authorize invocation due to failed ACL check: not an admin",
    );
    assert.equal(error.transactionId, peer.seen[0]?.txId);
  });

  it("rejects a failed call with EndorserError carrying the gRPC code", async () => {
    answer = { grpcCode: grpc.status.PERMISSION_DENIED, message: "access denied" };
    const error = await endorser.processProposal({ chaincodeName: "cscc", functionName: "JoinChain" }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(error instanceof EndorserError);
    assert.deepEqual([error.code, error.status], [grpc.status.PERMISSION_DENIED, undefined]);
    assert.match(
      error.message,
      /cscc JoinChain on the peer at 127\.0\.0\.1:\d+: \/protos\.Endorser\/ProcessProposal failed \(gRPC 7\): access denied/,
    );
  });

  it("signs offline: getBytes() are the Proposal bytes, a signature of getDigest() is what is sent", async () => {
    const offline = connectEndorser({ address: peer.address, identity: admin.identity, now: NOW });
    try {
      const proposal = offline.newProposal({ chaincodeName: "_lifecycle", functionName: "QueryInstalledChaincodes" });
      await assert.rejects(proposal.send(), /No signer configured to sign the proposal/);
      assert.equal(peer.seen.length, 0);
      const signature = await admin.signer(proposal.getDigest());
      const signed = offline.newSignedProposal(proposal.getBytes(), signature);
      const response = await signed.send();
      assert.equal(response.transactionId, proposal.getTransactionId());
      assert.deepEqual(
        peer.seen.map((s) => s.signatureValid),
        [true],
      );
    } finally {
      offline.close();
    }
  });

  it("refuses bad input and settings before anything is sent", () => {
    assert.throws(
      () => endorser.newProposal({ chaincodeName: "", functionName: "InstallChaincode" }),
      (e: unknown) => e instanceof ValidationError && /chaincodeName: must not be empty/.test(e.message),
    );
    assert.throws(
      () => connectEndorser({ address: "peer0.example.com:7051", identity: admin.identity }),
      (e: unknown) => e instanceof ConfigError && e.setting === "peer.tls",
    );
    assert.throws(
      () => connectEndorser({ identity: admin.identity }),
      (e: unknown) => e instanceof ConfigError && e.setting === "peer.address",
    );
    assert.equal(peer.seen.length, 0);
  });
});
