/**
 * Every validation code a real committer can be driven to assign, reached with a crafted transaction (craft.ts,
 * encoded with @hyperledger/fabric-protos and endorsed with the organizations' peer identities) submitted as a client
 * would, through the gateway's Submit and the ordering service — on the sandbox and on real Fabric 2.5 — and
 * reported by name on our side: our client's CommitStatus and qscc GetTransactionByID, and the block's
 * TRANSACTIONS_FILTER read through qscc GetBlockByNumber.
 *
 * Reached through Submit: VALID, BAD_COMMON_HEADER (3), INVALID_ENDORSER_TRANSACTION (5), BAD_PROPOSAL_TXID (8),
 * DUPLICATE_TXID (9), ENDORSEMENT_POLICY_FAILURE (10), MVCC_READ_CONFLICT (11), PHANTOM_READ_CONFLICT (12),
 * BAD_HEADER_EXTENSION (19), BAD_RESPONSE_PAYLOAD (21), BAD_RWSET (22), ILLEGAL_WRITESET (23), INVALID_CHAINCODE (25),
 * INVALID_OTHER_REASON (255).
 *
 * Codes a client cannot drive a real committer to, and why (the refusals are asserted below, quoted from Fabric
 * 2.5.16; the sandbox gives the same answers):
 * - NIL_ENVELOPE (1), BAD_PAYLOAD (2), and INVALID_OTHER_REASON for block data that is not an Envelope: the gateway
 *   takes only a signed Envelope ("prepared transaction must be signed"), and the orderer refuses a payload it cannot
 *   read ("status=BAD_REQUEST, info=could not determine channel ID: error unmarshalling Payload: proto: cannot parse
 *   invalid wire-format data"); it writes the marshalled envelope it accepted into the block.
 * - BAD_CREATOR_SIGNATURE (4): the orderer's signature filter checks the same signature against the channel's Writers
 *   first ("status=FORBIDDEN, info=implicit policy evaluation failed - 0 sub-policies were satisfied, ...: permission
 *   denied").
 * - INVALID_CONFIG_TRANSACTION (6): the orderer refuses a CONFIG envelope from a client ("status=BAD_REQUEST,
 *   info=message is of type that cannot be processed directly"); configuration blocks are its own.
 * - UNSUPPORTED_TX_PAYLOAD (7): the orderer processes a CONFIG_UPDATE as a configuration update, and one that is not
 *   a valid update is refused ("status=BAD_REQUEST, info=error applying config update to existing channel 'opsledger':
 *   error authorizing update: ..."); a valid one becomes a CONFIG block of the orderer's.
 * - TARGET_CHAIN_NOT_FOUND (14): the orderer routes by the envelope's channel and has no other channel
 *   ("status=BAD_REQUEST, info=channel creation request not allowed because the orderer system channel is not
 *   defined").
 * - UNKNOWN_TX_TYPE (13), MARSHAL_TX_ERROR (15), NIL_TXACTION (16): stage A (msgvalidation.go ValidateTransaction)
 *   assigns its own code first, and the later checks cannot fail on what passed it. Fabric is asked below: a header
 *   type it does not know (42) is ordered and committed BAD_COMMON_HEADER ("invalid header type"), a payload whose
 *   data is not a Transaction and a Transaction without actions are committed INVALID_ENDORSER_TRANSACTION.
 * - BAD_CHANNEL_HEADER (20): assigned in 2.x only by the VSCC plugin when it re-reads a channel header that stage A
 *   has already parsed. Fabric is asked below: the orderer refuses an envelope whose channel header does not parse
 *   ("could not determine channel ID: error unmarshalling channel header"), so no committer ever sees one.
 * - INVALID_WRITESET (24): the state database judges the write set: LevelDB, these peers' state database, accepts
 *   every key and value (statedb/stateleveldb ValidateKeyValue returns nil); only CouchDB refuses keys or values.
 *   Fabric is asked below: a key and a JSON value CouchDB refuses ("_"-prefixed) commit VALID.
 * - NOT_VALIDATED (254): the placeholder before validation. Fabric is asked below: qscc knows no transaction it has
 *   not committed ("no such transaction ID", not a code), and no block of the channel keeps 254 in its filter.
 * - EXPIRED_CHAINCODE (17), CHAINCODE_VERSION_CONFLICT (18): not asked, because nothing can be: no code of Fabric 2.x
 *   assigns them (they are left in the enum from 1.x, where lscc-era chaincode expiry and versioning assigned them),
 *   so no transaction, well-formed or not, can name the defect they stood for.
 *
 * This file runs on a network of its own, each crafted transaction alone in its block, because of what it found in
 * Fabric (2.5.16 and 3.1.5 alike): a block holding a transaction whose ChaincodeAction does not parse
 * (BAD_RESPONSE_PAYLOAD) followed by any other transaction is never committed, and the peer commits nothing after
 * it. The state-based validator's PreValidate (core/common/validation/statebased/validator_keylevel.go) extracts the
 * dependencies of every earlier transaction of the block; extractDependenciesForTx returns early for that one ("while
 * executing GetChaincodeAction got error ..., skipping tx at height (N,i)") without signalling that its dependencies
 * are in, and GetValidationParameterForKey of the next transaction waits for that signal forever. On the shared
 * network, another worker's transaction cut into the same block stalled every test of the run.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { common } from "@hyperledger/fabric-protos";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { validationCodeName } from "../../../provider/errors/ledger/validation-codes";
import { ledgerTargets, type LedgerTarget, type TargetIdentity } from "../../helpers/ledger-targets";
import { codecs } from "../../../provider/ledger/codec";
import { craft, envelopeOf, type CraftSpec } from "../fabric/craft";
import { blockFilterCode, entriesOf, submitRaw, TARGET_TEST_TIMEOUT_MS } from "./helpers";

const ORDERER = "10 ABORTED: received unsuccessful response from orderer: status=";

interface Case {
  readonly name: string;
  readonly code: number;
  /** The defect on top of a valid transaction writing key `key`. */
  readonly defect: (ids: Ids, key: string) => Partial<CraftSpec>;
  /** Ledger state the defect needs first (committed through Submit). */
  readonly setUp?: (submitValid: (overrides: Partial<CraftSpec>) => Promise<void>, key: string) => Promise<void>;
}

interface Ids {
  readonly org1Peer: TargetIdentity;
}

/** A random transaction id that is not SHA-256(nonce ‖ creator) (and so never another test's). */
const wrongTxId = (): string => crypto.randomBytes(32).toString("hex");

const REACHED: readonly Case[] = [
  { name: "BAD_COMMON_HEADER", code: 3, defect: () => ({ epoch: 1 }) },
  { name: "INVALID_ENDORSER_TRANSACTION", code: 5, defect: () => ({ actionCount: 2 }) },
  { name: "BAD_PROPOSAL_TXID", code: 8, defect: () => ({ txId: wrongTxId() }) },
  { name: "ENDORSEMENT_POLICY_FAILURE", code: 10, defect: ({ org1Peer }) => ({ endorsers: [org1Peer] }) },
  {
    name: "MVCC_READ_CONFLICT",
    code: 11,
    defect: (_ids, key) => ({
      namespaces: [{ namespace: "assets", reads: [{ key, version: { blockNum: 7, txNum: 0 } }] }],
    }),
  },
  {
    name: "PHANTOM_READ_CONFLICT",
    code: 12,
    // A range read of [key-a, key-b) that saw no keys, while key-a1 is there now.
    setUp: (submitValid, key) =>
      submitValid({ namespaces: [{ namespace: "assets", writes: [{ key: `${key}-a1`, value: "1" }] }] }),
    defect: (_ids, key) => ({
      namespaces: [{ namespace: "assets", ranges: [{ startKey: `${key}-a`, endKey: `${key}-b`, reads: [] }] }],
    }),
  },
  { name: "BAD_HEADER_EXTENSION", code: 19, defect: () => ({ extension: Buffer.from([0x12, 0x05]) }) },
  { name: "BAD_RESPONSE_PAYLOAD", code: 21, defect: () => ({ prpExtension: Buffer.from([0x0a, 0x09]) }) },
  { name: "BAD_RWSET", code: 22, defect: () => ({ results: Buffer.from([0x12, 0x03, 0x0a]) }) },
  {
    name: "ILLEGAL_WRITESET",
    code: 23,
    defect: (_ids, key) => {
      const write = { namespace: "assets", writes: [{ key, value: "v" }] };
      return { namespaces: [write, write] };
    },
  },
  {
    name: "INVALID_CHAINCODE",
    code: 25,
    defect: () => ({ actionChaincodeId: { name: "ledgerless", version: "1.0" } }),
  },
  { name: "INVALID_OTHER_REASON", code: 255, defect: () => ({ actionChaincodeId: null }) },
];

/** The unreachable codes the orderer or gateway refuses, with the refusal (gRPC code and message). */
const REFUSED: readonly [string, (ids: Ids) => Partial<CraftSpec>, string][] = [
  [
    "BAD_CREATOR_SIGNATURE",
    ({ org1Peer }) => ({ envelopeSigner: org1Peer }),
    `${ORDERER}FORBIDDEN, info=implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Writers' sub-policies to be satisfied: permission denied`,
  ],
  [
    "INVALID_CONFIG_TRANSACTION",
    () => ({ headerType: common.HeaderType.CONFIG }),
    `${ORDERER}BAD_REQUEST, info=message is of type that cannot be processed directly`,
  ],
  [
    "UNSUPPORTED_TX_PAYLOAD",
    () => ({ headerType: common.HeaderType.CONFIG_UPDATE }),
    // What follows is why this update is not a valid one (the sandbox cannot update its configuration at all).
    `${ORDERER}BAD_REQUEST, info=error applying config update to existing channel 'opsledger': `,
  ],
  [
    "TARGET_CHAIN_NOT_FOUND",
    () => ({ channel: "elsewhere" }),
    `${ORDERER}BAD_REQUEST, info=channel creation request not allowed because the orderer system channel is not defined`,
  ],
];

/**
 * Codes no committer assigns to what a client can send: the defect each code names, crafted, and the code Fabric's
 * committer gives it instead (through Submit, like the reached codes).
 */
const ASKED: readonly [string, number, (key: string) => Partial<CraftSpec>, readonly [string, number]][] = [
  ["UNKNOWN_TX_TYPE", 13, () => ({ headerType: 42 }), ["BAD_COMMON_HEADER", 3]],
  // Field 1, length-delimited, claims 5 bytes and has 1: not a Transaction.
  [
    "MARSHAL_TX_ERROR",
    15,
    () => ({ transactionData: Buffer.from([0x0a, 0x05, 0x01]) }),
    ["INVALID_ENDORSER_TRANSACTION", 5],
  ],
  ["NIL_TXACTION", 16, () => ({ actionCount: 0 }), ["INVALID_ENDORSER_TRANSACTION", 5]],
  [
    "INVALID_WRITESET",
    24,
    // CouchDB refuses a key that begins with "_" and a JSON value with a "_"-prefixed top-level field.
    (key) => ({ namespaces: [{ namespace: "assets", writes: [{ key: `_${key}`, value: '{"_id":"x"}' }] }] }),
    ["VALID", 0],
  ],
];

async function refusal(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => assert.fail("expected the gateway to refuse the envelope"),
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
}

for (const target of ledgerTargets()) {
  describe(`every validation code a committer of ${target.label} can be driven to, through Submit`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let ours: Gateway;
    let ids: Ids;
    let spec: (key: string, overrides?: Partial<CraftSpec>) => CraftSpec;

    before(async function () {
      this.timeout(300_000);
      // A network of its own: see the file's header (a crafted BAD_RESPONSE_PAYLOAD must be alone in its block).
      ledger = await target.start({ own: true });
      ours = ledger.connectOurs();
      ids = { org1Peer: ledger.peer("Org1MSP") };
      spec = (key, overrides = {}) => ({
        creator: ledger.client(),
        channel: ledger.channel,
        chaincode: ledger.chaincode,
        endorsers: [ledger.peer("Org1MSP"), ledger.peer("Org2MSP")],
        args: ["PutAsset", key, "v"],
        namespaces: [{ namespace: ledger.chaincode, writes: [{ key, value: "v" }] }],
        ...overrides,
      });
    });
    after(async () => {
      ours.close();
      await ledger.close();
    });

    const key = (label: string): string => `code-${label}-${String(process.pid)}-${crypto.randomUUID().slice(0, 8)}`;

    /** Submits and waits for the commit; the code name by CommitStatus, qscc and the block filter (all three agree). */
    async function submitAndRead(crafted: { envelope: Uint8Array; txId: string }): Promise<string> {
      await submitRaw(ledger, crafted.envelope, crafted.txId);
      const status = await ours.getCommitStatus(ledger.channel, crafted.txId);
      const processed = await ours.getTransactionById(ledger.channel, crafted.txId);
      const filter = await blockFilterCode(ledger, status.blockNumber, crafted.txId);
      assert.deepEqual([validationCodeName(processed.validationCode), filter], [status.codeName, status.codeName]);
      return status.codeName;
    }

    it("commits a well-formed crafted transaction VALID, endorsed by both organizations' peers", async () => {
      const k = key("valid");
      assert.equal(await submitAndRead(await craft(spec(k))), "VALID");
      assert.equal(
        Buffer.from(
          await ours.evaluateTransaction({
            channelId: ledger.channel,
            chaincodeName: ledger.chaincode,
            functionName: "ReadAsset",
            args: [k],
          }),
        ).toString(),
        "v",
      );
    });

    for (const c of REACHED) {
      it(`${c.name} (${String(c.code)}): through Submit, by name in CommitStatus, qscc and the block filter`, async () => {
        const k = key(c.name.toLowerCase());
        await c.setUp?.(async (overrides) => {
          assert.equal(await submitAndRead(await craft(spec(`${k}-setup`, overrides))), "VALID");
        }, k);
        const crafted = await craft(spec(k, c.defect(ids, k)));
        assert.equal(await submitAndRead(crafted), c.name);
        const status = await ours.getCommitStatus(ledger.channel, crafted.txId);
        assert.deepEqual([status.code, status.successful], [c.code, false]);
      });
    }

    it("DUPLICATE_TXID (9): the same envelope submitted again, in the later block's filter; qscc keeps the first", async () => {
      const crafted = await craft(spec(key("duplicate")));
      assert.equal(await submitAndRead(crafted), "VALID");
      const first = await ours.getCommitStatus(ledger.channel, crafted.txId);
      await submitRaw(ledger, crafted.envelope, crafted.txId);
      // Blocks are cut in submission order: once a later transaction has committed, so has the duplicate.
      const later = await craft(spec(key("later")));
      assert.equal(await submitAndRead(later), "VALID");
      const last = await ours.getCommitStatus(ledger.channel, later.txId);
      const seen: [boolean, string][] = [];
      for (let block = first.blockNumber; block <= last.blockNumber; block++) {
        for (const entry of await entriesOf(ledger, block, crafted.txId))
          seen.push([block > first.blockNumber, entry.codeName]);
      }
      assert.deepEqual(seen, [
        [false, "VALID"],
        [true, "DUPLICATE_TXID"],
      ]);
      assert.equal((await ours.getCommitStatus(ledger.channel, crafted.txId)).codeName, "VALID");
    });

    for (const [name, defect, expected] of REFUSED) {
      it(`${name} cannot come through Submit: the ordering service refuses the envelope`, async () => {
        const crafted = await craft(spec(key(name.toLowerCase()), defect(ids)));
        const message = await refusal(submitRaw(ledger, crafted.envelope, crafted.txId));
        if (expected.endsWith(": ")) assert.ok(message.startsWith(expected), message);
        else assert.equal(message, expected);
        const lookup = await refusal(ours.getTransactionById(ledger.channel, crafted.txId));
        assert.match(lookup, /no such transaction ID/);
      });
    }

    for (const [name, code, defect, [answer, answerCode]] of ASKED) {
      it(`${name} (${String(code)}) is never assigned: Fabric commits the defect it names as ${answer}`, async () => {
        const k = key(name.toLowerCase());
        const crafted = await craft(spec(k, defect(k)));
        assert.equal(await submitAndRead(crafted), answer);
        const status = await ours.getCommitStatus(ledger.channel, crafted.txId);
        assert.deepEqual([status.code, status.successful], [answerCode, answerCode === 0]);
        if (name === "INVALID_WRITESET") {
          const read = await ours.evaluateTransaction({
            channelId: ledger.channel,
            chaincodeName: ledger.chaincode,
            functionName: "ReadAsset",
            args: [`_${k}`],
          });
          assert.equal(Buffer.from(read).toString(), '{"_id":"x"}', "the write CouchDB would refuse is in state");
        }
      });
    }

    it("NOT_VALIDATED (254) is never kept: qscc does not know an uncommitted txId, and no block's filter holds 254", async () => {
      const lookup = await refusal(ours.getTransactionById(ledger.channel, wrongTxId()));
      assert.match(lookup, /no such transaction ID/);
      const height = await ledger.blockHeight();
      const codes = new Map<number, number>();
      let transactions = 0;
      for (let n = 1n; n < height; n++) {
        const block = codecs.Block.decode(await ledger.readBlock(n));
        const filter = block.metadata?.metadata[2] ?? new Uint8Array(0);
        const count = block.data?.data.length ?? 0;
        assert.equal(filter.length, count, `block ${String(n)}: one code per transaction`);
        transactions += count;
        for (const c of filter) codes.set(c, (codes.get(c) ?? 0) + 1);
      }
      assert.ok(transactions > 0 && codes.has(0), `read ${String(transactions)} transactions, some VALID`);
      assert.equal(codes.get(254), undefined, `codes in the filters: ${JSON.stringify([...codes])}`);
    });

    it("NIL_ENVELOPE, BAD_PAYLOAD and non-Envelope data cannot come through Submit: the gateway or orderer refuses", async () => {
      assert.equal(
        await refusal(submitRaw(ledger, new Uint8Array(), wrongTxId())),
        "3 INVALID_ARGUMENT: prepared transaction must be signed",
      );
      const badPayload = envelopeOf(Buffer.from([0x0a, 0x05, 0x01]), Buffer.from([1]));
      assert.equal(
        await refusal(submitRaw(ledger, badPayload, wrongTxId())),
        `${ORDERER}BAD_REQUEST, info=could not determine channel ID: error unmarshalling Payload: proto: cannot parse invalid wire-format data`,
      );
      // A payload without a header, and one whose channel header does not parse: no channel to route to either.
      const headerless = new common.Payload();
      headerless.setData(Buffer.from("data"));
      assert.equal(
        await refusal(submitRaw(ledger, envelopeOf(headerless.serializeBinary(), Buffer.from([1])), wrongTxId())),
        `${ORDERER}BAD_REQUEST, info=could not determine channel ID: header not set`,
      );
      const header = new common.Header();
      header.setChannelHeader(Buffer.from([0x0a, 0x05, 0x01]));
      const garbled = new common.Payload();
      garbled.setHeader(header);
      assert.equal(
        await refusal(submitRaw(ledger, envelopeOf(garbled.serializeBinary(), Buffer.from([1])), wrongTxId())),
        `${ORDERER}BAD_REQUEST, info=could not determine channel ID: error unmarshalling channel header: error unmarshalling ChannelHeader: proto: cannot parse invalid wire-format data`,
      );
    });
  });
}
