/**
 * Ed25519 and ECDSA P-384 identities in the library: verify-before-sign and committer-style verification with Ed25519
 * and ECDSA P-384 endorsers, creators and certificate chains; the gateway client signing with each key type against a
 * scripted gateway that checks signatures as Fabric's MSP does; and connect() refusing, before anything is sent, a hash
 * the identity's key type cannot use or a signer of another key type.
 */
import assert from "node:assert/strict";
import { ConfigError } from "../../../provider/errors/config-error";
import type { TrustedMsp } from "../../../provider/ledger/cert-chain";
import { decodeDerSignatureOn, encodeDerSignature, P384 } from "../../../provider/ledger/ecdsa";
import { connect } from "../../../provider/ledger/gateway-client";
import { concatBytes, none, sha256 } from "../../../provider/ledger/hash";
import { serializeIdentity } from "../../../provider/ledger/identity";
import type { Endorsement } from "../../../provider/ledger/messages";
import { buildProposal } from "../../../provider/ledger/proposal";
import type { BuiltProposal } from "../../../provider/ledger/proposal";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { verifyPreparedTransaction, verifyTransactionEnvelope } from "../../../provider/ledger/verify";
import { startFakeGateway } from "./fake-gateway";
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
import type { TestMember } from "./fixtures";

interface Members {
  edClient: TestMember;
  p384Client: TestMember;
  edPeer: TestMember;
  p384Peer: TestMember;
  /** An Ed25519 key certified by the P-384 CA: a chain mixing both. */
  mixedPeer: TestMember;
  p256Peer: TestMember;
  trusted: TrustedMsp[];
}

async function refusedWith(promise: Promise<unknown>, code: number, message: string): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof VerificationError, String(error));
    assert.equal(error.validationCode, code);
    assert.equal(error.message, message);
    return true;
  });
}

describe("key types in verify-before-sign, the committer's checks and the gateway client", () => {
  let m: Members;
  let proposal: BuiltProposal;
  let prp: Uint8Array;

  before(async () => {
    const orgEd = await newOrg("OrgEdMSP", { keyType: "ed25519" });
    const orgP384 = await newOrg("OrgP384MSP", { keyType: "ecdsa-p384" });
    const org1 = await newOrg("Org1MSP");
    m = {
      edClient: await newMember(orgEd, "client"),
      p384Client: await newMember(orgP384, "client"),
      edPeer: await newMember(orgEd, "peer0"),
      p384Peer: await newMember(orgP384, "peer0"),
      mixedPeer: await newMember(orgP384, "peer1", { keyType: "ed25519" }),
      p256Peer: await newMember(org1, "peer0"),
      trusted: [
        { mspId: "OrgEdMSP", rootCertificates: [orgEd.caPem] },
        { mspId: "OrgP384MSP", rootCertificates: [orgP384.caPem] },
        { mspId: "Org1MSP", rootCertificates: [org1.caPem] },
      ],
    };
  });

  beforeEach(() => {
    proposal = buildProposal({
      identity: m.edClient.identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["asset1", "blue"],
      now: NOW,
    });
    prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
  });

  const verify = (endorsements: readonly Endorsement[]) =>
    verifyPreparedTransaction(proposal, prepare(proposal, prp, endorsements), { trustedMsps: m.trusted, now: NOW });
  const prefix = () => `Transaction ${proposal.txId} failed verification: endorsementSignature: `;
  const suffix = "; a committer would assign ENDORSEMENT_POLICY_FAILURE (10)";

  it("accepts endorsements from Ed25519, P-384, mixed-chain and P-256 endorsers, chains verified", async () => {
    const report = await verify([
      await endorse(m.edPeer, prp),
      await endorse(m.p384Peer, prp),
      await endorse(m.mixedPeer, prp),
      await endorse(m.p256Peer, prp),
    ]);
    assert.deepEqual(
      report.endorsers.map((e) => [e.mspId, e.chain]),
      [
        ["OrgEdMSP", ["CN=peer0, O=OrgEdMSP", "CN=ca.orgedmsp, O=OrgEdMSP"]],
        ["OrgP384MSP", ["CN=peer0, O=OrgP384MSP", "CN=ca.orgp384msp, O=OrgP384MSP"]],
        ["OrgP384MSP", ["CN=peer1, O=OrgP384MSP", "CN=ca.orgp384msp, O=OrgP384MSP"]],
        ["Org1MSP", ["CN=peer0, O=Org1MSP", "CN=ca.org1msp, O=Org1MSP"]],
      ],
    );
  });

  it("refuses a tampered endorsement of each key type with the committer's code", async () => {
    const other = proposalResponsePayload(
      proposal.proposalHash,
      chaincodeAction("basic", { payload: Buffer.from("x") }),
    );
    for (const [i, peer] of [m.edPeer, m.p384Peer].entries()) {
      const good = [await endorse(m.edPeer, prp), await endorse(m.p384Peer, prp)];
      good[i] = await endorse(peer, other); // signs another result
      await refusedWith(
        verify(good),
        10,
        `${prefix()}endorsement ${i} (${peer.identity.mspId}) does not sign this proposal_response_payload: the signature is invalid or the endorser endorsed a different result${suffix}`,
      );
    }
  });

  it("refuses an Ed25519 endorsement over a SHA-256 digest (fabric-gateway#757) and a high-S P-384 one", async () => {
    const serialized = serializeIdentity(m.edPeer.identity);
    const overDigest = { endorser: serialized, signature: await m.edPeer.signer(sha256(concatBytes(prp, serialized))) };
    await refusedWith(
      verify([overDigest]),
      10,
      `${prefix()}endorsement 0 (OrgEdMSP) does not sign this proposal_response_payload: the signature is invalid or the endorser endorsed a different result${suffix}`,
    );
    const low = await endorse(m.p384Peer, prp);
    const { r, s } = decodeDerSignatureOn(P384, low.signature)!;
    const high = { endorser: low.endorser, signature: encodeDerSignature(r, P384.n - s) };
    await refusedWith(
      verify([high]),
      10,
      `${prefix()}endorsement 0 (OrgP384MSP): the ECDSA P-384 signature is high-S (s > n/2 of P-384)${suffix}`,
    );
    const short = { endorser: serialized, signature: (await endorse(m.edPeer, prp)).signature.subarray(1) };
    await refusedWith(
      verify([short]),
      10,
      `${prefix()}endorsement 0 (OrgEdMSP): the Ed25519 signature is not a 64-byte Ed25519 signature${suffix}`,
    );
  });

  it("checks Ed25519 and P-384 creators' envelope signatures as a committer", async () => {
    for (const client of [m.edClient, m.p384Client]) {
      const built = buildProposal({ ...proposalOptions(), identity: client.identity });
      const payload = proposalResponsePayload(built.proposalHash, chaincodeAction("basic"));
      const unsigned = prepare(built, payload, [await endorse(m.edPeer, payload), await endorse(m.p384Peer, payload)]);
      const signed = await signEnvelope(unsigned, client);
      const report = await verifyTransactionEnvelope(signed, { trustedMsps: m.trusted, now: NOW });
      assert.deepEqual(report.checks.slice(0, 3), ["structure", "creatorChain", "creatorSignature"]);
      const tampered = Buffer.from(signed);
      tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
      await assert.rejects(
        verifyTransactionEnvelope(tampered, { trustedMsps: m.trusted, now: NOW }),
        (e: unknown) => e instanceof VerificationError && e.validationCode === 4 && e.mismatch === "creatorSignature",
      );
    }
  });

  it("submits with an Ed25519 and a P-384 identity: every signature verifies as Fabric's MSP checks it", async () => {
    const fake = await startFakeGateway({ endorsers: [m.edPeer, m.p384Peer] });
    try {
      for (const client of [m.edClient, m.p384Client]) {
        const gateway = connect({
          address: fake.address,
          identity: client.identity,
          signer: client.signer,
          trustedMsps: m.trusted,
          now: NOW,
        });
        const result = await gateway.submitTransaction(proposalOptions());
        gateway.close();
        assert.equal(result.status.codeName, "VALID");
        assert.deepEqual(
          fake.calls.splice(0).map((c) => [c.method, c.signatureValid]),
          [
            ["Endorse", true],
            ["Submit", true],
            ["CommitStatus", true],
          ],
        );
      }
    } finally {
      await fake.close();
    }
  });

  it("refuses, before anything is sent, a hash or signer the identity's key type cannot use", async () => {
    const fake = await startFakeGateway({ endorsers: [m.edPeer] });
    try {
      const base = { address: fake.address, trustedMsps: m.trusted };
      const cases: [() => unknown, string, string][] = [
        [
          () => connect({ ...base, identity: m.edClient.identity, signer: m.edClient.signer, hash: sha256 }),
          "hash",
          "hash: OrgEdMSP's identity has an Ed25519 key, which Fabric verifies over the message itself, never over a digest: leave hash out or set hash: none (a signature over a digest would be refused by every peer, fabric-gateway#757)",
        ],
        [
          () => connect({ ...base, identity: m.p384Client.identity, signer: m.p384Client.signer, hash: none }),
          "hash",
          "hash: OrgP384MSP's identity has an ECDSA P-384 key, which Fabric verifies over a SHA-256 digest: leave hash out or set hash: sha256, not none",
        ],
        [
          () => connect({ ...base, identity: m.edClient.identity, signer: m.p384Client.signer }),
          "signer",
          "signer: the private key is ECDSA P-384 but OrgEdMSP's identity has an Ed25519 key: use the private key of identity's certificate, or the certificate of this key",
        ],
      ];
      for (const [call, setting, message] of cases) {
        assert.throws(call, (e: unknown) => e instanceof ConfigError && e.setting === setting && e.message === message);
      }
      assert.equal(fake.calls.length, 0, "nothing was sent");
    } finally {
      await fake.close();
    }
  });
});

function proposalOptions() {
  return {
    channelId: "mychannel",
    chaincodeName: "basic",
    functionName: "CreateAsset",
    args: ["asset1", "blue"],
    now: NOW,
  };
}
