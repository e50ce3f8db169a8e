/**
 * ledger.LedgerTransactions without a ledger: check (every bad input named by item, the single transaction's checks
 * per item, txIds from keys and not from places), diff (what needs a submission, a removed item), and the partial
 * failure on both faces: dispatch (the dynamic face) keeps the id and outputs and adds `__provider`; the plugin's
 * adapter finishes the outputs (credentials secret) and its server packs ErrorResourceInitFailed.
 */
import { strict as assert } from "node:assert";
import * as grpc from "@grpc/grpc-js";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import { ledgerTransactionsProvider } from "../../../provider/resources/ledger/ledger-transactions";
import { dispatch } from "../../../provider/dynamic";
import { providerService } from "../../../provider/plugin/server";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import { startFakeGateway } from "../ledger/fake-gateway";
import { newMember, newOrg } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";
import { deriveTxId, itemUrn } from "../../../provider/resources/ledger/ledger-transaction-txid";
import { ledgerTransactionsInputFailures } from "../../../provider/resources/ledger/ledger-transactions-inputs";
import type {
  LedgerTransactionsInputs,
  LedgerTransactionsOutputs,
} from "../../../provider/resources/ledger/ledger-transactions-inputs";
import type { LedgerTransactionsItem } from "../../../provider/resources/ledger/ledger-shapes";

const URN = "urn:pulumi:dev::demo::pulumi-nodejs:dynamic/ledger:LedgerTransactions::batch";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

let org: TestOrg;
let member: TestMember;
let edOrg: TestOrg;
let edMember: TestMember;

before(async () => {
  org = await newOrg("Org1MSP");
  member = await newMember(org, "deployer");
  edOrg = await newOrg("Org1MSP", { keyType: "ed25519" });
  edMember = await newMember(edOrg, "ed-deployer");
});

const item = (key: string, value = "blue"): LedgerTransactionsItem => ({
  key,
  function: "CreateAsset",
  args: [key, value],
});

function inputs(transactions: LedgerTransactionsItem[], extra: Partial<LedgerTransactionsInputs> = {}) {
  return {
    __urn: URN,
    gateway: { address: "127.0.0.1:7051" },
    channel: "opsledger",
    chaincode: "assets",
    identity: {
      mspId: "Org1MSP",
      certificatePem: Buffer.from(member.identity.credentials).toString("utf8"),
      privateKeyPem: member.privateKeyPem,
    },
    trustedRootCertificates: { Org1MSP: org.caPem },
    transactions,
    ...extra,
  } satisfies LedgerTransactionsInputs;
}

async function checked(olds: Partial<LedgerTransactionsInputs>, news: LedgerTransactionsInputs) {
  const result = await ledgerTransactionsProvider.check(olds, news);
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return result.inputs as LedgerTransactionsInputs;
}

const txIds = (i: LedgerTransactionsInputs): Record<string, string | undefined> =>
  Object.fromEntries(i.transactions.map((t) => [t.key, t.txId]));

/** What a run that committed every item of `i` stored. */
function outputsOf(i: LedgerTransactionsInputs): LedgerTransactionsOutputs {
  const { identity, transactions, ...rest } = i;
  return {
    ...rest,
    transactions,
    identity: { mspId: identity.mspId, certificatePem: identity.certificatePem },
    credentials: { privateKeyPem: identity.privateKeyPem ?? "" },
    committed: transactions.map((t) => ({
      key: t.key,
      txId: t.txId ?? "",
      validationCode: "VALID",
      validationCodeNumber: 0,
      blockNumber: "3",
    })),
    __planned: Object.fromEntries(transactions.map((t) => [t.key, t.txId ?? ""])),
    __generations: Object.fromEntries(transactions.map((t) => [t.key, t.generation ?? 1])),
  };
}

describe("LedgerTransactions check", () => {
  it("names every bad input by item, shared settings once, before anything is sent", async () => {
    const result = await ledgerTransactionsProvider.check(
      {},
      inputs(
        [
          { key: "a", function: "", args: ["ok", 7 as unknown as string] },
          { key: "a", function: "CreateAsset" },
          { key: "", function: "CreateAsset" },
        ],
        { channel: "", chaincode: undefined as unknown as string, maxInFlight: 0 },
      ),
    );
    assert.deepEqual(
      (result.failures ?? []).map((f) => f.property),
      [
        "channel",
        "chaincode",
        "transactions[1].key",
        "transactions[2].key",
        "maxInFlight",
        "transactions[0].function",
        "transactions[0].args[1]",
      ],
    );
    const byProperty = Object.fromEntries((result.failures ?? []).map((f) => [f.property, f.reason]));
    assert.match(byProperty["transactions[1].key"] ?? "", /'a' is also the key of transactions\[0\]/);
    assert.match(byProperty["chaincode"] ?? "", /required unless every item names its chaincode/);
    assert.deepEqual(
      (await ledgerTransactionsProvider.check({}, inputs([]))).failures?.map((f) => f.property),
      ["transactions"],
    );
  });

  it("checks the shared settings once (with the first item), and every item's own fields", () => {
    const items = [item("a"), item("b"), { key: "c", function: "", args: ["x"] }, item("d")];
    const failures = ledgerTransactionsInputFailures(
      inputs(items, { trustedRootCertificates: { Org1MSP: "not a PEM" }, channel: "" }),
    );
    assert.deepEqual(
      failures.map((f) => f.property),
      ["channel", "trustedRootCertificates.Org1MSP", "transactions[2].function"],
    );
    const chaincodes = ledgerTransactionsInputFailures(
      inputs([{ ...item("a"), chaincode: "other" }, item("b")], { chaincode: undefined as unknown as string }),
    );
    assert.deepEqual(
      chaincodes.map((f) => [f.property, f.reason]),
      [["chaincode", "is required unless every item names its chaincode (transactions[1] does not): e.g. 'basic'"]],
    );
  });

  it("checks an Ed25519 identity against the channel's capabilities as the single transaction does", async () => {
    // A scripted gateway that answers no qscc read of the configuration: the assertion alone then decides.
    const fake = await startFakeGateway({ endorsers: [await newMember(edOrg, "peer0")] });
    try {
      const ed = {
        mspId: "Org1MSP",
        certificatePem: Buffer.from(edMember.identity.credentials).toString("utf8"),
        privateKeyPem: edMember.privateKeyPem,
      };
      const gateway = { address: fake.address };
      const refused = await ledgerTransactionsProvider.check({}, inputs([item("a")], { identity: ed, gateway }));
      assert.deepEqual(
        refused.failures?.map((f) => f.property),
        ["identity.certificatePem"],
      );
      assert.match(
        (refused.failures ?? [])[0]?.reason ?? "",
        /^has an Ed25519 key, which Fabric accepts only on a channel with the capability V3_0, and channel 'opsledger''s configuration could not be read \(.*\): if 'opsledger' has V3_0, set channelCapability: 'V3_0'; otherwise use an ECDSA P-256 or P-384 identity$/,
      );
      const accepted = await checked({}, inputs([item("a")], { identity: ed, gateway, channelCapability: "V3_0" }));
      assert.match(accepted.transactions[0]?.txId ?? "", /^[0-9a-f]{64}$/);
      // Only the configuration reads (Evaluate): nothing endorsed or submitted.
      assert.deepEqual([...new Set(fake.calls.map((c) => c.method))], ["Evaluate"]);
    } finally {
      await fake.close();
    }
  });

  it("derives each item's txId from its key: reordering and inserting change none", async () => {
    const first = await checked({}, inputs([item("a"), item("b")]));
    const identity = { mspId: "Org1MSP", certificatePem: first.identity.certificatePem };
    assert.deepEqual(txIds(first), {
      a: deriveTxId(identity, itemUrn(URN, "a"), 1),
      b: deriveTxId(identity, itemUrn(URN, "b"), 1),
    });
    const second = await checked(first, inputs([item("c"), item("b"), item("a")]));
    assert.deepEqual(txIds(second), { ...txIds(first), c: deriveTxId(identity, itemUrn(URN, "c"), 1) });
    // A changed item gets its next generation; the others keep theirs.
    const third = await checked(second, inputs([item("c"), item("b", "green"), item("a")]));
    assert.equal(third.transactions[1]?.generation, 2);
    assert.equal(third.transactions[1].txId, deriveTxId(identity, itemUrn(URN, "b"), 2));
    assert.deepEqual(
      [third.transactions[0]?.txId, third.transactions[2]?.txId],
      [txIds(first)["c"] ?? second.transactions[0]?.txId, txIds(first)["a"]],
    );
  });

  it("shows no txId for an item not known yet (preview), and the others'", async () => {
    const result = await checked({}, inputs([item("a"), { key: "b", function: "CreateAsset", args: [UNKNOWN] }]));
    assert.match(result.transactions[0]?.txId ?? "", /^[0-9a-f]{64}$/);
    assert.equal(result.transactions[1]?.txId, undefined);
  });
});

describe("LedgerTransactions with a list not known yet (preview)", () => {
  it("check passes it through, and diff reports a change", async () => {
    const news = { ...inputs([]), transactions: UNKNOWN as unknown as LedgerTransactionsItem[] };
    const result = await ledgerTransactionsProvider.check({}, news);
    assert.deepEqual(result, { inputs: news });
    const done = await checked({}, inputs([item("a")]));
    assert.equal((await ledgerTransactionsProvider.diff("id", outputsOf(done), news)).changes, true);
  });
});

describe("LedgerTransactions diff", () => {
  it("no change when every item is recorded; a change for a new, changed or removed item, never a replace", async () => {
    const done = await checked({}, inputs([item("a"), item("b")]));
    const olds = outputsOf(done);
    assert.deepEqual(
      await ledgerTransactionsProvider.diff("id", olds, await checked(done, inputs([item("b"), item("a")]))),
      {
        changes: false,
        replaces: [],
        deleteBeforeReplace: false,
      },
    );
    for (const next of [[item("a"), item("b"), item("c")], [item("a"), item("b", "green")], [item("a")]]) {
      const d = await ledgerTransactionsProvider.diff("id", olds, await checked(done, inputs(next)));
      assert.deepEqual([d.changes, d.replaces], [true, []], JSON.stringify(next));
    }
  });
});

describe("LedgerTransactions partial failure (a gateway that never answers, a 1 s deadline)", () => {
  /** Checked inputs whose gateway is a closed loopback port: every item fails once its deadline passes. */
  const unreachable = async () =>
    checked({}, inputs([item("a"), item("b")], { gateway: { address: "127.0.0.1:9" }, timeouts: { create: "1s" } }));

  it("dynamic face: dispatch hands the host the id, the outputs with __provider, and the reasons", async () => {
    const error = (await dispatch("create", [{ ...(await unreachable()), __provider: "PROVIDER" }]).then(
      () => assert.fail("expected a failure"),
      (e: unknown) => e,
    )) as { message: string; id?: unknown; properties?: Record<string, unknown>; reasons?: string[] };
    assert.match(error.message, /^LedgerTransactions batch: 2 of 2 transactions failed; the 0 committed are recorded/);
    assert.equal(typeof error.id, "string");
    assert.equal(error.properties?.["__provider"], "PROVIDER");
    assert.deepEqual(error.properties["committed"], []);
    assert.deepEqual(
      error.reasons?.slice(1).map((r) => r.slice(0, 4)),
      ["'a':", "'b':"],
    );
  });

  it("plugin face: ErrorResourceInitFailed in the status details, the credentials output a secret", async () => {
    const { id: _id, __urn: _urn, ...news } = { id: undefined, ...(await unreachable()) };
    const request = new provproto.CreateRequest()
      .setUrn(URN.replace("pulumi-nodejs:dynamic/ledger:LedgerTransactions", "opsledger:ledger:LedgerTransactions"))
      .setType("opsledger:ledger:LedgerTransactions")
      .setProperties(structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(news)) as Record<string, never>));
    const create = providerService("0.0.0-test")["create"] as (
      call: { request: provproto.CreateRequest },
      callback: (error: grpc.ServiceError | null) => void,
    ) => void;
    const error = await new Promise<grpc.ServiceError>((resolve, reject) => {
      create({ request }, (e) => {
        if (e) resolve(e);
        else reject(new Error("expected a failure"));
      });
    });
    const [bin] = error.metadata.get("grpc-status-details-bin");
    assert.ok(bin instanceof Buffer, "the answer carries status details");
    const [detail] = statusproto.Status.deserializeBinary(new Uint8Array(bin)).getDetailsList();
    assert.equal(detail?.getTypeName(), "pulumirpc.ErrorResourceInitFailed");
    const init = provproto.ErrorResourceInitFailed.deserializeBinary(detail.getValue_asU8());
    assert.match(init.getId(), /^[0-9a-f]{32}$/);
    assert.equal(init.getReasonsList().length, 3);
    const props = init.getProperties()?.toJavaScript() ?? {};
    assert.deepEqual(props["committed"], []);
    assert.equal(
      (props["credentials"] as Record<string, unknown>)["4dabf18193072939515e22adb298388d"],
      "1b47061264138c4ac30d75fd1eb44270",
      "credentials (the private key) are a secret",
    );
  });
});
