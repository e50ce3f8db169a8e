import assert from "node:assert/strict";
import { main, USAGE } from "../../../provider/ledger/cli";
import type { CliIo } from "../../../provider/ledger/cli";
import { codecs } from "../../../provider/ledger/codec";
import { buildProposal } from "../../../provider/ledger/proposal";
import type { BuiltProposal } from "../../../provider/ledger/proposal";
import { exportSignedTransaction } from "../../../provider/ledger/signed-transaction";
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

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  json: () => Record<string, unknown>;
}

async function run(argv: string[], files: Record<string, Uint8Array | string>): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: (t) => (stderr += t),
    readFile: (path) => {
      const content = files[path];
      if (content === undefined) return Promise.reject(new Error(`ENOENT: no such file '${path}'`));
      return Promise.resolve(typeof content === "string" ? new TextEncoder().encode(content) : content);
    },
  };
  const code = await main(argv, io);
  return { code, stdout, stderr, json: () => JSON.parse(stdout) as Record<string, unknown> };
}

/** Follows a dotted path through parsed JSON. */
function at(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

describe("opsledger-ledger CLI", () => {
  let client: TestMember;
  let caPem: string;
  let proposal: BuiltProposal;
  let signed: Uint8Array;
  let processed: Uint8Array;

  before(async () => {
    const org = await newOrg("Org1MSP");
    caPem = org.caPem;
    client = await newMember(org, "client");
    const peer = await newMember(org, "peer0");
    proposal = buildProposal({
      identity: client.identity,
      channelId: "mychannel",
      chaincodeName: "basic",
      functionName: "CreateAsset",
      args: ["asset1"],
      transientData: { secret: "s3cr3t-value" },
      now: NOW,
    });
    const prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
    signed = await signEnvelope(prepare(proposal, prp, [await endorse(peer, prp)]), client);
    processed = codecs.ProcessedTransaction.encode({
      transactionEnvelope: codecs.Envelope.decode(signed),
      validationCode: 11,
    });
  });

  it("decodes a base64 ProcessedTransaction into readable nested JSON", async () => {
    const r = await run(["decode", "tx.b64"], { "tx.b64": `${Buffer.from(processed).toString("base64")}\n` });
    assert.equal(r.code, 0);
    const json = r.json();
    assert.equal(json.type, "ProcessedTransaction");
    assert.equal(at(json, "message.validationCodeName"), "MVCC_READ_CONFLICT");
    const payload = "message.transactionEnvelope.payload";
    assert.equal(at(json, `${payload}.header.channelHeader.txId`), proposal.txId);
    assert.equal(at(json, `${payload}.header.channelHeader.epoch`), "0");
    assert.equal(at(json, `${payload}.header.channelHeader.extension.chaincodeId.name`), "basic");
    assert.equal(at(json, `${payload}.header.signatureHeader.creator.mspid`), "Org1MSP");
    assert.equal(at(json, `${payload}.header.signatureHeader.creator.certificate.subject`), "CN=client\nO=Org1MSP");
    const action = at(json, `${payload}.data.actions`) as Record<string, unknown>[];
    const spec = at(action[0], "payload.chaincodeProposalPayload.input.chaincodeSpec.input");
    assert.deepEqual(at(spec, "argsUtf8"), ["CreateAsset", "asset1"]);
    assert.deepEqual(at(spec, "args"), [
      Buffer.from("CreateAsset").toString("base64"),
      Buffer.from("asset1").toString("base64"),
    ]);
    const cca = at(action[0], "payload.action.proposalResponsePayload.extension");
    assert.equal(at(cca, "response.payloadUtf8"), "ok");
    assert.equal(at(cca, "chaincodeId.version"), "1.0");
    assert.deepEqual(at(cca, "results.nsRwset"), [
      {
        namespace: "basic",
        rwset: {
          reads: [],
          rangeQueriesInfo: [],
          writes: [{ key: "asset1", isDelete: false, value: "Ymx1ZQ==", valueUtf8: "blue" }],
          metadataWrites: [],
        },
        collectionHashedRwset: [],
      },
    ]);
  });

  it("prints transient map keys only, never their values", async () => {
    const proposed = codecs.ProposedTransaction.encode({
      transactionId: proposal.txId,
      proposal: { proposalBytes: proposal.proposalBytes, signature: new Uint8Array(0) },
    });
    const r = await run(["decode", "proposed.bin"], { "proposed.bin": proposed });
    assert.equal(r.code, 0);
    assert.equal(r.json().type, "ProposedTransaction");
    assert.deepEqual(at(r.json(), "message.proposal.proposalBytes.payload.transientMapKeys"), ["secret"]);
    assert.equal(r.stdout.includes("s3cr3t"), false);
    assert.equal(r.stdout.includes(Buffer.from("s3cr3t-value").toString("base64")), false);
  });

  it("verifies a committed transaction against a trusted CA and reports the recorded code", async () => {
    const r = await run(["verify", "tx.bin", "--trusted-ca", "Org1MSP=ca.pem"], {
      "tx.bin": processed,
      "ca.pem": caPem,
    });
    assert.equal(r.code, 0, r.stderr);
    const json = r.json();
    assert.deepEqual(
      [json.ok, json.transactionId, json.recordedValidationCodeName, json.chainsVerified],
      [true, proposal.txId, "MVCC_READ_CONFLICT", true],
    );
    assert.deepEqual(json.endorsers, [
      { mspId: "Org1MSP", chain: ["CN=peer0, O=Org1MSP", "CN=ca.org1msp, O=Org1MSP"] },
    ]);
    assert.equal(at(json, "response.payloadUtf8"), "ok");
  });

  it("reports a failed verification with the mismatch and the committer's code, exit 1", async () => {
    const tampered = new Uint8Array(signed);
    tampered[tampered.length - 3] = (tampered[tampered.length - 3] ?? 0) ^ 0x55;
    const r = await run(["verify", "env.bin", "--trusted-ca", "ca.pem"], { "env.bin": tampered, "ca.pem": caPem });
    assert.equal(r.code, 1);
    const failure = at(r.json(), "failure") as Record<string, unknown>;
    assert.deepEqual(
      [failure.mismatch, failure.validationCode, failure.validationCodeName],
      ["creatorSignature", 4, "BAD_CREATOR_SIGNATURE"],
    );
    assert.deepEqual(failure.passedChecks, ["structure", "creatorChain"]);
  });

  it("refuses an endorser outside the trusted CAs", async () => {
    const other = await newOrg("Org1MSP");
    const r = await run(["verify", "env.bin", "--trusted-ca", "Org1MSP=other.pem"], {
      "env.bin": signed,
      "other.pem": other.caPem,
    });
    assert.equal(r.code, 1);
    assert.equal(at(r.json(), "failure.mismatch"), "creator");
  });

  it("verifies a SignedTransaction export", async () => {
    const exported = await exportSignedTransaction(signed, client.signer);
    const r = await run(["verify", "st.bin"], { "st.bin": exported });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.json(), { type: "SignedTransaction", ok: true, creatorMspId: "Org1MSP", actions: 1 });
  });

  it("exits 2 with usage for bad invocations and unreadable input", async () => {
    const none = await run([], {});
    assert.deepEqual([none.code, none.stdout, none.stderr], [2, USAGE, ""]);
    const unknown = await run(["inspect", "x"], {});
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, `opsledger-ledger: unknown command 'inspect'\n${USAGE}`);
    const missing = await run(["decode", "nope.bin"], {});
    assert.deepEqual([missing.code, missing.stderr], [2, "opsledger-ledger: ENOENT: no such file 'nope.bin'\n"]);
    const junk = await run(["decode", "junk.bin"], { "junk.bin": Uint8Array.of(1, 2, 3) });
    assert.equal(junk.stderr.startsWith("opsledger-ledger: the file is not a recognizable ledger message"), true);
    const forced = await run(["decode", "e.bin", "--type", "Envelope"], { "e.bin": Uint8Array.of(0x0a, 0x01, 0x41) });
    assert.equal(forced.code, 0);
    assert.equal(at(forced.json(), "message.payload.undecodable"), "QQ==");
    assert.equal(at(forced.json(), "message.signature"), "");
  });
});
