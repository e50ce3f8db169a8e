/**
 * The generated wire reader and writer (provider/ledger/wire-*.ts) against protobufjs 8 as the reference decoder,
 * plus the proto3 rules protobufjs does not exercise on our messages: oneof replacement, message merging, unknown
 * fields and groups, wire-type mismatches, and the allocation of results.
 */
import assert from "node:assert/strict";
import fc from "fast-check";
import * as protobuf from "protobufjs";
import { codecs } from "../../../provider/ledger/codec";
import type { CodecName, MessageCodec } from "../../../provider/ledger/codec";
import { LedgerDecodeError } from "../../../provider/errors/ledger/ledger-decode-error";
import { buildProposal } from "../../../provider/ledger/proposal";
import { protoType } from "../../../provider/ledger/proto-root";
import { decodeWireMessage } from "../../../provider/ledger/wire-decode";
import { WireFormatError } from "../../../provider/errors/ledger/wire-format-error";
import { encodeWireMessage, SLAB_MAX_MESSAGE } from "../../../provider/ledger/wire-encode";
import { MAX_DEPTH, wireMessageOf } from "../../../provider/ledger/wire-schema";
import { chaincodeAction, endorse, newMember, newOrg, NOW, prepare, proposalResponsePayload } from "./fixtures";
import { mutate } from "./mutate";

type Plain = Record<string, unknown>;

/** Our shape of a protobufjs-decoded message, written from protobufjs reflection only (no code of ours). */
function reference(type: protobuf.Type, message: Plain): Plain {
  const out: Plain = {};
  for (const field of type.fieldsArray) {
    field.resolve();
    const name = field.name.charAt(0).toLowerCase() + field.name.slice(1);
    const value = message[field.name];
    const one = (v: unknown): unknown => {
      if (field.resolvedType instanceof protobuf.Type) return reference(field.resolvedType, v as Plain);
      if (field.type === "bytes") {
        const b = v as Uint8Array;
        return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
      }
      if (field.type === "int64" || field.type === "uint64") return BigInt(String(v));
      return v;
    };
    if (field.map) {
      const map = new Map<string, unknown>();
      for (const [k, v] of Object.entries((value ?? {}) as Plain)) map.set(k, one(v));
      out[name] = map;
    } else if (field.repeated) out[name] = ((value ?? []) as unknown[]).map(one);
    else if (field.partOf !== null) {
      if (message[field.partOf.name] === field.name) out[name] = one(value);
    } else if (field.resolvedType instanceof protobuf.Type) {
      if (value !== null && value !== undefined) out[name] = one(value);
    } else out[name] = one(value);
  }
  return out;
}

function referenceDecode(typeName: string, bytes: Uint8Array): Plain {
  const type = protoType(typeName);
  return reference(type, type.decode(bytes));
}

/** A one-byte field key (fields 1 to 15). */
function tag(field: number, wireType: number): number {
  assert.ok(field < 16);
  return (field << 3) | wireType;
}

/** A field key of any field number, as varint bytes. */
function key(field: number, wireType: number): number[] {
  const out: number[] = [];
  let v = ((field << 3) | wireType) >>> 0;
  while (v > 127) {
    out.push((v & 127) | 128);
    v >>>= 7;
  }
  out.push(v);
  return out;
}

describe("wire reader and writer", () => {
  describe("against protobufjs 8 (reference decoder)", () => {
    /** Genuine bytes of each message in a signed transaction's chain (no bool or oneof fields: see below). */
    const samples: [CodecName, Uint8Array][] = [];

    before(async () => {
      const org = await newOrg("Org1MSP");
      const client = await newMember(org, "client");
      const peer = await newMember(org, "peer0");
      const proposal = buildProposal({
        identity: client.identity,
        channelId: "mychannel",
        chaincodeName: "basic",
        functionName: "CreateAsset",
        args: ["asset1", "é€😀"],
        transientData: new Map([["secret", new Uint8Array([1, 2, 3])]]),
        now: NOW,
      });
      const action = chaincodeAction("basic", { payload: new Uint8Array([7, 7]) });
      const prp = proposalResponsePayload(proposal.proposalHash, action);
      const envelope = prepare(proposal, prp, [await endorse(peer, prp)]);
      const payload = codecs.Payload.decode(codecs.Envelope.decode(envelope).payload);
      const header = payload.header ?? assert.fail("no header");
      const transaction = codecs.Transaction.decode(payload.data);
      const cap = codecs.ChaincodeActionPayload.decode(transaction.actions[0]?.payload ?? assert.fail("no action"));
      samples.push(
        ["Envelope", envelope],
        ["Payload", codecs.Envelope.decode(envelope).payload],
        ["Header", codecs.Header.encode(header)],
        ["ChannelHeader", header.channelHeader],
        ["SignatureHeader", header.signatureHeader],
        ["Transaction", payload.data],
        ["ChaincodeActionPayload", transaction.actions[0]?.payload ?? assert.fail("no action")],
        ["ProposalResponsePayload", prp],
        ["ChaincodeAction", action],
        ["Proposal", proposal.proposalBytes],
        ["ChaincodeProposalPayload", codecs.Proposal.decode(proposal.proposalBytes).payload],
        ["ChaincodeEndorsedAction", codecs.ChaincodeEndorsedAction.encode(cap.action ?? assert.fail("no action"))],
      );
    });

    it("decodes genuine bytes exactly as protobufjs does", () => {
      assert.equal(samples.length, 12);
      for (const [name, bytes] of samples) {
        const codec = codecs[name] as MessageCodec<unknown>;
        assert.deepStrictEqual(codec.decode(bytes), referenceDecode(codec.typeName, bytes), name);
      }
    });

    it("agrees with protobufjs on mutated bytes: the same message, or both refuse", () => {
      // Both implement proto3 the same way for these messages (they have no bool and no oneof fields, the two places
      // where protobufjs 8 departs from Go: it reads bools from the low 32 bits only and keeps every oneof member).
      let refused = 0;
      fc.assert(
        fc.property(
          fc.nat({ max: samples.length - 1 }).chain((i) => {
            const [name, bytes] = samples[i]!;
            return fc.tuple(fc.constant(name), mutate(bytes));
          }),
          ([name, bytes]) => {
            const codec = codecs[name] as MessageCodec<unknown>;
            let expected: Plain | Error;
            try {
              expected = referenceDecode(codec.typeName, bytes);
            } catch (error) {
              expected = error as Error;
            }
            if (expected instanceof Error) {
              assert.throws(
                () => codec.decode(bytes),
                LedgerDecodeError,
                `${name}: protobufjs said ${expected.message}`,
              );
              refused++;
            } else assert.deepStrictEqual(codec.decode(bytes), expected, name);
          },
        ),
        { numRuns: 3000 },
      );
      assert.ok(refused > 100, `only ${refused} of 3000 mutations were refused: the mutations are too weak`);
    });
  });

  describe("proto3 rules", () => {
    const seek = wireMessageOf(protoType("orderer.SeekPosition"));
    const header = wireMessageOf(protoType("common.ChannelHeader"));
    const payload = wireMessageOf(protoType("common.Payload"));

    it("keeps only the last oneof member read", () => {
      // SeekPosition { oneof Type { SeekNewest newest = 1; SeekOldest oldest = 2; SeekSpecified specified = 3; } }
      const bytes = new Uint8Array([tag(1, 2), 0, tag(3, 2), 2, tag(1, 0), 42]);
      assert.deepStrictEqual(decodeWireMessage(seek, bytes), { specified: { number: 42n } });
      assert.deepStrictEqual(decodeWireMessage(seek, new Uint8Array([tag(3, 2), 0, tag(2, 2), 0])), { oldest: {} });
    });

    it("merges the occurrences of a message field and keeps the last scalar", () => {
      // Payload.header (1) twice: channel_header from the first, signature_header from the second.
      const bytes = new Uint8Array([tag(1, 2), 3, tag(1, 2), 1, 0xaa, tag(1, 2), 3, tag(2, 2), 1, 0xbb]);
      assert.deepStrictEqual(decodeWireMessage(payload, bytes), {
        header: { channelHeader: new Uint8Array([0xaa]), signatureHeader: new Uint8Array([0xbb]) },
        data: new Uint8Array(0),
      });
      // ChannelHeader.version (2) twice: the last wins.
      assert.equal(decodeWireMessage(header, new Uint8Array([tag(2, 0), 5, tag(2, 0), 9])).version, 9);
    });

    it("skips unknown fields of every wire type, groups included, and known fields of the wrong wire type", () => {
      const bytes = new Uint8Array([
        ...[...key(99, 0), 0x80, 0x01], // varint
        ...[...key(98, 1), 1, 2, 3, 4, 5, 6, 7, 8], // fixed64
        ...[...key(2 ** 29 - 1, 5), 1, 2, 3, 4], // fixed32, the largest field number
        ...[...key(96, 3), tag(1, 0), 1, tag(2, 3), tag(2, 4), ...key(96, 4)], // a group holding a group
        ...[tag(9, 2), 0], // length-delimited
        ...[tag(4, 0), 7], // channel_id (4) is a string: a varint there is skipped
        ...[tag(4, 2), 2, 0x68, 0x69],
      ]);
      assert.equal(decodeWireMessage(header, bytes).channelId, "hi");
    });

    it("refuses truncation, bad tags and bad UTF-8 with the reason", () => {
      const cases: [number[], string][] = [
        [[tag(4, 2), 5, 0x68], "index out of range: the message is truncated"],
        [[0x00, 0x01], "illegal tag: field number 0"],
        [[tag(5, 4)], "invalid end group tag"],
        [[tag(5, 3), tag(6, 4)], "invalid end group tag"],
        [[tag(5, 6)], "invalid wire type 6"],
        [[0xff, 0xff, 0xff, 0xff, 0x1f], "invalid tag encoding"],
        [[tag(4, 2), 0x80, 0x80, 0x80, 0x80, 0x08], "invalid length encoding"],
        [[tag(2, 0), ...Array<number>(10).fill(0xff), 0x01], "invalid varint encoding (more than 10 bytes)"],
        [[tag(4, 2), 2, 0xc3, 0x28], "a string field is not valid UTF-8"],
      ];
      for (const [bytes, reason] of cases) {
        assert.throws(() => decodeWireMessage(header, new Uint8Array(bytes)), new WireFormatError({ message: reason }));
      }
      const deep = new Uint8Array(MAX_DEPTH + 20).fill(tag(5, 3)); // groups nested deeper than the limit
      assert.throws(() => decodeWireMessage(header, deep), new WireFormatError({ message: "max depth exceeded" }));
    });

    it("decodes a Buffer into plain Uint8Array views of the same memory", () => {
      const input = Buffer.from([tag(1, 2), 2, 0xab, 0xcd, tag(2, 2), 0]);
      const decoded = codecs.Envelope.decode(input);
      assert.equal(decoded.payload.constructor, Uint8Array);
      assert.equal(decoded.payload.buffer, input.buffer);
      assert.deepStrictEqual(decoded, { payload: new Uint8Array([0xab, 0xcd]), signature: new Uint8Array(0) });
    });

    it("refuses a schema with a field kind it does not implement, naming the field", () => {
      const root = protobuf.parse('syntax = "proto3"; package t; message M { double ratio = 1; }').root;
      assert.throws(
        () => wireMessageOf(root.lookupType("t.M")),
        /t\.M\.ratio \(double\) uses a field kind provider\/ledger\/wire-schema\.ts does not implement/,
      );
    });
  });

  describe("results", () => {
    it("are independent views of exactly their own bytes, small or large", () => {
      const small = codecs.Envelope.encode({ payload: new Uint8Array([1, 2, 3]), signature: new Uint8Array([4]) });
      const large = codecs.Envelope.encode({ payload: new Uint8Array(SLAB_MAX_MESSAGE + 1).fill(9) });
      const next = codecs.Envelope.encode({ payload: new Uint8Array([5, 6]) });
      assert.deepStrictEqual(small, new Uint8Array([10, 3, 1, 2, 3, 18, 1, 4]));
      assert.deepStrictEqual(next, new Uint8Array([10, 2, 5, 6]));
      assert.equal(large.byteLength, 1 + 2 + SLAB_MAX_MESSAGE + 1);
      assert.equal(large.byteOffset, 0);
      assert.equal(large.buffer.byteLength, large.byteLength);
      assert.equal(small.constructor, Uint8Array);
      // Neighbours on the shared slab do not overlap.
      if (small.buffer === next.buffer) assert.ok(next.byteOffset >= small.byteOffset + small.byteLength);
    });

    it("write map entries in protobufjs's key order and strings as UTF-8", () => {
      const layout = wireMessageOf(protoType("protos.ChaincodeProposalPayload"));
      const transientMap = new Map([
        ["b", new Uint8Array([2])],
        ["1", new Uint8Array([1])],
      ]);
      const bytes = encodeWireMessage(layout, { input: new Uint8Array([0]), transientMap });
      const theirs = protoType("protos.ChaincodeProposalPayload");
      const expected = theirs
        .encode({ input: new Uint8Array([0]), TransientMap: { b: new Uint8Array([2]), 1: new Uint8Array([1]) } })
        .finish();
      assert.deepStrictEqual(Buffer.from(bytes), Buffer.from(expected));
      const text = codecs.ChannelHeader.encode({ channelId: "é€😀", txId: "x".repeat(100) });
      assert.deepStrictEqual(codecs.ChannelHeader.decode(text).channelId, "é€😀");
      assert.equal(codecs.ChannelHeader.decode(text).txId, "x".repeat(100));
    });
  });
});
