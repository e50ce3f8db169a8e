import assert from "node:assert/strict";
import type { TrustedMsp } from "../../../provider/ledger/cert-chain";
import { codecs } from "../../../provider/ledger/codec";
import { decodeDerSignature, encodeDerSignature, P256_ORDER } from "../../../provider/ledger/ecdsa-p256";
import type { Endorsement } from "../../../provider/ledger/messages";
import { buildProposal } from "../../../provider/ledger/proposal";
import type { BuiltProposal } from "../../../provider/ledger/proposal";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import type { VerificationMismatch } from "../../../provider/errors/ledger/verification-error";
import { verifyPreparedTransaction, verifyTransactionEnvelope } from "../../../provider/ledger/verify";
import type { VerifyOptions } from "../../../provider/ledger/verify";
import {
  chaincodeAction,
  endorse,
  newMember,
  newOrg,
  NOW,
  prepare,
  proposalResponsePayload,
  signEnvelope,
} from "./fixtures";
import type { PrepareOverrides, TestMember } from "./fixtures";

interface Setup {
  client: TestMember;
  other: TestMember;
  peer1: TestMember;
  peer2: TestMember;
  rogue: TestMember;
  expired: TestMember;
  trusted: TrustedMsp[];
}

async function assertRefused(
  promise: Promise<unknown>,
  mismatch: VerificationMismatch,
  code: number,
  message: string | RegExp,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof VerificationError, `not a VerificationError: ${String(error)}`);
    assert.equal(error.mismatch, mismatch);
    assert.equal(error.validationCode, code);
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe("verify-before-sign", () => {
  let s: Setup;
  let proposal: BuiltProposal;
  let prp: Uint8Array;
  let endorsements: Endorsement[];
  let options: VerifyOptions;

  before(async () => {
    const org1 = await newOrg("Org1MSP");
    const org2 = await newOrg("Org2MSP");
    const impostor = await newOrg("Org2MSP");
    s = {
      client: await newMember(org1, "client"),
      other: await newMember(org1, "client2"),
      peer1: await newMember(org1, "peer0"),
      peer2: await newMember(org2, "peer0"),
      rogue: await newMember(impostor, "peer0"),
      expired: await newMember(org2, "peer1", { notAfter: new Date("2026-01-01T00:00:00Z") }),
      trusted: [
        { mspId: "Org1MSP", rootCertificates: [org1.caPem] },
        { mspId: "Org2MSP", rootCertificates: [org2.caPem] },
      ],
    };
    options = { trustedMsps: s.trusted, now: NOW };
  });

  beforeEach(async () => {
    proposal = buildProposal({
      identity: s.client.identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["asset1", "blue"],
      transientData: { secret: "s3cr3t" },
      now: NOW,
    });
    prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
    endorsements = [await endorse(s.peer1, prp), await endorse(s.peer2, prp)];
  });

  const refuse = (o: PrepareOverrides) =>
    verifyPreparedTransaction(proposal, prepare(proposal, prp, endorsements, o), options);
  const prefix = () => `Transaction ${proposal.txId} failed verification: `;

  it("accepts a genuine prepared transaction and reports its result and endorsers", async () => {
    const report = await verifyPreparedTransaction(proposal, prepare(proposal, prp, endorsements), options);
    assert.equal(report.transactionId, proposal.txId);
    assert.deepEqual(report.chaincode, { name: "basic", version: "1.0" });
    assert.equal(new TextDecoder().decode(report.response.payload), "ok");
    assert.deepEqual(
      report.endorsers.map((e) => [e.mspId, e.chain]),
      [
        ["Org1MSP", ["CN=peer0, O=Org1MSP", "CN=ca.org1msp, O=Org1MSP"]],
        ["Org2MSP", ["CN=peer0, O=Org2MSP", "CN=ca.org2msp, O=Org2MSP"]],
      ],
    );
    assert.deepEqual(report.checks, [
      "structure",
      "creator",
      "txId",
      "channel",
      "chaincode",
      "header",
      "actionHeader",
      "chaincodeProposalPayload",
      "proposalHash",
      "chaincodeAction",
      "response",
      "endorsementSignatures",
      "endorserChains",
    ]);
  });

  it("rejects a changed chaincode in the endorsed action with INVALID_CHAINCODE", async () => {
    const other = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic", { chaincodeName: "evil" }));
    const o = {
      proposalResponsePayload: other,
      endorsements: [await endorse(s.peer1, other), await endorse(s.peer2, other)],
    };
    await assertRefused(
      refuse(o),
      "chaincode",
      25,
      `${prefix()}chaincode: ChaincodeAction.chaincode_id.name: the chaincode action is for 'evil', the header names 'basic'; a committer would assign INVALID_CHAINCODE (25)`,
    );
  });

  it("rejects changed arguments in chaincode_proposal_payload with INVALID_ENDORSER_TRANSACTION", async () => {
    const changed = buildProposal({ ...proposalInput(s.client), args: ["asset1", "red"] });
    await assertRefused(
      refuse({ chaincodeProposalPayload: changed.transactionPayload }),
      "args",
      5,
      `${prefix()}args: the function or arguments differ from the ones we proposed; a committer would assign INVALID_ENDORSER_TRANSACTION (5)`,
    );
  });

  it("rejects a bad endorsement signature with ENDORSEMENT_POLICY_FAILURE", async () => {
    const bad = endorsements[1]!;
    const { r, s: sv } = decodeDerSignature(bad.signature)!;
    const forged = { endorser: bad.endorser, signature: encodeDerSignature(r, sv - 1n) };
    await assertRefused(
      refuse({ endorsements: [endorsements[0]!, forged] }),
      "endorsementSignature",
      10,
      `${prefix()}endorsementSignature: endorsement 1 (Org2MSP) does not sign this proposal_response_payload: the signature is invalid or the endorser endorsed a different result; a committer would assign ENDORSEMENT_POLICY_FAILURE (10)`,
    );
  });

  it("rejects a high-S endorsement signature even though it is mathematically valid", async () => {
    const e = endorsements[0]!;
    const { r, s: sv } = decodeDerSignature(e.signature)!;
    const high = { endorser: e.endorser, signature: encodeDerSignature(r, P256_ORDER - sv) };
    await assertRefused(
      refuse({ endorsements: [high] }),
      "endorsementSignature",
      10,
      /endorsement 0 \(Org1MSP\): the ECDSA P-256 signature is high-S \(s > n\/2 of P-256\); a committer/,
    );
  });

  it("rejects an endorser that does not chain to the trusted root of its MSP", async () => {
    const rogue = await endorse(s.rogue, prp);
    await assertRefused(
      refuse({ endorsements: [endorsements[0]!, rogue] }),
      "endorser",
      10,
      `${prefix()}endorser: endorsement 1 (Org2MSP): certificate of Org2MSP: does not chain to a trusted root CA of Org2MSP (issuer: CN=ca.org2msp, O=Org2MSP); a committer would assign ENDORSEMENT_POLICY_FAILURE (10)`,
    );
  });

  it("rejects an endorser whose certificate has expired", async () => {
    const expired = await endorse(s.expired, prp);
    await assertRefused(
      refuse({ endorsements: [expired] }),
      "endorser",
      10,
      /the certificate is not valid at 2026-06-01T00:00:00.000Z/,
    );
  });

  it("re-checks the validity period of a chain it verified before", async () => {
    const env = prepare(proposal, prp, endorsements);
    await verifyPreparedTransaction(proposal, env, options);
    const later = { ...options, now: () => new Date("2036-01-01T00:00:00Z") };
    await assertRefused(
      verifyPreparedTransaction(proposal, env, later),
      "endorser",
      10,
      /endorsement 0 \(Org1MSP\): .*the certificate is not valid at 2036-01-01T00:00:00.000Z/,
    );
  });

  it("rejects an endorser from an untrusted MSP", async () => {
    const verify = verifyPreparedTransaction(proposal, prepare(proposal, prp, endorsements), {
      ...options,
      trustedMsps: [s.trusted[0]!],
    });
    await assertRefused(verify, "endorser", 10, /MSP 'Org2MSP' is not trusted \(trusted: Org1MSP\)/);
  });

  it("rejects a mismatched proposal hash, even when re-endorsed", async () => {
    const wrong = proposalResponsePayload(new Uint8Array(32), chaincodeAction("basic"));
    const o = { proposalResponsePayload: wrong, endorsements: [await endorse(s.peer1, wrong)] };
    await assertRefused(
      refuse(o),
      "proposalHash",
      5,
      `${prefix()}proposalHash: proposal_hash is not the hash of our proposal (channel header ‖ signature header ‖ f(payload)); a committer would assign INVALID_ENDORSER_TRANSACTION (5)`,
    );
  });

  it("rejects disagreeing endorsements: one endorser endorsed a different result", async () => {
    const different = proposalResponsePayload(
      proposal.proposalHash,
      chaincodeAction("basic", { payload: new TextEncoder().encode("other") }),
    );
    const disagreeing = await endorse(s.peer2, different);
    await assertRefused(
      refuse({ endorsements: [endorsements[0]!, disagreeing] }),
      "endorsementSignature",
      10,
      /endorsement 1 \(Org2MSP\) does not sign this proposal_response_payload/,
    );
  });

  it("rejects a transaction without endorsements or without a required organization", async () => {
    await assertRefused(refuse({ endorsements: [] }), "endorsements", 10, /the transaction carries no endorsements/);
    const verify = verifyPreparedTransaction(proposal, prepare(proposal, prp, [endorsements[0]!]), {
      ...options,
      requiredOrganizations: ["Org1MSP", "Org2MSP"],
    });
    await assertRefused(verify, "endorsements", 10, /no valid endorsement from required organization\(s\) Org2MSP/);
  });

  it("rejects another creator, a changed txId and another channel", async () => {
    const foreign = buildProposal({ ...proposalInput(s.other), nonce: proposal.nonce });
    await assertRefused(
      refuse({ signatureHeader: foreign.signatureHeader }),
      "creator",
      4,
      /creator: the creator is Org1MSP's identity, not ours/,
    );
    const renamed = buildProposal({ ...proposalInput(s.client), nonce: proposal.nonce, channelId: "otherchannel" });
    await assertRefused(
      refuse({ channelHeader: renamed.channelHeader }),
      "channel",
      5,
      /channel is 'otherchannel', we proposed 'mychannel'/,
    );
    const fresh = buildProposal(proposalInput(s.client));
    await assertRefused(
      refuse({ channelHeader: fresh.channelHeader }),
      "txId",
      8,
      /is not hex\(SHA-256\(nonce ‖ creator\)\); a committer would assign BAD_PROPOSAL_TXID \(8\)/,
    );
    await assertRefused(
      refuse({ channelHeader: fresh.channelHeader, signatureHeader: fresh.signatureHeader }),
      "txId",
      5,
      new RegExp(`tx_id is '${fresh.txId}', we proposed '${proposal.txId}'`),
    );
  });

  it("rejects a TransactionAction.header that is not our SignatureHeader", async () => {
    const foreign = buildProposal(proposalInput(s.client));
    await assertRefused(
      refuse({ actionHeader: foreign.signatureHeader }),
      "actionHeader",
      5,
      /TransactionAction.header is not our SignatureHeader/,
    );
  });

  it("rejects a chaincode error response although a committer would accept it", async () => {
    const failing = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic", { status: 500 }));
    const o = { proposalResponsePayload: failing, endorsements: [await endorse(s.peer1, failing)] };
    await assertRefused(
      refuse(o),
      "response",
      0,
      /the chaincode response status is 500, not a success; a committer would still accept it \(VALID\)/,
    );
  });

  it("rejects garbage with a malformed error carrying the committer's code", async () => {
    const verify = verifyPreparedTransaction(
      proposal,
      codecs.Envelope.encode({ payload: Uint8Array.of(0x0a, 0x05, 0x01) }),
      options,
    );
    await assertRefused(
      verify,
      "malformed",
      2,
      /^Transaction .* failed verification: malformed: Envelope.payload: not a valid common.Payload/,
    );
  });

  it("checks the hash visibility mode against f(our payload)", async () => {
    const hashed = buildProposal({ ...proposalInput(s.client), visibility: "hash" });
    const hashedPrp = proposalResponsePayload(hashed.proposalHash, chaincodeAction("basic"));
    const env = prepare(hashed, hashedPrp, [await endorse(s.peer1, hashedPrp)]);
    assert.equal((await verifyPreparedTransaction(hashed, env, options)).visibility, "hash");
    const full = prepare(hashed, hashedPrp, [await endorse(s.peer1, hashedPrp)], {
      chaincodeProposalPayload: proposal.transactionPayload,
    });
    await assertRefused(
      verifyPreparedTransaction(hashed, full, options),
      "chaincodeProposalPayload",
      5,
      /is not f\(our payload\) for visibility 'hash'/,
    );
  });

  describe("as a committer (verifyTransactionEnvelope)", () => {
    it("accepts the signed transaction and rejects an unsigned one unless allowed", async () => {
      const unsigned = prepare(proposal, prp, endorsements);
      const signed = await signEnvelope(unsigned, s.client);
      const report = await verifyTransactionEnvelope(signed, options);
      assert.deepEqual(report.checks.slice(0, 5), [
        "structure",
        "creatorChain",
        "creatorSignature",
        "txId",
        "proposalHash",
      ]);
      assert.equal(report.chainsVerified, true);
      await assertRefused(
        verifyTransactionEnvelope(unsigned, options),
        "creatorSignature",
        4,
        /the envelope signature does not verify/,
      );
      const allowed = await verifyTransactionEnvelope(unsigned, { allowUnsigned: true });
      assert.equal(allowed.checks[1], "creatorSignature(unsigned)");
      assert.equal(allowed.chainsVerified, false);
    });

    it("rejects a signature by someone other than the creator", async () => {
      const signed = await signEnvelope(prepare(proposal, prp, endorsements), s.other);
      await assertRefused(
        verifyTransactionEnvelope(signed, options),
        "creatorSignature",
        4,
        /BAD_CREATOR_SIGNATURE \(4\)$/,
      );
    });

    it("rejects a proposal hash that does not match the transaction's own header and payload", async () => {
      const changed = buildProposal({ ...proposalInput(s.client), args: ["x"] });
      const signed = await signEnvelope(
        prepare(proposal, prp, endorsements, { chaincodeProposalPayload: changed.transactionPayload }),
        s.client,
      );
      await assertRefused(
        verifyTransactionEnvelope(signed, options),
        "proposalHash",
        5,
        /proposal_hash is not SHA-256\(channel header ‖ action header ‖ chaincode_proposal_payload\)/,
      );
    });
  });

  function proposalInput(client: TestMember) {
    return {
      identity: client.identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["asset1", "blue"],
      now: NOW,
    };
  }
});
