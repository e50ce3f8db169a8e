import assert from "node:assert/strict";
import fc from "fast-check";
import { codecs } from "../../../provider/ledger/codec";
import type { CodecName, MessageCodec, MessageInit } from "../../../provider/ledger/codec";
import { LedgerDecodeError } from "../../../provider/errors/ledger/ledger-decode-error";
import type * as g from "../../../provider/ledger/gateway-messages";
import type * as m from "../../../provider/ledger/messages";
import { buildProposal } from "../../../provider/ledger/proposal";
import { unwrap } from "../../../provider/ledger/unwrap";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { verifyPreparedTransaction, verifyTransactionEnvelope } from "../../../provider/ledger/verify";
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
import { mutate } from "./mutate";

const bytes = fc.uint8Array({ maxLength: 40 });
const text = fc.string({ unit: "grapheme", maxLength: 12 });
const int32 = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 });
const uint32 = fc.integer({ min: 0, max: 2 ** 32 - 1 });
const uint64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n });
const bytesMap = fc
  .uniqueArray(fc.tuple(text, bytes), { maxLength: 4, selector: ([k]) => k })
  .map((entries) => new Map(entries));

const timestamp: fc.Arbitrary<m.Timestamp> = fc.record({ seconds: int64, nanos: int32 });
const envelope: fc.Arbitrary<m.Envelope> = fc.record({ payload: bytes, signature: bytes });
const channelHeader: fc.Arbitrary<m.ChannelHeader> = fc.record(
  {
    type: int32,
    version: int32,
    timestamp,
    channelId: text,
    txId: text,
    epoch: uint64,
    extension: bytes,
    tlsCertHash: bytes,
  },
  { requiredKeys: ["type", "version", "channelId", "txId", "epoch", "extension", "tlsCertHash"] },
);
const kvVersion: fc.Arbitrary<m.KvVersion> = fc.record({ blockNum: uint64, txNum: uint64 });
const kvRead: fc.Arbitrary<m.KvRead> = fc.record({ key: text, version: kvVersion }, { requiredKeys: ["key"] });
const rangeQuery: fc.Arbitrary<m.RangeQueryInfo> = fc.oneof(
  fc.record({ startKey: text, endKey: text, itrExhausted: fc.boolean() }),
  fc.record({
    startKey: text,
    endKey: text,
    itrExhausted: fc.boolean(),
    rawReads: fc.record({ kvReads: fc.array(kvRead, { maxLength: 3 }) }),
  }),
  fc.record({
    startKey: text,
    endKey: text,
    itrExhausted: fc.boolean(),
    readsMerkleHashes: fc.record({
      maxDegree: uint32,
      maxLevel: uint32,
      maxLevelHashes: fc.array(bytes, { maxLength: 3 }),
    }),
  }),
);
const kvRwSet: fc.Arbitrary<m.KvRwSet> = fc.record({
  reads: fc.array(kvRead, { maxLength: 3 }),
  rangeQueriesInfo: fc.array(rangeQuery, { maxLength: 2 }),
  writes: fc.array(fc.record({ key: text, isDelete: fc.boolean(), value: bytes }), { maxLength: 3 }),
  metadataWrites: fc.array(
    fc.record({ key: text, entries: fc.array(fc.record({ name: text, value: bytes }), { maxLength: 2 }) }),
    { maxLength: 2 },
  ),
});
const endorsement: fc.Arbitrary<m.Endorsement> = fc.record({ endorser: bytes, signature: bytes });
const chaincodeActionPayload: fc.Arbitrary<m.ChaincodeActionPayload> = fc.record(
  {
    chaincodeProposalPayload: bytes,
    action: fc.record({ proposalResponsePayload: bytes, endorsements: fc.array(endorsement, { maxLength: 3 }) }),
  },
  { requiredKeys: ["chaincodeProposalPayload"] },
);
const seekPosition: fc.Arbitrary<g.SeekPosition> = fc.oneof(
  fc.constant({ newest: {} }),
  fc.constant({ oldest: {} }),
  fc.constant({ nextCommit: {} }),
  fc.record({ specified: fc.record({ number: uint64 }) }),
);

function roundTrips<T>(codec: MessageCodec<T>, arbitrary: fc.Arbitrary<T>): void {
  fc.assert(
    fc.property(arbitrary, (value) => {
      // structuredClone: fast-check may generate null-prototype records; decoded messages are plain objects.
      assert.deepEqual(codec.decode(codec.encode(value as MessageInit<T>)), structuredClone(value));
    }),
    { numRuns: 300 },
  );
}

describe("codec properties (fast-check)", () => {
  it("decode(encode(x)) equals x for every generated message", () => {
    roundTrips(codecs.Envelope, envelope);
    roundTrips(codecs.ChannelHeader, channelHeader);
    roundTrips(
      codecs.ProcessedTransaction,
      fc.record({ transactionEnvelope: envelope, validationCode: int32 }, { requiredKeys: ["validationCode"] }),
    );
    roundTrips(codecs.SignedTransaction, fc.record({ transactionBytes: bytes, signature: bytes }));
    roundTrips(
      codecs.Transaction,
      fc.record({ actions: fc.array(fc.record({ header: bytes, payload: bytes }), { maxLength: 3 }) }),
    );
    roundTrips(codecs.ChaincodeActionPayload, chaincodeActionPayload);
    roundTrips(codecs.ChaincodeProposalPayload, fc.record({ input: bytes, transientMap: bytesMap }));
    roundTrips(
      codecs.ChaincodeInput,
      fc.record({ args: fc.array(bytes, { maxLength: 4 }), decorations: bytesMap, isInit: fc.boolean() }),
    );
    roundTrips(codecs.KvRwSet, kvRwSet);
    roundTrips(codecs.CommitStatusResponse, fc.record({ result: int32, blockNumber: uint64 }));
    roundTrips(codecs.SeekPosition, seekPosition);
    roundTrips(
      codecs.RpcStatus,
      fc.record({
        code: int32,
        message: text,
        details: fc.array(fc.record({ typeUrl: text, value: bytes }), { maxLength: 2 }),
      }),
    );
  });

  it("decoders throw nothing but LedgerDecodeError on random bytes", () => {
    const names = Object.keys(codecs) as CodecName[];
    fc.assert(
      fc.property(fc.constantFrom(...names), fc.uint8Array({ maxLength: 64 }), (name, random) => {
        try {
          (codecs[name] as MessageCodec<unknown>).decode(random);
        } catch (error) {
          assert.ok(error instanceof LedgerDecodeError, `${name}: ${String(error)}`);
          assert.equal(error.messageType, codecs[name].typeName);
        }
      }),
      { numRuns: 3000 },
    );
  });

  describe("on a genuine transaction", () => {
    let proposal: ReturnType<typeof buildProposal>;
    let prepared: Uint8Array;
    let signed: Uint8Array;
    let trusted: { mspId: string; rootCertificates: string[] }[];

    before(async () => {
      const org = await newOrg("Org1MSP");
      const client = await newMember(org, "client");
      const peer = await newMember(org, "peer0");
      trusted = [{ mspId: "Org1MSP", rootCertificates: [org.caPem] }];
      proposal = buildProposal({
        identity: client.identity,
        channelId: "c",
        chaincodeName: "basic",
        functionName: "f",
        now: NOW,
      });
      const prp = proposalResponsePayload(proposal.proposalHash, chaincodeAction("basic"));
      prepared = prepare(proposal, prp, [await endorse(peer, prp)]);
      signed = await signEnvelope(prepared, client);
    });

    it("unwrap refuses mutated envelopes with LedgerDecodeError only, at the expected rate, and never the genuine one", () => {
      // mutate() leaves one input in five as it is. A structural walk cannot see an edit inside a certificate, a
      // signature or a chaincode argument, so of the edited envelopes it refuses 78-82% (six runs of 2,000 measured),
      // and every one of 64 random bytes (a transaction has far more required structure than that).
      let mutatedRuns = 0;
      let mutatedRefused = 0;
      let randomRuns = 0;
      let randomRefused = 0;
      const refuses = (bytes: Uint8Array): boolean => {
        try {
          unwrap(bytes);
          return false;
        } catch (error) {
          assert.ok(error instanceof LedgerDecodeError, String(error));
          return true;
        }
      };
      fc.assert(
        fc.property(mutate(signed), fc.uint8Array({ maxLength: 64 }), (mutated, random) => {
          if (Buffer.compare(mutated, signed) === 0) {
            assert.equal(refuses(mutated), false, "the genuine envelope was refused");
          } else {
            mutatedRuns++;
            if (refuses(mutated)) mutatedRefused++;
          }
          randomRuns++;
          if (refuses(random)) randomRefused++;
        }),
        { numRuns: 2000 },
      );
      assert.ok(mutatedRuns > 1400, `mutate() edited only ${String(mutatedRuns)} of 2000 envelopes`);
      assert.ok(
        mutatedRefused >= 0.7 * mutatedRuns,
        `unwrap refused only ${String(mutatedRefused)} of ${String(mutatedRuns)} edited envelopes`,
      );
      assert.equal(randomRefused, randomRuns, "unwrap accepted random bytes");
    });

    it("the verifiers reject nothing but VerificationError on mutated envelopes", async () => {
      let refused = 0;
      await fc.assert(
        fc.asyncProperty(mutate(prepared), mutate(signed), async (a, b) => {
          for (const run of [
            () => verifyPreparedTransaction(proposal, a, { trustedMsps: trusted, now: NOW }),
            () => verifyTransactionEnvelope(b, { trustedMsps: trusted, now: NOW }),
          ]) {
            try {
              await run();
            } catch (error) {
              assert.ok(error instanceof VerificationError, String(error));
              refused++;
            }
          }
        }),
        { numRuns: 150 },
      );
      assert.ok(refused > 150, `only ${refused} of 300 mutations were refused`);
    });
  });
});
