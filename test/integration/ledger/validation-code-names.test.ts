/**
 * Every TxValidationCode the Fabric sandbox's committer produces, committed as a block of its own by `commitRaw` (a
 * hook only a fake has: no gateway or orderer in front, so the codes a client can never get to a committer are
 * reached too) and reported by name on our side: by the gateway client (CommitStatus and qscc GetTransactionByID), by
 * our decoding of the block's transaction filter, by `unwrap` for the structural defects it finds offline, and by the
 * LedgerTransaction component, which adopts a committed invalid transaction carrying its own txId and inputs when
 * allowInvalid is set.
 *
 * The same codes reached through the gateway's Submit, and the refusals of those a client cannot get there, run
 * against the sandbox and real Fabric in test/integration/ledger-targets/validation-codes.test.ts.
 */
import { strict as assert } from "node:assert";
import { common } from "@hyperledger/fabric-protos";
import { codecs } from "../../../provider/ledger/codec";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { LedgerDecodeError } from "../../../provider/errors/ledger/ledger-decode-error";
import { unwrap } from "../../../provider/ledger/unwrap";
import { validationCodeName } from "../../../provider/errors/ledger/validation-codes";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { creatorOf } from "../../../provider/resources/ledger/ledger-transaction-txid";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { craft, envelopeOf, type CraftSpec } from "../fabric/craft";
import { connectOurs } from "./helpers";
import { deriveNonce } from "../../../provider/resources/ledger/ledger-transaction-txid";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../../../provider/resources/ledger/ledger-transaction-inputs";

interface Case {
  readonly name: string;
  readonly code: number;
  /** The defect, on top of a valid transaction (a function of the sandbox's identities). */
  readonly overrides: (ids: Ids) => Partial<CraftSpec>;
  /** Whether `unwrap` finds the defect offline (with the same code). */
  readonly unwrapFinds?: boolean;
  /** Whether the committed transaction still carries its creator's txId and inputs (the component can adopt it). */
  readonly adoptable?: boolean;
  /** Ledger state the defect needs first, committed by `commit` (the path the case is tested on). */
  readonly setUp?: (
    sandbox: FabricSandbox,
    commit: (envelope: Uint8Array, txId: string) => Promise<string>,
  ) => Promise<void>;
}

interface Ids {
  readonly org1Peer: SandboxIdentity;
}

const STALE_READ = { key: "k", version: { blockNum: 7, txNum: 0 } };
const ASSETS_WRITE = { namespace: "assets", writes: [{ key: "k", value: "v" }] };

/** Every code with a transaction id in its channel header (NIL_ENVELOPE, BAD_PAYLOAD and not-an-Envelope: below). */
const CASES: readonly Case[] = [
  { name: "BAD_COMMON_HEADER", code: 3, overrides: () => ({ epoch: 1 }), unwrapFinds: true },
  {
    name: "UNSUPPORTED_TX_PAYLOAD",
    code: 7,
    overrides: () => ({ headerType: common.HeaderType.CONFIG_UPDATE }),
    unwrapFinds: true,
  },
  {
    name: "BAD_CREATOR_SIGNATURE",
    code: 4,
    overrides: ({ org1Peer }) => ({ envelopeSigner: org1Peer }),
    adoptable: true,
  },
  { name: "INVALID_ENDORSER_TRANSACTION", code: 5, overrides: () => ({ actionCount: 2 }), unwrapFinds: true },
  {
    name: "INVALID_CONFIG_TRANSACTION",
    code: 6,
    overrides: () => ({ headerType: common.HeaderType.CONFIG }),
    unwrapFinds: true,
  },
  {
    name: "TARGET_CHAIN_NOT_FOUND",
    code: 14,
    overrides: () => ({ channel: "elsewhere" }),
  },
  {
    name: "BAD_HEADER_EXTENSION",
    code: 19,
    overrides: () => ({ extension: Buffer.from([0x12, 0x05]) }),
    unwrapFinds: true,
  },
  {
    name: "BAD_RESPONSE_PAYLOAD",
    code: 21,
    overrides: () => ({ prpExtension: Buffer.from([0x0a, 0x09]) }),
    unwrapFinds: true,
  },
  { name: "BAD_RWSET", code: 22, overrides: () => ({ results: Buffer.from([0x12, 0x03, 0x0a]) }), unwrapFinds: true },
  { name: "ILLEGAL_WRITESET", code: 23, overrides: () => ({ namespaces: [ASSETS_WRITE, ASSETS_WRITE] }) },
  { name: "INVALID_OTHER_REASON", code: 255, overrides: () => ({ actionChaincodeId: null }), unwrapFinds: true },
  { name: "BAD_PROPOSAL_TXID", code: 8, overrides: () => ({ txId: "0".repeat(64) }), adoptable: true },
  {
    name: "ENDORSEMENT_POLICY_FAILURE",
    code: 10,
    overrides: ({ org1Peer }) => ({ endorsers: [org1Peer] }),
    adoptable: true,
  },
  {
    name: "MVCC_READ_CONFLICT",
    code: 11,
    overrides: () => ({ namespaces: [{ namespace: "assets", reads: [STALE_READ] }] }),
    adoptable: true,
  },
  {
    name: "PHANTOM_READ_CONFLICT",
    code: 12,
    setUp: async (sandbox, commit) => {
      const a1 = await craft(
        validSpec(sandbox, { namespaces: [{ namespace: "assets", writes: [{ key: "a1", value: "1" }] }] }),
      );
      assert.equal(await commit(a1.envelope, a1.txId), "VALID");
    },
    // A range read of [a, b) that saw no keys, while a1 is now there.
    overrides: () => ({ namespaces: [{ namespace: "assets", ranges: [{ startKey: "a", endKey: "b", reads: [] }] }] }),
    adoptable: true,
  },
  {
    name: "INVALID_CHAINCODE",
    code: 25,
    overrides: () => ({ actionChaincodeId: { name: "ledgerless", version: "1.0" } }),
    unwrapFinds: true,
  },
];

let creator: SandboxIdentity;
let endorsers: SandboxIdentity[];

function validSpec(sandbox: FabricSandbox, overrides: Partial<CraftSpec> = {}): CraftSpec {
  return { creator, channel: sandbox.channel, chaincode: sandbox.chaincode, endorsers, ...overrides };
}

/** Our reading of the code recorded for transaction `index` of block `blockNumber` (the TRANSACTIONS_FILTER). */
function blockFilterCode(sandbox: FabricSandbox, blockNumber: bigint, index = 0): string {
  const block = codecs.Block.decode(sandbox.blocks()[Number(blockNumber)]?.bytes ?? new Uint8Array(0));
  const filter = block.metadata?.metadata[2] ?? new Uint8Array(0);
  return validationCodeName(filter[index] ?? -1);
}

describe("every validation code the sandbox produces, reported by name on our side", () => {
  let sandbox: FabricSandbox;
  let ours: Gateway;
  let ids: Ids;

  before(async () => {
    sandbox = await startFabricSandbox();
    creator = sandbox.newClientIdentity("Org1MSP");
    endorsers = [sandbox.newPeerIdentity("Org1MSP"), sandbox.newPeerIdentity("Org2MSP")];
    ids = { org1Peer: endorsers[0]! };
    ours = connectOurs(sandbox, creator);
  });
  after(async () => {
    ours.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
  });

  /** Commits by the test hook, a block of its own; resolves with the code name. */
  const byCommitRaw = async (envelope: Uint8Array): Promise<string> => (await sandbox.commitRaw(envelope)).codeName;

  /** Reads the code back by name through CommitStatus, qscc and the block filter, and from unwrap where it finds it. */
  async function readBack(c: Case, txId: string, envelope: Uint8Array): Promise<bigint> {
    const status = await ours.getCommitStatus(sandbox.channel, txId);
    const processed = await ours.getTransactionById(sandbox.channel, txId);
    assert.deepEqual([status.codeName, validationCodeName(processed.validationCode)], [c.name, c.name]);
    assert.equal(blockFilterCode(sandbox, status.blockNumber), c.name);
    if (c.unwrapFinds === true) {
      assert.throws(
        () => unwrap(envelope),
        (e: unknown) => e instanceof LedgerDecodeError && e.validationCodeName === c.name,
      );
    }
    return status.blockNumber;
  }

  it("NIL_ENVELOPE and BAD_PAYLOAD (no transaction id): in the block filter and from unwrap", async () => {
    const nil = await sandbox.commitRaw(new Uint8Array());
    const badPayload = envelopeOf(Buffer.from([0x0a, 0x05, 0x01]), Buffer.from([1]));
    const bad = await sandbox.commitRaw(badPayload);
    assert.deepEqual([nil.codeName, bad.codeName], ["NIL_ENVELOPE", "BAD_PAYLOAD"]);
    assert.deepEqual(
      [blockFilterCode(sandbox, nil.blockNumber), blockFilterCode(sandbox, bad.blockNumber)],
      ["NIL_ENVELOPE", "BAD_PAYLOAD"],
    );
    for (const [bytes, name] of [
      [new Uint8Array(), "NIL_ENVELOPE"],
      [badPayload, "BAD_PAYLOAD"],
    ] as const) {
      assert.throws(
        () => unwrap(bytes),
        (e: unknown) => e instanceof LedgerDecodeError && e.validationCodeName === name,
      );
    }
  });

  it("INVALID_OTHER_REASON for block data that is not an Envelope: in the block filter and from unwrap", async () => {
    const notAnEnvelope = Buffer.from([0x0a, 0xff]);
    const committed = await sandbox.commitRaw(notAnEnvelope);
    assert.deepEqual([committed.code, committed.codeName], [255, "INVALID_OTHER_REASON"]);
    assert.equal(blockFilterCode(sandbox, committed.blockNumber), "INVALID_OTHER_REASON");
    assert.throws(
      () => unwrap(notAnEnvelope),
      (e: unknown) => e instanceof LedgerDecodeError && e.validationCodeName === "INVALID_OTHER_REASON",
    );
  });

  for (const c of CASES) {
    const unwrapNote = c.unwrapFinds === true ? ", and from unwrap" : "";
    it(`${c.name} (${String(c.code)}) by commitRaw: through CommitStatus, qscc and the block${unwrapNote}`, async () => {
      await c.setUp?.(sandbox, byCommitRaw);
      const crafted = await craft(validSpec(sandbox, c.overrides(ids)));
      const committed = await sandbox.commitRaw(crafted.envelope);
      assert.deepEqual([committed.code, committed.codeName], [c.code, c.name], committed.reason);
      assert.equal(await readBack(c, crafted.txId, crafted.envelope), committed.blockNumber);
    });
  }

  it("DUPLICATE_TXID: the second commit of one envelope, in the block filter (qscc keeps the first)", async () => {
    const crafted = await craft(validSpec(sandbox));
    const first = await sandbox.commitRaw(crafted.envelope);
    const second = await sandbox.commitRaw(crafted.envelope);
    assert.deepEqual([first.codeName, second.codeName], ["VALID", "DUPLICATE_TXID"]);
    assert.equal(blockFilterCode(sandbox, second.blockNumber), "DUPLICATE_TXID");
    const processed = await ours.getTransactionById(sandbox.channel, crafted.txId);
    assert.equal(validationCodeName(processed.validationCode), "VALID");
  });

  describe("the LedgerTransaction component", () => {
    const urnOf = (name: string): string =>
      `urn:pulumi:dev::codes::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::${name}`;

    async function checkedInputs(name: string): Promise<LedgerTransactionInputs> {
      const news: LedgerTransactionInputs = {
        __urn: urnOf(name),
        gateway: { address: sandbox.address },
        channel: sandbox.channel,
        chaincode: sandbox.chaincode,
        function: "PutAsset",
        args: ["k", "v"],
        identity: {
          mspId: creator.mspId,
          certificatePem: creator.certificatePem,
          privateKeyPem: creator.privateKeyPem,
        },
        trustedRootCertificates: { ...sandbox.caCertificates },
        allowInvalid: true,
      };
      const checked = await ledgerTransactionProvider.check({}, news);
      assert.equal(checked.failures, undefined, JSON.stringify(checked.failures));
      return checked.inputs as LedgerTransactionInputs;
    }

    for (const c of CASES.filter((x) => x.adoptable === true)) {
      it(`adopts its own transaction committed as ${c.name} and reports the code by name and number`, async () => {
        await c.setUp?.(sandbox, async (envelope) => (await sandbox.commitRaw(envelope)).codeName);
        const inputs = await checkedInputs(c.name.toLowerCase());
        const nonce = deriveNonce(creatorOf(creator), inputs.__urn, inputs.__generation ?? 0);
        const defect = c.overrides(ids);
        // The component's transaction (its creator, nonce and inputs) with the defect; for BAD_PROPOSAL_TXID, the
        // component's txId over another nonce.
        const ownTxId = defect.txId === undefined ? { nonce } : { txId: inputs.txId ?? "" };
        const crafted = await craft(validSpec(sandbox, { args: ["PutAsset", "k", "v"], ...defect, ...ownTxId }));
        assert.equal(crafted.txId, inputs.txId);
        assert.equal((await sandbox.commitRaw(crafted.envelope)).codeName, c.name);
        const before = sandbox.transactionCount();

        const { outs } = (await ledgerTransactionProvider.create(inputs)) as { outs: LedgerTransactionOutputs };

        assert.deepEqual([outs.txId, outs.validationCode, outs.validationCodeNumber], [inputs.txId, c.name, c.code]);
        assert.equal(sandbox.transactionCount(), before, "adopted: nothing submitted");
      });
    }
  });
});
