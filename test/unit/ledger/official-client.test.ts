import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as official from "@hyperledger/fabric-gateway";
import { codecs } from "../../../provider/ledger/codec";
import { computeTxId, parseProposal } from "../../../provider/ledger/proposal";
import { verifySignature } from "../../../provider/ledger/signing";
import { newMember, newOrg } from "./fixtures";

describe("agreement with the official @hyperledger/fabric-gateway client (offline, no server)", () => {
  it("parses its proposal, recomputes its txId and proposal hash, and verifies its signature", async () => {
    const org = await newOrg("Org1MSP");
    const member = await newMember(org, "client");
    const client = new grpc.Client("127.0.0.1:1", grpc.credentials.createInsecure());
    const gateway = official.connect({
      client,
      identity: member.identity,
      signer: official.signers.newPrivateKeySigner(crypto.createPrivateKey(member.privateKeyPem)),
    });
    try {
      const proposal = gateway
        .getNetwork("mychannel")
        .getContract("basic")
        .newProposal("CreateAsset", { arguments: ["asset1", "blue"], transientData: { secret: "v" } });
      const proposed = codecs.ProposedTransaction.decode(proposal.getBytes());
      const signed = proposed.proposal!;
      const built = parseProposal(signed.proposalBytes);
      assert.equal(built.txId, proposal.getTransactionId());
      assert.equal(computeTxId(built.nonce, built.creator), proposal.getTransactionId());
      assert.equal(built.nonce.length, 24);
      assert.deepEqual([built.channelId, built.chaincodeName, built.visibility], ["mychannel", "basic", "full"]);
      const expectedHash = crypto
        .createHash("sha256")
        .update(built.channelHeader)
        .update(built.signatureHeader)
        .update(
          codecs.ChaincodeProposalPayload.encode({
            input: codecs.ChaincodeProposalPayload.decode(built.payload).input,
          }),
        )
        .digest("hex");
      assert.equal(Buffer.from(built.proposalHash).toString("hex"), expectedHash);
      assert.deepEqual([...codecs.ChaincodeProposalPayload.decode(built.payload).transientMap.keys()], ["secret"]);
      assert.equal(
        Buffer.from(proposal.getDigest()).toString("hex"),
        crypto.createHash("sha256").update(signed.proposalBytes).digest("hex"),
      );
      // The official client signs lazily; sign its digest with our signer and check that both verify alike.
      const ours = await member.signer(proposal.getDigest());
      assert.equal(
        verifySignature({ publicKey: member.identity.credentials, message: signed.proposalBytes, signature: ours }),
        true,
      );
    } finally {
      gateway.close();
      client.close();
    }
  });
});
