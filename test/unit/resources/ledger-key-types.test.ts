/**
 * The key-type checks at the component's check: a certificate whose key does not match its signer
 * reference, keys Fabric does not accept — each a failure naming the field and the fix, with zero gateway calls
 * (previewEndorse is on and points at a scripted gateway that records every call). Ed25519 and P-384 identities pass
 * check and get their txId. The scripted gateway answers no qscc read of the channel's configuration (the
 * capabilities are read from the channel; test/integration/ledger/channel-capabilities-sandbox.test.ts has a channel
 * that answers), so an Ed25519 identity is checked against `channelCapability` alone, after one Evaluate.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { serializeIdentity } from "../../../provider/ledger/identity";
import { computeTxId } from "../../../provider/ledger/proposal";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { startFakeGateway } from "../ledger/fake-gateway";
import type { FakeGateway } from "../ledger/fake-gateway";
import { newMember, newOrg } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";
import { deriveNonce } from "../../../provider/resources/ledger/ledger-transaction-txid";
import type { LedgerTransactionInputs } from "../../../provider/resources/ledger/ledger-transaction-inputs";

const URN =
  "urn:pulumi:dev::demo::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";
let edOrg: TestOrg;
let ed: TestMember;
let p384: TestMember;
let p256: TestMember;
let fake: FakeGateway;
const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-keytypes-"));

const pemOf = (m: TestMember): string => Buffer.from(m.identity.credentials).toString("utf8");

function inputs(m: TestMember, extra: Partial<LedgerTransactionInputs> = {}): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: { address: fake.address },
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args: ["asset-1", "blue"],
    identity: { mspId: m.identity.mspId, certificatePem: pemOf(m), privateKeyPem: m.privateKeyPem },
    trustedRootCertificates: { [edOrg.mspId]: edOrg.caPem },
    previewEndorse: true,
    ...extra,
  };
}

before(async () => {
  edOrg = await newOrg("OrgEdMSP", { keyType: "ed25519" });
  ed = await newMember(edOrg, "deployer");
  p384 = await newMember(await newOrg("OrgP384MSP", { keyType: "ecdsa-p384" }), "deployer");
  p256 = await newMember(await newOrg("Org1MSP"), "deployer");
  fake = await startFakeGateway({ endorsers: [await newMember(edOrg, "peer0")] });
});

after(async () => {
  await fake.close();
  fs.rmSync(keyDir, { recursive: true, force: true });
});

describe("LedgerTransaction check: key types", () => {
  it("refuses an Ed25519 identity the channel's configuration cannot be read for, unless V3_0 is asserted", async () => {
    const mark = fake.calls.length;
    const unread = await ledgerTransactionProvider.check({}, inputs(ed));
    assert.deepEqual(
      unread.failures?.map((f) => f.property),
      ["identity.certificatePem"],
    );
    assert.match(
      (unread.failures ?? [])[0]?.reason ?? "",
      /^has an Ed25519 key, which Fabric accepts only on a channel with the capability V3_0, and channel 'opsledger''s configuration could not be read \(.*no such transaction ID.*\): if 'opsledger' has V3_0, set channelCapability: 'V3_0'; otherwise use an ECDSA P-256 or P-384 identity$/,
    );
    const v2 = await ledgerTransactionProvider.check({}, inputs(ed, { channelCapability: "V2_0" }));
    assert.deepEqual(
      v2.failures?.map((f) => f.property),
      ["channelCapability"],
    );
    assert.match(
      (v2.failures ?? [])[0]?.reason ?? "",
      /^says V2_0 \(channel 'opsledger''s configuration could not be read \(.*\)\), and an Ed25519 identity needs a channel with the capability V3_0: use an ECDSA P-256 or P-384 identity, or, if the channel has V3_0, set channelCapability: 'V3_0' or leave it out$/,
    );
    const bad = await ledgerTransactionProvider.check({}, inputs(p256, { channelCapability: "3.0" as "V3_0" }));
    assert.deepEqual(bad.failures, [
      {
        property: "channelCapability",
        reason:
          "'3.0' is not a channel capability; use 'V3_0' for a Fabric 3 channel with V3_0 enabled, else 'V2_0', or leave it out (the channel's configuration is read)",
      },
    ]);
    // The configuration read (its first evaluation, which the scripted gateway refuses) and nothing else.
    assert.deepEqual(
      fake.calls.slice(mark).map((c) => c.method),
      ["Evaluate", "Evaluate"],
    );
  });

  it("refuses keys and certificates Fabric does not accept, and a key of another type than the certificate's", async () => {
    const mark = fake.calls.length;
    const rsaKey = crypto
      .generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString();
    const rsa = await ledgerTransactionProvider.check(
      {},
      inputs(p256, { identity: { ...inputs(p256).identity, privateKeyPem: rsaKey } }),
    );
    assert.deepEqual(rsa.failures, [
      {
        property: "identity.privateKeyPem",
        reason:
          "is an RSA 2048 key; Fabric identities need ECDSA P-256, ECDSA P-384 or Ed25519 (Fabric ≥ 3.0 with channel capability V3_0)",
      },
    ]);
    const crossed = await ledgerTransactionProvider.check(
      {},
      inputs(ed, {
        channelCapability: "V3_0",
        identity: { ...inputs(ed).identity, privateKeyPem: p384.privateKeyPem },
      }),
    );
    assert.deepEqual(crossed.failures, [
      {
        property: "identity.privateKeyPem",
        reason:
          "does not match identity.certificatePem (the key is ECDSA P-384, the certificate's Ed25519): use the private key of that certificate",
      },
    ]);
    const file = path.join(keyDir, "p384.pem");
    fs.writeFileSync(file, p384.privateKeyPem, { mode: 0o600 });
    const { privateKeyPem: _k, ...certificateOnly } = inputs(ed).identity;
    const fromFile = await ledgerTransactionProvider.check(
      {},
      inputs(ed, { channelCapability: "V3_0", identity: { ...certificateOnly, keyFile: file } }),
    );
    const [failure, ...rest] = fromFile.failures ?? [];
    assert.deepEqual(rest, []);
    assert.equal(failure?.property, "identity.keyFile");
    assert.match(
      failure.reason,
      new RegExp(
        `^key file ${file}: this key is not the key of the certificate 'CN=deployer, O=OrgEdMSP' \\(certificate SKI [0-9a-f]{64}, Ed25519; this key: ECDSA P-384\\): use the private key that certificate was issued for, or the certificate of this key; nothing was signed or sent$`,
      ),
    );
    assert.equal(fake.calls.length, mark, "no gateway call");
  });

  it("accepts Ed25519 (with V3_0) and P-384 identities: the txId is derived from their certificate", async () => {
    const mark = fake.calls.length;
    for (const [m, extra] of [
      [ed, { channelCapability: "V3_0" as const, previewEndorse: false }],
      [p384, { previewEndorse: false }],
    ] as const) {
      const result = await ledgerTransactionProvider.check({}, inputs(m, extra));
      assert.equal(result.failures, undefined, JSON.stringify(result.failures));
      const creator = serializeIdentity(m.identity);
      const txId = (result.inputs as LedgerTransactionInputs).txId;
      assert.equal(txId, computeTxId(deriveNonce(creator, URN, 1), creator));
    }
    // The Ed25519 check tried to read the configuration (refused by the scripted gateway: the assertion is used).
    assert.deepEqual(
      fake.calls.slice(mark).map((c) => c.method),
      ["Evaluate"],
    );
  });
});
