/**
 * Ed25519 and ECDSA P-384 identities with PKCS#11: Ed25519 (CKK_EC_EDWARDS, CKM_EDDSA) and ECDSA P-384 (CKM_ECDSA) keys
 * generated inside a SoftHSM2 token and found by their CKA_ID, sign what Fabric verifies: Ed25519 over the message
 * itself, P-384 over a SHA-256 digest as low-S DER with P-384's order. Checked with node:crypto and against
 * certificates for those keys.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { openHsmSigner } from "../../../provider/ledger/hsm-signer";
import { SignerError } from "../../../provider/errors/ledger/signer-error";
import { assertSignerMatchesCertificate, fabricSki } from "../../../provider/ledger/signer-keys";
import { isLowS, verifySignature } from "../../../provider/ledger/signing";
import type { HsmSigner } from "../../../provider/ledger/hsm-signer";
import type { KeyType } from "../../../provider/ledger/key-types";
import { createSoftHsmToken } from "../../helpers/softhsm";
import type { SoftHsmToken } from "../../helpers/softhsm";
import { certifyPublicKey, newOrg } from "../../unit/ledger/fixtures";

describe("PKCS#11 signer (SoftHSM2): Ed25519 and ECDSA P-384 keys generated in the token", function () {
  this.timeout(60_000);
  let token: SoftHsmToken;
  let open: HsmSigner[] = [];

  beforeEach(() => {
    token = createSoftHsmToken("fabric");
    token.activate();
  });
  afterEach(() => {
    for (const s of open) s.close();
    open = [];
    token.dispose();
  });

  for (const keyType of ["ed25519", "ecdsa-p384"] as const) {
    it(`${keyType}: signs as Fabric verifies, for the certificate of the token's key`, async () => {
      const tempId = crypto.randomBytes(8);
      token.generateKey(keyType, tempId);
      const signer = openHsmSigner({ library: token.library, tokenLabel: token.label, pin: token.pin, keyId: tempId });
      open.push(signer);
      assert.equal(signer.keyType, keyType satisfies KeyType);
      const publicKey = signer.publicKey;
      assert.ok(publicKey !== undefined, "the public key is read from CKA_EC_POINT");
      assert.equal(publicKey.asymmetricKeyType, keyType === "ed25519" ? "ed25519" : "ec");
      const org = await newOrg(keyType === "ed25519" ? "OrgEdMSP" : "OrgP384MSP", { keyType });
      const certificatePem = await certifyPublicKey(org, "hsm-user", publicKey);
      await assertSignerMatchesCertificate({ certificatePem, reference: signer.reference, signer: signer.signer });
      assert.equal(Buffer.from(fabricSki(publicKey)).length, 32);
      for (let i = 0; i < 10; i++) {
        const message = crypto.randomBytes(200 + i);
        const input = keyType === "ed25519" ? message : crypto.createHash("sha256").update(message).digest();
        const signature = await signer.signer(new Uint8Array(input));
        if (keyType === "ed25519") {
          assert.equal(signature.length, 64);
          assert.ok(crypto.verify(null, message, publicKey, signature), "pure Ed25519 over the message");
        } else {
          assert.ok(isLowS(signature, "ecdsa-p384"), "low-S with P-384's order");
          assert.ok(crypto.verify("sha256", message, { key: publicKey, dsaEncoding: "der" }, signature));
        }
        assert.ok(verifySignature({ publicKey: certificatePem, message, signature }));
      }
    });
  }

  it("names the key of the certificate it is not, with both key types", async () => {
    const id = crypto.randomBytes(8);
    token.generateKey("ed25519", id);
    const signer = openHsmSigner({ library: token.library, tokenLabel: token.label, pin: token.pin, keyId: id });
    open.push(signer);
    const p384 = crypto.generateKeyPairSync("ec", { namedCurve: "P-384" }).publicKey;
    const certificatePem = await certifyPublicKey(await newOrg("OrgP384MSP", { keyType: "ecdsa-p384" }), "x", p384);
    await assert.rejects(
      assertSignerMatchesCertificate({ certificatePem, reference: signer.reference, publicKey: signer.publicKey }),
      (e: unknown) =>
        e instanceof SignerError &&
        e.code === "KEY_MISMATCH" &&
        new RegExp(
          `^pkcs11:token=fabric;id=${id.toString("hex")}: this key is not the key of the certificate 'CN=x, O=OrgP384MSP' \\(certificate SKI [0-9a-f]{64}, ECDSA P-384; this key: Ed25519\\)`,
        ).test(e.message),
    );
  });
});
