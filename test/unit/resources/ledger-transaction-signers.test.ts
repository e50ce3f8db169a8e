/** LedgerTransaction's signer references (a key file, an environment variable, PKCS#11, KMS) and the move to them. */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as path from "node:path";
import { serializeIdentity } from "../../../provider/ledger/identity";
import { computeTxId } from "../../../provider/ledger/proposal";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import {
  URN,
  member,
  other,
  inputs,
  checked,
  outputs,
  keyDir,
  certificateOf,
  keyFile,
  keyFormsIn,
  useLedgerTransactionFixture,
} from "./ledger-transaction-fixture";
import { deriveTxId } from "../../../provider/resources/ledger/ledger-transaction-txid";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../../../provider/resources/ledger/ledger-transaction-inputs";

useLedgerTransactionFixture();

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
