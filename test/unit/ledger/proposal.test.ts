import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fp from "@hyperledger/fabric-protos";
import { ValidationError } from "../../../provider/errors/validation-error";
import { codecs } from "../../../provider/ledger/codec";
import type { Identity } from "../../../provider/ledger/identity";
import {
  applyVisibility,
  buildProposal,
  computeTxId,
  newNonce,
  parseProposal,
  parseVisibility,
} from "../../../provider/ledger/proposal";

const CERT = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";
const identity: Identity = { mspId: "Org1MSP", credentials: new TextEncoder().encode(CERT) };
const NONCE = Uint8Array.from({ length: 24 }, (_, i) => i);
const sha256 = (...parts: Uint8Array[]): Buffer => crypto.createHash("sha256").update(Buffer.concat(parts)).digest();

/** The serialized creator, built with fabric-protos (independently of our codec). */
function fabricCreator(): Uint8Array {
  const id = new fp.msp.SerializedIdentity();
  id.setMspid("Org1MSP");
  id.setIdBytes(new TextEncoder().encode(CERT));
  return id.serializeBinary();
}

describe("proposal", () => {
  it("computes txId as lowercase hex SHA-256 of nonce ‖ serialized SerializedIdentity", () => {
    const expected = sha256(NONCE, fabricCreator()).toString("hex");
    assert.equal(computeTxId(NONCE, fabricCreator()), expected);
    const built = buildProposal({ identity, channelId: "c", chaincodeName: "basic", functionName: "f", nonce: NONCE });
    assert.equal(built.txId, expected);
    assert.match(built.txId, /^[0-9a-f]{64}$/);
    assert.equal(Buffer.from(built.creator).toString("hex"), Buffer.from(fabricCreator()).toString("hex"));
  });

  it("uses 24 fresh random bytes as the default nonce", () => {
    const a = buildProposal({ identity, channelId: "c", chaincodeName: "basic", functionName: "f" });
    const b = buildProposal({ identity, channelId: "c", chaincodeName: "basic", functionName: "f" });
    assert.equal(a.nonce.length, 24);
    assert.equal(newNonce().length, 24);
    assert.notEqual(a.txId, b.txId);
  });

  it("computes the proposal hash over the original headers and the payload without TransientMap", () => {
    const built = buildProposal({
      identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["a1", new Uint8Array([0, 255])],
      transientData: new Map([["price", "100"]]),
      nonce: NONCE,
      now: () => new Date(1_000),
    });
    const proposal = fp.peer.Proposal.deserializeBinary(built.proposalBytes);
    const header = fp.common.Header.deserializeBinary(proposal.getHeader_asU8());
    const payload = fp.peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
    assert.equal(payload.getTransientmapMap().getLength(), 1);
    const stripped = new fp.peer.ChaincodeProposalPayload();
    stripped.setInput(payload.getInput_asU8());
    const expected = sha256(
      header.getChannelHeader_asU8(),
      header.getSignatureHeader_asU8(),
      stripped.serializeBinary(),
    );
    assert.equal(Buffer.from(built.proposalHash).toString("hex"), expected.toString("hex"));
    assert.equal(
      Buffer.from(built.transactionPayload).toString("hex"),
      Buffer.from(stripped.serializeBinary()).toString("hex"),
    );
    const spec = fp.peer.ChaincodeInvocationSpec.deserializeBinary(payload.getInput_asU8()).getChaincodeSpec()!;
    assert.deepEqual(
      spec
        .getInput()!
        .getArgsList_asU8()
        .map((a) => Buffer.from(a).toString("hex")),
      [Buffer.from("CreateAsset").toString("hex"), "6131", "00ff"],
    );
    const chdr = fp.common.ChannelHeader.deserializeBinary(header.getChannelHeader_asU8());
    assert.deepEqual(
      [
        chdr.getType(),
        chdr.getEpoch(),
        chdr.getVersion(),
        chdr.getTimestamp()!.getSeconds(),
        chdr.getTimestamp()!.getNanos(),
      ],
      [3, 0, 0, 1, 0],
    );
  });

  it("applies the visibility modes: full = cpp, hash = SHA-256(cpp), nothing = empty", () => {
    const base = {
      identity,
      channelId: "c",
      chaincodeName: "basic",
      functionName: "f",
      args: ["x"],
      transientData: { k: "v" },
      nonce: NONCE,
    };
    const full = buildProposal(base);
    const cpp = applyVisibility(full.payload, "full");
    assert.deepEqual(codecs.ChaincodeProposalPayload.decode(cpp).transientMap, new Map());
    const hashed = buildProposal({ ...base, visibility: "hash" });
    assert.equal(
      Buffer.from(hashed.transactionPayload).toString("hex"),
      sha256(applyVisibility(hashed.payload, "full")).toString("hex"),
    );
    const nothing = buildProposal({ ...base, visibility: "nothing" });
    assert.equal(nothing.transactionPayload.length, 0);
    assert.equal(
      Buffer.from(nothing.proposalHash).toString("hex"),
      sha256(nothing.channelHeader, nothing.signatureHeader).toString("hex"),
    );
    const ext = (p: typeof full) =>
      codecs.ChaincodeHeaderExtension.decode(codecs.ChannelHeader.decode(p.channelHeader).extension);
    assert.equal(ext(full).payloadVisibility.length, 0);
    assert.equal(parseVisibility(ext(hashed).payloadVisibility), "hash");
    assert.equal(parseVisibility(ext(nothing).payloadVisibility), "nothing");
    assert.equal(parseVisibility(new TextEncoder().encode("partial")), undefined);
  });

  it("round-trips through parseProposal with the same hash and payload", () => {
    const built = buildProposal({
      identity,
      channelId: "c",
      chaincodeName: "basic",
      functionName: "f",
      visibility: "hash",
      nonce: NONCE,
    });
    assert.deepEqual(parseProposal(built.proposalBytes), built);
  });

  it("prefixes the contract name to the function as contract:function", () => {
    const built = buildProposal({
      identity,
      channelId: "c",
      chaincodeName: "basic",
      contractName: "assets",
      functionName: "Read",
    });
    const spec = codecs.ChaincodeInvocationSpec.decode(
      codecs.ChaincodeProposalPayload.decode(built.payload).input,
    ).chaincodeSpec;
    assert.equal(new TextDecoder().decode(spec?.input?.args[0]), "assets:Read");
    assert.equal(spec?.type, 2);
  });

  it("rejects empty channel, chaincode, function and nonce with every failure named", () => {
    assert.throws(
      () => buildProposal({ identity, channelId: " ", chaincodeName: "", functionName: "", nonce: new Uint8Array(0) }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.message ===
          "Proposal: invalid input: channelId: must not be empty; chaincodeName: must not be empty; functionName: must not be empty; nonce: must not be empty (Fabric rejects an empty nonce)",
    );
  });

  it("builds a channelless proposal (to a peer itself) with no channel in its header, and refuses one naming a channel", () => {
    const built = buildProposal({
      identity,
      channelId: "",
      channelless: true,
      chaincodeName: "_lifecycle",
      functionName: "QueryInstalledChaincodes",
    });
    const header = codecs.Header.decode(codecs.Proposal.decode(built.proposalBytes).header);
    assert.equal(codecs.ChannelHeader.decode(header.channelHeader).channelId, "");
    assert.throws(
      () =>
        buildProposal({
          identity,
          channelId: "opsledger",
          channelless: true,
          chaincodeName: "_lifecycle",
          functionName: "InstallChaincode",
        }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.message ===
          "Proposal: invalid input: channelId: must be empty for a proposal to the peer itself (channelless)",
    );
  });
});
