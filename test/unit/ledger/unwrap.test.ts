import assert from "node:assert/strict";
import { codecs } from "../../../provider/ledger/codec";
import { LedgerDecodeError } from "../../../provider/errors/ledger/ledger-decode-error";
import type { ChaincodeEvent } from "../../../provider/ledger/messages";
import { unwrap } from "../../../provider/ledger/unwrap";

const u8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const GARBAGE = Uint8Array.of(0x0a, 0x05, 0x01);
const CREATOR = codecs.SerializedIdentity.encode({ mspid: "Org1MSP", idBytes: u8("-----BEGIN CERTIFICATE-----\n") });
const SHDR = codecs.SignatureHeader.encode({ creator: CREATOR, nonce: u8("nonce") });

interface Parts {
  type?: number;
  epoch?: bigint;
  extension?: Uint8Array;
  signatureHeader?: Uint8Array;
  data?: Uint8Array;
  actions?: number;
  actionHeader?: Uint8Array;
  actionPayload?: Uint8Array;
  noEndorsedAction?: boolean;
  prpExtension?: Uint8Array;
  results?: Uint8Array;
  chaincodeId?: { name: string; version: string } | null;
  event?: Partial<ChaincodeEvent> | Uint8Array;
  namespaces?: string[];
}

function envelope(p: Parts = {}): Uint8Array {
  const rwset =
    p.results ??
    codecs.TxReadWriteSet.encode({
      nsRwset: (p.namespaces ?? ["basic"]).map((namespace) => ({
        namespace,
        rwset: codecs.KvRwSet.encode({ writes: [{ key: "k" }] }),
      })),
    });
  const events =
    p.event instanceof Uint8Array
      ? p.event
      : p.event === undefined
        ? new Uint8Array(0)
        : codecs.ChaincodeEvent.encode(p.event);
  const action = codecs.ChaincodeAction.encode({
    results: rwset,
    events,
    response: { status: 200 },
    ...(p.chaincodeId === null ? {} : { chaincodeId: p.chaincodeId ?? { name: "basic", version: "1" } }),
  });
  const prp = codecs.ProposalResponsePayload.encode({ proposalHash: u8("h"), extension: p.prpExtension ?? action });
  const cap =
    p.actionPayload ??
    codecs.ChaincodeActionPayload.encode({
      chaincodeProposalPayload: u8("cpp"),
      ...(p.noEndorsedAction === true ? {} : { action: { proposalResponsePayload: prp, endorsements: [] } }),
    });
  const one = { header: p.actionHeader ?? SHDR, payload: cap };
  const data = p.data ?? codecs.Transaction.encode({ actions: Array.from({ length: p.actions ?? 1 }, () => one) });
  const extension = p.extension ?? codecs.ChaincodeHeaderExtension.encode({ chaincodeId: { name: "basic" } });
  const chdr = codecs.ChannelHeader.encode({
    type: p.type ?? 3,
    channelId: "c",
    txId: "t",
    epoch: p.epoch ?? 0n,
    extension,
  });
  const payload = codecs.Payload.encode({
    header: { channelHeader: chdr, signatureHeader: p.signatureHeader ?? SHDR },
    data,
  });
  return codecs.Envelope.encode({ payload, signature: u8("sig") });
}

function assertCode(bytes: Uint8Array, code: number, path: string, reason: RegExp): void {
  assert.throws(
    () => unwrap(bytes),
    (e: unknown) =>
      e instanceof LedgerDecodeError && e.validationCode === code && e.path === path && reason.test(e.reason),
  );
}

describe("unwrap", () => {
  it("walks a valid envelope down to the KV writes and the event", () => {
    const u = unwrap(envelope({ event: { chaincodeId: "basic", eventName: "Created" } }));
    assert.equal(u.channelHeader.txId, "t");
    assert.equal(u.actionSignatureHeader.nonce.length, 5);
    assert.deepEqual(
      u.namespaces.map((n) => [n.namespace, n.kvRwSet.writes[0]?.key]),
      [["basic", "k"]],
    );
    assert.equal(u.event?.eventName, "Created");
  });

  it("fails with the code a committer assigns at each stage-A step", () => {
    assertCode(new Uint8Array(0), 1, "Envelope", /the envelope is empty/);
    assertCode(GARBAGE, 255, "Envelope", /not a valid common.Envelope/);
    assertCode(codecs.Envelope.encode({ payload: GARBAGE }), 2, "Envelope.payload", /not a valid common.Payload/);
    assertCode(
      codecs.Envelope.encode({ payload: codecs.Payload.encode({ data: u8("x") }) }),
      3,
      "Payload.header",
      /no header/,
    );
    assertCode(envelope({ type: 2 }), 7, "ChannelHeader.type", /CONFIG_UPDATE/);
    assertCode(envelope({ type: 1 }), 6, "ChannelHeader.type", /CONFIG transaction/);
    assertCode(envelope({ type: 5 }), 3, "ChannelHeader.type", /header type 5 is not ENDORSER_TRANSACTION/);
    assertCode(envelope({ epoch: 1n }), 3, "ChannelHeader.epoch", /epoch is 1, must be 0/);
    assertCode(
      envelope({ signatureHeader: GARBAGE }),
      3,
      "Payload.header.signature_header",
      /not a valid common.SignatureHeader/,
    );
    assertCode(
      envelope({ signatureHeader: codecs.SignatureHeader.encode({ creator: CREATOR }) }),
      3,
      "SignatureHeader.nonce",
      /empty/,
    );
    assertCode(
      envelope({ signatureHeader: codecs.SignatureHeader.encode({ nonce: u8("n") }) }),
      3,
      "SignatureHeader.creator",
      /empty/,
    );
    const badCreator = codecs.SignatureHeader.encode({ creator: GARBAGE, nonce: u8("n") });
    assertCode(
      envelope({ signatureHeader: badCreator }),
      4,
      "SignatureHeader.creator",
      /not a valid msp.SerializedIdentity/,
    );
    assertCode(envelope({ data: GARBAGE }), 5, "Payload.data", /not a valid protos.Transaction/);
    assertCode(envelope({ actions: 2 }), 5, "Transaction.actions", /expected exactly one action, found 2/);
    assertCode(envelope({ actions: 0 }), 5, "Transaction.actions", /found 0/);
    assertCode(
      envelope({ actionHeader: codecs.SignatureHeader.encode({ creator: CREATOR }) }),
      5,
      "TransactionAction.header",
      /empty nonce/,
    );
    assertCode(
      envelope({ actionPayload: GARBAGE }),
      5,
      "TransactionAction.payload",
      /not a valid protos.ChaincodeActionPayload/,
    );
    assertCode(envelope({ noEndorsedAction: true }), 5, "ChaincodeActionPayload.action", /no endorsed action/);
  });

  it("fails with the code a committer assigns at each stage-C step", () => {
    assertCode(
      envelope({ extension: GARBAGE }),
      19,
      "ChannelHeader.extension",
      /not a valid protos.ChaincodeHeaderExtension/,
    );
    assertCode(
      envelope({ prpExtension: GARBAGE }),
      21,
      "ProposalResponsePayload.extension",
      /not a valid protos.ChaincodeAction/,
    );
    assertCode(envelope({ results: GARBAGE }), 22, "ChaincodeAction.results", /not a valid rwset.TxReadWriteSet/);
    const badKv = codecs.TxReadWriteSet.encode({ nsRwset: [{ namespace: "basic", rwset: GARBAGE }] });
    assertCode(envelope({ results: badKv }), 22, "TxReadWriteSet.ns_rwset[0].rwset", /not a valid kvrwset.KVRWSet/);
    assertCode(envelope({ chaincodeId: null }), 255, "ChaincodeAction.chaincode_id", /no chaincode id/);
    const emptyName = codecs.ChaincodeHeaderExtension.encode({ chaincodeId: { name: "" } });
    assertCode(
      envelope({ extension: emptyName, chaincodeId: { name: "", version: "1" } }),
      25,
      "ChaincodeHeaderExtension.chaincode_id.name",
      /empty/,
    );
    assertCode(
      envelope({ chaincodeId: { name: "other", version: "1" } }),
      25,
      "ChaincodeAction.chaincode_id.name",
      /is for 'other', the header names 'basic'/,
    );
    assertCode(
      envelope({ chaincodeId: { name: "basic", version: "" } }),
      25,
      "ChaincodeAction.chaincode_id.version",
      /empty chaincode version/,
    );
    assertCode(envelope({ event: GARBAGE }), 255, "ChaincodeAction.events", /not a valid protos.ChaincodeEvent/);
    assertCode(
      envelope({ event: { chaincodeId: "other" } }),
      255,
      "ChaincodeEvent.chaincode_id",
      /names chaincode 'other', not 'basic'/,
    );
    assertCode(
      envelope({ namespaces: ["basic", "lscc", "basic"] }),
      23,
      "TxReadWriteSet.ns_rwset",
      /namespace 'basic' appears more than once/,
    );
  });

  it("names the transaction id and the committer's verdict in the message", () => {
    assert.throws(() => unwrap(envelope({ actions: 2 })), {
      message:
        "Transaction.actions: expected exactly one action, found 2 (a committer would assign INVALID_ENDORSER_TRANSACTION)",
      transactionId: "t",
      validationCodeName: "INVALID_ENDORSER_TRANSACTION",
    });
  });
});
