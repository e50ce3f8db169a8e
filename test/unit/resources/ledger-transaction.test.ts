import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { serializeIdentity } from "../../../provider/ledger/identity";
import { computeTxId } from "../../../provider/ledger/proposal";
import { dispatch } from "../../../provider/dynamic";
import { deriveTxId, ledgerTransactionProvider } from "../../../provider/resources/ledger-transaction";
import type { LedgerTransactionInputs, LedgerTransactionOutputs } from "../../../provider/resources/ledger-transaction";
import { findSecrets, privateKeyForms } from "../../helpers/secrets-scan";
import { newMember, newOrg } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";

const URN =
  "urn:pulumi:dev::demo::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
const TRANSIENT = "transient-secret-value";

let org: TestOrg;
let member: TestMember;
let other: TestMember;

function inputs(extra: Partial<LedgerTransactionInputs> = {}): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: { address: "127.0.0.1:7051" },
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args: ["asset-1", "blue"],
    transientData: { note: TRANSIENT },
    identity: {
      mspId: "Org1MSP",
      certificatePem: Buffer.from(member.identity.credentials).toString("utf8"),
      privateKeyPem: member.privateKeyPem,
    },
    trustedRootCertificates: { Org1MSP: org.caPem },
    ...extra,
  };
}

async function checked(
  olds: Partial<LedgerTransactionInputs>,
  news: LedgerTransactionInputs,
): Promise<LedgerTransactionInputs> {
  const result = await ledgerTransactionProvider.check(olds, news);
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return result.inputs as LedgerTransactionInputs;
}

/** What create would have stored for these checked inputs (no ledger needed). */
function outputs(i: LedgerTransactionInputs): LedgerTransactionOutputs {
  const { transientData: _t, previewResult: _p, ...rest } = i;
  return {
    ...rest,
    gateway: { address: i.gateway.address },
    identity: { mspId: i.identity.mspId, certificatePem: i.identity.certificatePem },
    credentials: i.identity.privateKeyPem === undefined ? {} : { privateKeyPem: i.identity.privateKeyPem },
    __generation: i.__generation ?? 0,
    txId: i.txId ?? "",
    validationCode: "VALID",
    validationCodeNumber: 0,
    blockNumber: "1",
    result: { utf8: "blue", base64: "Ymx1ZQ==" },
    endorsers: ["Org1MSP", "Org2MSP"],
    processedTransaction: "",
  };
}

const keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-keys-"));
after(() => {
  fs.rmSync(keyDir, { recursive: true, force: true });
});

/** The member's mspId and certificate: an identity without a signer. */
function certificateOf(m: TestMember): { mspId: string; certificatePem: string } {
  return { mspId: "Org1MSP", certificatePem: Buffer.from(m.identity.credentials).toString("utf8") };
}

/** The member's key in a file of its own. */
function keyFile(m: TestMember): string {
  const file = path.join(keyDir, `${crypto.createHash("sha256").update(m.privateKeyPem).digest("hex")}.pem`);
  fs.writeFileSync(file, m.privateKeyPem, { mode: 0o600 });
  return file;
}

/** The forms of `pem`'s private key found in `value` as JSON (PEM lines, DERs in every encoding, the JWK's d): none, expected. */
function keyFormsIn(value: unknown, pem: string): string[] {
  return findSecrets(JSON.stringify(value), privateKeyForms("the key", pem));
}

before(async () => {
  org = await newOrg("Org1MSP");
  member = await newMember(org, "deployer");
  other = await newMember(org, "someone-else");
});

describe("LedgerTransaction check", () => {
  it("returns a failure for every bad input, each naming the fix, without throwing", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({
        gateway: { address: "peer0" },
        channel: "",
        args: ["ok", 7 as unknown as string, { base64: "%%%" }],
        identity: { mspId: " ", certificatePem: "not a certificate", privateKeyPem: "not a key" },
        visibility: "hash",
        trustedRootCertificates: {},
        allowInvalid: "yes" as unknown as boolean,
        timeouts: { create: "soon" },
      }),
    );
    assert.equal(result.inputs, undefined);
    assert.deepEqual(result.failures, [
      { property: "gateway.address", reason: "must be 'host:port' of the gateway peer, e.g. '127.0.0.1:7051'" },
      { property: "channel", reason: "is required: the channel name, e.g. 'mychannel'" },
      { property: "args[1]", reason: "must be a string (sent as UTF-8) or { base64: string } (bytes)" },
      { property: "args[2]", reason: "{ base64 } must hold standard base64 text (A-Z, a-z, 0-9, +, /, = padding)" },
      {
        property: "identity.mspId",
        reason: "must not be empty: the MSP id of the identity's organization, e.g. 'Org1MSP'",
      },
      {
        property: "identity.certificatePem",
        reason: "is not a PEM X.509 certificate; pass the enrolment certificate's PEM text",
      },
      { property: "identity.privateKeyPem", reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" },
      {
        property: "visibility",
        reason:
          "'hash' requires a gateway that supports it: add it to gateway.supportsVisibility (real Fabric peers support only 'full')",
      },
      {
        property: "trustedRootCertificates",
        reason:
          "is required: a map of MSP id to root CA certificate PEM, used to verify every endorsement before signing",
      },
      { property: "allowInvalid", reason: "must be true or false" },
      { property: "timeouts.create", reason: `'soon' is not a duration; use a number with ms, s, m or h, e.g. "20m"` },
    ]);
  });

  it("rejects a private key that is not the certificate's, without echoing either", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...inputs().identity, privateKeyPem: other.privateKeyPem } }),
    );
    assert.deepEqual(result.failures, [
      {
        property: "identity.privateKeyPem",
        reason: "does not match identity.certificatePem: use the private key of that certificate",
      },
    ]);
    assert.deepEqual(keyFormsIn(result, other.privateKeyPem), []);
  });

  it("requires tlsRootCertPem for a non-loopback gateway and both halves of a client certificate", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({ gateway: { address: "peer0.org1.example.com:7051", clientCertPem: org.caPem } }),
    );
    assert.deepEqual(result.failures, [
      {
        property: "gateway.tlsRootCertPem",
        reason:
          "is required for the non-loopback address 'peer0.org1.example.com:7051': the PEM of the CA that signed the gateway's TLS certificate",
      },
      {
        property: "gateway.clientCertPem",
        reason: "needs TLS: set gateway.tlsRootCertPem (the CA of the gateway's TLS certificate) for mutual TLS",
      },
      {
        property: "gateway.clientCertPem",
        reason:
          "needs the client TLS key (mutual TLS): set one of gateway.clientKeyFile (a PEM file's path), gateway.clientKeyEnv (an environment variable holding the PEM) or gateway.clientKeyPem (the key itself, as a Pulumi secret)",
      },
    ]);
  });

  it("derives txId from SHA-256(domain ‖ creator ‖ URN ‖ generation), no key involved, the same for a retry", async () => {
    const first = await checked({}, inputs());
    const retry = await checked({}, inputs());
    assert.equal(first.__generation, 1);
    assert.equal(retry.txId, first.txId);
    const creator = serializeIdentity(member.identity);
    const u32 = (n: number): Buffer => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    const nonce = crypto
      .createHash("sha256")
      .update("pulumi-opsledger/ledger-nonce/v2")
      .update(Buffer.concat([u32(creator.length), creator, u32(Buffer.byteLength(URN)), Buffer.from(URN)]))
      .update(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]))
      .digest()
      .subarray(0, 24);
    assert.equal(first.txId, computeTxId(nonce, creator));
    // The same key behind another signer reference gives the same txId.
    const fromFile = await checked({}, inputs({ identity: { ...certificateOf(member), keyFile: keyFile(member) } }));
    assert.equal(fromFile.txId, first.txId);
  });

  it("keeps the generation while the transaction is unchanged and bumps it (a new txId) when it changes", async () => {
    const g1 = await checked({}, inputs());
    const same = await checked(g1, inputs({ gateway: { address: "localhost:7051" }, allowInvalid: true }));
    assert.deepEqual([same.__generation, same.txId], [1, g1.txId]);
    const g2 = await checked(g1, inputs({ args: ["asset-1", "red"] }));
    assert.equal(g2.__generation, 2);
    assert.equal(g2.txId, deriveTxId(g1.identity, URN, 2));
    assert.notEqual(g2.txId, g1.txId);
    const transientOnly = await checked(g2, inputs({ args: ["asset-1", "red"], transientData: { note: "other" } }));
    assert.equal(transientOnly.__generation, 3);
    assert.ok(!JSON.stringify({ ...transientOnly, transientData: undefined }).includes("other"));
    assert.equal(transientOnly.transactionDigest, undefined, "nothing derived from transient data is stored");
  });

  it("leaves the txId out while a transaction input is unknown (preview)", async () => {
    const result = await checked({}, inputs({ channel: UNKNOWN }));
    assert.equal(result.txId, undefined);
    assert.equal(result.__generation, undefined);
  });

  it("is reached through dispatch with a child URN qualified by the component's type", async () => {
    const result = (await dispatch("check", [{}, inputs({ channel: "" })])) as { failures?: unknown[] };
    assert.deepEqual(result.failures, [
      { property: "channel", reason: "is required: the channel name, e.g. 'mychannel'" },
    ]);
  });
});

describe("LedgerTransaction signer references", () => {
  it("rejects an identity with no signer or two, naming the fields and the choices", async () => {
    const none = await ledgerTransactionProvider.check({}, inputs({ identity: certificateOf(member) }));
    const [noSigner, ...noMore] = none.failures ?? [];
    assert.deepEqual(noMore, []);
    assert.equal(noSigner?.property, "identity");
    assert.match(noSigner.reason, /^needs a signer: set one of privateKeyPem \(a secret\), keyFile/);
    const two = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...inputs().identity, keyEnv: "FABRIC_KEY" } }),
    );
    assert.deepEqual(
      two.failures?.map((f) => f.property),
      ["identity.keyEnv"],
    );
    assert.match(
      (two.failures ?? [])[0]?.reason ?? "",
      /^set only one signer: identity.privateKeyPem and identity.keyEnv are both set/,
    );
  });

  it("checks every PKCS#11 and KMS setting before anything is opened", async () => {
    const pkcs11 = await ledgerTransactionProvider.check(
      {},
      inputs({
        identity: {
          ...certificateOf(member),
          pkcs11: { library: "", tokenLabel: "fabric", pinEnv: "not a name", pinConfig: "x", keyId: "abc" },
        },
      }),
    );
    assert.deepEqual(pkcs11.failures, [
      {
        property: "identity.pkcs11.library",
        reason: "is required: the path of the token's PKCS#11 module, e.g. '/usr/lib/softhsm/libsofthsm2.so'",
      },
      {
        property: "identity.pkcs11.pinConfig",
        reason: "set only one of identity.pkcs11.pinEnv and identity.pkcs11.pinConfig",
      },
      { property: "identity.pkcs11.pinEnv", reason: "must be an environment variable's name, e.g. 'HSM_PIN'" },
      {
        property: "identity.pkcs11.keyId",
        reason:
          "must be the key's CKA_ID in hex (an even number of 0-9a-f digits); leave it out for the certificate's SKI",
      },
    ]);
    const noPin = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...certificateOf(member), pkcs11: { library: "/x.so", tokenLabel: "t" } } }),
    );
    assert.equal(noPin.failures?.[0]?.property, "identity.pkcs11.pin");
    const kms = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...certificateOf(member), kms: { cryptoKeyVersion: "projects/p/cryptoKeys/k" } } }),
    );
    assert.deepEqual(kms.failures, [
      {
        property: "identity.kms.cryptoKeyVersion",
        reason:
          "'projects/p/cryptoKeys/k' must be 'projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>/cryptoKeyVersions/<number>'",
      },
    ]);
  });

  it("opens a key file or an environment variable in check and names certificate and key on a mismatch", async () => {
    const wrong = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...certificateOf(member), keyFile: keyFile(other) } }),
    );
    const [mismatch, ...rest] = wrong.failures ?? [];
    assert.deepEqual(rest, []);
    assert.equal(mismatch?.property, "identity.keyFile");
    assert.match(
      mismatch.reason,
      new RegExp(`^key file ${keyFile(other)}: this key is not the key of the certificate 'CN=deployer, O=Org1MSP'`),
    );
    assert.deepEqual(keyFormsIn(wrong, other.privateKeyPem), []);

    const missing = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...certificateOf(member), keyFile: path.join(keyDir, "nope.pem") } }),
    );
    assert.match(missing.failures?.[0]?.reason ?? "", /cannot read the key file \(ENOENT\)/);

    process.env["OPSLEDGER_TEST_KEY"] = member.privateKeyPem;
    try {
      const fromEnv = await checked(
        {},
        inputs({ identity: { ...certificateOf(member), keyEnv: "OPSLEDGER_TEST_KEY" } }),
      );
      assert.equal(fromEnv.txId, (await checked({}, inputs())).txId);
      assert.deepEqual(keyFormsIn(fromEnv, member.privateKeyPem), []);
    } finally {
      delete process.env["OPSLEDGER_TEST_KEY"];
    }
    const unset = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...certificateOf(member), keyEnv: "OPSLEDGER_TEST_KEY" } }),
    );
    assert.deepEqual(unset.failures, [
      {
        property: "identity.keyEnv",
        reason:
          "environment variable OPSLEDGER_TEST_KEY: is not set where pulumi runs: export the PEM private key in it before pulumi up",
      },
    ]);
  });
});

describe("LedgerTransaction migration from privateKeyPem", () => {
  /** What 0.1 stored: txId from HMAC(SHA-256(key DER), URN ‖ generation), a keyed digest, the key in credentials. */
  function legacyInputs(): LedgerTransactionInputs {
    const keyDigest = crypto
      .createHash("sha256")
      .update(crypto.createPrivateKey(member.privateKeyPem).export({ type: "pkcs8", format: "der" }))
      .digest();
    const nonce = crypto
      .createHmac("sha256", keyDigest)
      .update(URN)
      .update(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]))
      .digest()
      .subarray(0, 24);
    const txId = computeTxId(nonce, serializeIdentity(member.identity));
    // 0.1 kept the plumbing under plain keys: resourceUrn and generation.
    const { __urn: _urn, ...rest } = inputs();
    return {
      ...rest,
      resourceUrn: URN,
      generation: 1,
      txId,
      transactionDigest: "a".repeat(64),
    } as unknown as LedgerTransactionInputs;
  }

  it("keeps the txId and generation when the same key becomes a reference: an update, no replace, no key left", async () => {
    const olds = legacyInputs();
    const news = await checked(olds, inputs({ identity: { ...certificateOf(member), keyFile: keyFile(member) } }));
    assert.deepEqual([news.__generation, news.txId], [1, olds.txId]);
    assert.notEqual(news.txId, deriveTxId(certificateOf(member), URN, 1));
    assert.equal(news.transactionDigest, undefined);
    const stored = { ...outputs(olds), transactionDigest: "a".repeat(64) };
    assert.deepEqual(await ledgerTransactionProvider.diff(olds.txId ?? "", stored, news), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const updated = (await ledgerTransactionProvider.update(olds.txId ?? "", stored, news))
      .outs as LedgerTransactionOutputs;
    assert.equal(updated.txId, olds.txId);
    assert.deepEqual([updated.__urn, updated.__generation], [URN, 1], "the plumbing moves under `__` keys");
    assert.deepEqual(
      ["resourceUrn", "generation"].filter((k) => k in updated),
      [],
    );
    assert.deepEqual(updated.credentials, {});
    assert.deepEqual(updated.identity, { ...certificateOf(member), keyFile: keyFile(member) });
    assert.deepEqual(keyFormsIn(updated, member.privateKeyPem), []);
    // The next check keeps it, and a real change afterwards is a new generation with the new derivation.
    const again = await checked(news, inputs({ identity: { ...certificateOf(member), keyFile: keyFile(member) } }));
    assert.deepEqual([again.__generation, again.txId], [1, olds.txId]);
    const changed = await checked(news, inputs({ identity: news.identity, args: ["asset-1", "red"] }));
    assert.deepEqual([changed.__generation, changed.txId], [2, deriveTxId(news.identity, URN, 2)]);
  });
});

describe("LedgerTransaction diff", () => {
  it("replaces on a changed arg", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const news = await checked(first, inputs({ args: ["asset-1", "red"] }));
    assert.deepEqual(await ledgerTransactionProvider.diff(olds.txId, olds, news), {
      changes: true,
      replaces: ["args"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on a change of transient data alone, naming transientData", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const news = await checked(first, inputs({ transientData: { note: "changed" } }));
    const diff = await ledgerTransactionProvider.diff(olds.txId, olds, news);
    assert.deepEqual(diff.replaces, ["transientData"]);
  });

  it("updates in place for settings and reports no change for the same inputs", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const moved = await checked(first, inputs({ gateway: { address: "localhost:7051" } }));
    assert.deepEqual(await ledgerTransactionProvider.diff(olds.txId, olds, moved), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const same = await checked(first, inputs());
    assert.equal((await ledgerTransactionProvider.diff(olds.txId, olds, same)).changes, false);
  });
});

describe("LedgerTransaction outputs", () => {
  it("hold no private key outside credentials and never the transient data", async () => {
    const checkedInputs = await checked({}, inputs({ gateway: { address: "127.0.0.1:7051" } }));
    const olds = outputs(checkedInputs);
    const updated = await ledgerTransactionProvider.update(olds.txId, olds, { ...checkedInputs, allowInvalid: true });
    const result = updated.outs as LedgerTransactionOutputs;
    assert.equal(result.txId, olds.txId);
    assert.equal(result.allowInvalid, true);
    assert.deepEqual(result.credentials, { privateKeyPem: member.privateKeyPem });
    assert.deepEqual(result.identity, olds.identity);
    const { credentials: _c, ...rest } = result;
    assert.deepEqual(keyFormsIn(rest, member.privateKeyPem), []);
    // The scan can fail: the secret-marked credentials do hold the key.
    assert.notDeepEqual(keyFormsIn(result.credentials, member.privateKeyPem), []);
    assert.ok(!JSON.stringify(result).includes(TRANSIENT));
    assert.equal("transientData" in result, false);
  });
});
