import assert from "node:assert/strict";
import { main } from "../../../provider/ledger/cli";
import type { CliIo } from "../../../provider/ledger/cli";
import { codecs } from "../../../provider/ledger/codec";
import { sha256 } from "../../../provider/ledger/hash";
import { buildProposal } from "../../../provider/ledger/proposal";
import {
  chaincodeAction,
  endorse,
  newMember,
  newOrg,
  prepare,
  proposalResponsePayload,
  signEnvelope,
} from "./fixtures";

async function run(argv: string[], files: Record<string, Uint8Array>): Promise<{ code: number; json: unknown }> {
  let stdout = "";
  const io: CliIo = {
    stdout: (t) => (stdout += t),
    stderr: () => undefined,
    readFile: (path) => Promise.resolve(files[path] ?? new Uint8Array(0)),
  };
  const code = await main(argv, io);
  return { code, json: JSON.parse(stdout) as unknown };
}

/** An unsigned CONFIG envelope with no creator, as configtxgen writes the genesis block's. */
function configEnvelope(): Uint8Array {
  const channelHeader = codecs.ChannelHeader.encode({ type: 1, channelId: "mychannel", txId: "ab".repeat(32) });
  const signatureHeader = codecs.SignatureHeader.encode({ nonce: new Uint8Array(24).fill(7) });
  const payload = codecs.Payload.encode({
    header: { channelHeader, signatureHeader },
    data: Uint8Array.of(0x0a, 0x02, 0x08, 0x01),
  });
  return codecs.Envelope.encode({ payload });
}

describe("opsledger-ledger CLI on blocks and chain info (qscc GetBlockByNumber, GetChainInfo)", () => {
  let good: Uint8Array;
  let bad: Uint8Array;
  let caPem: string;

  before(async () => {
    const org = await newOrg("Org1MSP");
    caPem = org.caPem;
    const client = await newMember(org, "client");
    const peer = await newMember(org, "peer0");
    const envelope = async (args: string[], tamper: boolean): Promise<Uint8Array> => {
      const proposal = buildProposal({
        identity: client.identity,
        channelId: "mychannel",
        chaincodeName: "basic",
        functionName: "PutAsset",
        args,
      });
      const prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
      const endorsement = await endorse(peer, prp);
      const signature = tamper ? Uint8Array.from(endorsement.signature, (b, i) => (i === 10 ? b ^ 1 : b)) : undefined;
      return signEnvelope(
        prepare(proposal, prp, [signature === undefined ? endorsement : { ...endorsement, signature }]),
        client,
      );
    };
    good = await envelope(["a", "1"], false);
    bad = await envelope(["b", "2"], true);
  });

  const block = (data: Uint8Array[], filter: number[]): Uint8Array =>
    codecs.Block.encode({
      header: { number: 5n, previousHash: new Uint8Array(32), dataHash: new Uint8Array(32) },
      data: { data },
      metadata: { metadata: [new Uint8Array(0), new Uint8Array(0), Uint8Array.from(filter), new Uint8Array(0)] },
    });

  it("decodes a block with each transaction's recorded code by name, and a configuration block", async () => {
    const decoded = await run(["decode", "b.bin"], { "b.bin": block([good, bad], [0, 10]) });
    assert.equal(decoded.code, 0);
    const message = (decoded.json as { message: { transactionsFilter: unknown; header: { number: string } } }).message;
    assert.deepEqual(
      [message.header.number, message.transactionsFilter],
      ["5", ["VALID", "ENDORSEMENT_POLICY_FAILURE"]],
    );

    const config = await run(["decode", "c.bin"], { "c.bin": block([configEnvelope()], [0]) });
    assert.equal((config.json as { type: string }).type, "Block");
    const payload = (config.json as { message: { data: { data: { payload: Record<string, unknown> }[] } } }).message
      .data.data[0]?.payload;
    assert.deepEqual([payload?.dataType, payload?.data], ["common.ConfigEnvelope", "CgIIAQ=="]);
  });

  it("verifies every endorser transaction of a block next to its recorded code; exit 1 when one fails", async () => {
    const r = await run(["verify", "b.bin", "--trusted-ca", "Org1MSP=ca.pem"], {
      "b.bin": block([configEnvelope(), good, bad], [0, 0, 10]),
      "ca.pem": new TextEncoder().encode(caPem),
    });
    assert.equal(r.code, 1);
    const json = r.json as { ok: boolean; number: string; transactions: Record<string, unknown>[] };
    assert.deepEqual([json.ok, json.number], [false, "5"]);
    assert.deepEqual(
      json.transactions.map((t) => [t.index, t.recordedValidationCodeName, t.verified, t.ok ?? null]),
      [
        [0, "VALID", false, null],
        [1, "VALID", true, true],
        [2, "ENDORSEMENT_POLICY_FAILURE", true, false],
      ],
    );
    const failure = json.transactions[2]?.failure as Record<string, unknown>;
    assert.deepEqual(
      [failure.mismatch, failure.validationCodeName],
      ["endorsementSignature", "ENDORSEMENT_POLICY_FAILURE"],
    );
    const allGood = await run(["verify", "b.bin"], { "b.bin": block([good], [0]) });
    assert.equal(allGood.code, 0);
  });

  it("decodes qscc GetChainInfo's BlockchainInfo: the height and the last two block hashes", async () => {
    const current = sha256(Uint8Array.of(1));
    const previous = sha256(Uint8Array.of(2));
    const bytes = codecs.BlockchainInfo.encode({ height: 42n, currentBlockHash: current, previousBlockHash: previous });
    const r = await run(["decode", "info.bin"], { "info.bin": bytes });
    assert.equal(r.code, 0);
    assert.deepEqual(r.json, {
      type: "BlockchainInfo",
      message: {
        height: "42",
        currentBlockHash: Buffer.from(current).toString("base64"),
        previousBlockHash: Buffer.from(previous).toString("base64"),
      },
    });
  });
});
