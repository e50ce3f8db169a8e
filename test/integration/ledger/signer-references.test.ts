/**
 * The ledger provider's check with signer references against real backends, in process: a PKCS#11 PIN named by a stack
 * config key (read from what configure() delivered, never stored), PKCS#11 failures on the field to fix, and a Cloud
 * KMS key version checked against the certificate through the Google client before anything is signed or sent.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { fabricSki } from "../../../provider/ledger/signer-keys";
import { configureProvider } from "../../../provider/runtime/context";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { certifyPublicKey, createRootCa, issueCertificate, privateKeyPem } from "../../../sandbox/fabric/certificates";
import { fixture, startGoogleSandbox } from "../../../sandbox/google";
import type { GoogleSandbox } from "../../../sandbox/google";
import { createSoftHsmToken } from "../../helpers/softhsm";
import type { SoftHsmToken } from "../../helpers/softhsm";
import type { LedgerTransactionInputs } from "../../../provider/resources/ledger/ledger-transaction-inputs";

const URN =
  "urn:pulumi:dev::demo::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";
const ca = createRootCa({ commonName: "ca.org1", organization: "Org1MSP" });
const me = issueCertificate(ca, { subject: { commonName: "deployer", organization: "Org1MSP" } });

function configure(values: Record<string, string>): void {
  const config = { get: (key: string) => values[key], require: (key: string) => values[key] ?? "" };
  const request: dynamic.ConfigureRequest = { config };
  configureProvider(request);
}

function inputs(identity: LedgerTransactionInputs["identity"]): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: { address: "127.0.0.1:7051" },
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args: ["asset-1", "blue"],
    identity,
    trustedRootCertificates: { Org1MSP: ca.certificatePem },
  };
}

describe("LedgerTransaction check with signer references (SoftHSM2, Google sandbox)", function () {
  this.timeout(60_000);
  let token: SoftHsmToken;
  let google: GoogleSandbox;

  before(async () => {
    token = createSoftHsmToken("fabric", "4321");
    token.importKey(privateKeyPem(me.privateKey), Buffer.from(fabricSki(me.publicKey)).toString("hex"));
    token.activate();
    google = await startGoogleSandbox();
  });
  after(async () => {
    configure({});
    token.dispose();
    await google.close();
  });

  it("reads a PKCS#11 PIN from the stack config key named by pinConfig, and keeps only the key's name", async () => {
    configure({ "demo:hsmPin": "4321" });
    const identity = {
      mspId: "Org1MSP",
      certificatePem: me.certificatePem,
      pkcs11: { library: token.library, tokenLabel: "fabric", pinConfig: "demo:hsmPin" },
    };
    const result = await ledgerTransactionProvider.check({}, inputs(identity));
    assert.equal(result.failures, undefined, JSON.stringify(result.failures));
    assert.match((result.inputs as LedgerTransactionInputs).txId ?? "", /^[0-9a-f]{64}$/);
    assert.ok(!JSON.stringify(result.inputs).includes("4321"));

    configure({});
    const unset = await ledgerTransactionProvider.check({}, inputs(identity));
    assert.deepEqual(unset.failures, [
      {
        property: "identity.pkcs11.pinConfig",
        reason: `pkcs11:token=fabric;id=${Buffer.from(fabricSki(me.publicKey)).toString("hex")}: the stack config key demo:hsmPin (pinConfig) is not set: pulumi config set --secret demo:hsmPin <PIN>`,
      },
    ]);
  });

  it("puts a wrong PIN on identity.pkcs11.pin and an unknown key id on identity.pkcs11.keyId", async () => {
    const base = { mspId: "Org1MSP", certificatePem: me.certificatePem };
    const pin = await ledgerTransactionProvider.check(
      {},
      inputs({ ...base, pkcs11: { library: token.library, tokenLabel: "fabric", pin: "0000" } }),
    );
    const [pinFailure] = pin.failures ?? [];
    assert.equal(pinFailure?.property, "identity.pkcs11.pin");
    assert.match(pinFailure.reason, /C_Login failed: the PIN is incorrect$/);
    const key = await ledgerTransactionProvider.check(
      {},
      inputs({ ...base, pkcs11: { library: token.library, tokenLabel: "fabric", pin: "4321", keyId: "0a0b" } }),
    );
    const [keyFailure] = key.failures ?? [];
    assert.equal(keyFailure?.property, "identity.pkcs11.keyId");
    assert.match(keyFailure.reason, /has no EC private key with CKA_ID 0a0b/);
  });

  it("checks a Cloud KMS key version against the certificate before anything is signed", async () => {
    const token = google.mintToken({ principal: fixture.DEPLOYER, scopes: ["cloudkms"] });
    configure({ "opsledger:kmsCustomEndpoint": google.endpoints.kms, "opsledger:accessToken": token });
    const kmsPem = google.createKmsKeyVersion(fixture.FIXTURE_KMS_KEY_VERSION);
    const { certificatePem } = certifyPublicKey(ca, crypto.createPublicKey(kmsPem), {
      subject: { commonName: "kms-user", organization: "Org1MSP" },
    });
    const kms = { cryptoKeyVersion: fixture.FIXTURE_KMS_KEY_VERSION };
    const right = await ledgerTransactionProvider.check({}, inputs({ mspId: "Org1MSP", certificatePem, kms }));
    assert.equal(right.failures, undefined, JSON.stringify(right.failures));
    const seen = google.requests().length;
    // The certificate of `me` (another key) with the KMS key: refused, naming both.
    const wrong = await ledgerTransactionProvider.check(
      {},
      inputs({ mspId: "Org1MSP", certificatePem: me.certificatePem, kms }),
    );
    const [mismatch] = wrong.failures ?? [];
    assert.equal(mismatch?.property, "identity.kms.cryptoKeyVersion");
    assert.match(
      mismatch.reason,
      new RegExp(
        `^Cloud KMS ${fixture.FIXTURE_KMS_KEY_VERSION}: this key is not the key of the certificate 'C=US, O=Org1MSP, CN=deployer'`,
      ),
    );
    assert.deepEqual(
      google
        .requests()
        .slice(seen)
        .map((r) => r.route)
        .filter((r) => r?.startsWith("cloudkms")),
      ["cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey"],
      "only the public key was read",
    );
  });
});
