/**
 * The PKCS#11 signer against a real SoftHSM2 token (Debian's softhsm2, provided by scripts/ensure-softhsm.sh): signs
 * with a key imported under Fabric's SKI, is safe under concurrency where the official client's HSM signer is not,
 * fails clearly on a wrong PIN and a missing library, token or key, and agrees with the official client's HSM signer
 * on the same token.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { signers } from "@hyperledger/fabric-gateway";
import { openHsmSigner } from "../../../provider/ledger/hsm-signer";
import { SignerError } from "../../../provider/errors/ledger/signer-error";
import { assertSignerMatchesCertificate, ecPointOf, fabricSki } from "../../../provider/ledger/signer-keys";
import { isLowS, verifySignature } from "../../../provider/ledger/signing";
import type { HsmSigner } from "../../../provider/ledger/hsm-signer";
import { createRootCa, issueCertificate, privateKeyPem } from "../../../sandbox/fabric/certificates";
import { createSoftHsmToken } from "../../helpers/softhsm";
import type { SoftHsmToken } from "../../helpers/softhsm";

const ca = createRootCa({ commonName: "ca.org1", organization: "Org1" });
const me = issueCertificate(ca, { subject: { commonName: "deployer", organization: "Org1" } });
const other = issueCertificate(ca, { subject: { commonName: "someone-else", organization: "Org1" } });
const SKI_BYTES = Buffer.from(fabricSki(me.publicKey));
const SKI = SKI_BYTES.toString("hex");

function digestOf(message: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(message).digest());
}

async function signerError(run: () => unknown): Promise<SignerError> {
  try {
    await run();
  } catch (error) {
    if (error instanceof SignerError) return error;
    throw error;
  }
  assert.fail("expected a SignerError");
}

describe("PKCS#11 signer (SoftHSM2)", function () {
  this.timeout(60_000);
  let token: SoftHsmToken;
  let open: HsmSigner[] = [];
  const hsm = (overrides: Partial<Parameters<typeof openHsmSigner>[0]> = {}): HsmSigner => {
    const signer = openHsmSigner({
      library: token.library,
      tokenLabel: token.label,
      pin: token.pin,
      keyId: fabricSki(me.publicKey),
      ...overrides,
    });
    open.push(signer);
    return signer;
  };

  beforeEach(() => {
    token = createSoftHsmToken("fabric");
    token.importKey(privateKeyPem(me.privateKey), SKI);
    token.activate();
  });
  afterEach(() => {
    for (const s of open) s.close();
    open = [];
    token.dispose();
  });

  it("signs digests with the key found by Fabric's SKI: low-S DER that verifies against the certificate", async () => {
    const signer = hsm();
    assert.equal(signer.reference, `pkcs11:token=fabric;id=${SKI}`);
    assert.ok(signer.publicKey !== undefined);
    await assertSignerMatchesCertificate({ certificatePem: me.certificatePem, ...signer });
    for (let i = 0; i < 20; i++) {
      const message = crypto.randomBytes(100);
      const signature = await signer.signer(digestOf(message));
      assert.equal(signature[0], 0x30);
      assert.ok(isLowS(signature));
      assert.ok(verifySignature({ publicKey: me.certificatePem, message, signature }));
    }
  });

  it("runs 64 concurrent signs on one token without CKR_OPERATION_ACTIVE, in at most maxSessions sessions", async () => {
    const signer = hsm({ maxSessions: 4 });
    const messages = Array.from({ length: 64 }, () => crypto.randomBytes(64));
    const signatures = await Promise.all(messages.map((m) => signer.signer(digestOf(m))));
    signatures.forEach((signature, i) => {
      assert.ok(verifySignature({ publicKey: me.certificatePem, message: messages[i] ?? new Uint8Array(), signature }));
    });
    assert.ok(signer.sessionsOpened() > 1, "concurrent signs used more than one session");
    assert.ok(signer.sessionsOpened() <= 4, String(signer.sessionsOpened()));
  });

  it("the official client's signer on the same token agrees: each side's signatures verify for the other", async () => {
    const factory = signers.newHSMSignerFactory(token.library); // initializes the library first (C_Initialize(NULL))
    try {
      const official = factory.newSigner({ label: token.label, pin: token.pin, identifier: SKI_BYTES });
      const ours = hsm();
      const publicPoint = ecPointOf(me.publicKey);
      for (let i = 0; i < 10; i++) {
        const message = crypto.randomBytes(80);
        const digest = digestOf(message);
        const theirs = await official.signer(digest);
        const mine = await ours.signer(digest);
        // Theirs verifies like a Fabric MSP with our verifier; ours with theirs (@noble/curves, low-S enforced).
        assert.ok(verifySignature({ publicKey: me.certificatePem, message, signature: theirs }));
        assert.ok(p256.verify(mine, digest, publicPoint, { lowS: true, prehash: false, format: "der" }));
        assert.ok(isLowS(theirs) && isLowS(mine));
      }
      for (const s of open) s.close();
      open = [];
      official.close();
    } finally {
      factory.dispose();
    }
  });

  it("names the certificate and the key when the token's key belongs to another certificate", async () => {
    const signer = hsm();
    const error = await signerError(() =>
      assertSignerMatchesCertificate({ certificatePem: other.certificatePem, ...signer }),
    );
    assert.equal(error.code, "KEY_MISMATCH");
    assert.match(
      error.message,
      new RegExp(
        `^pkcs11:token=fabric;id=${SKI}: this key is not the key of the certificate 'C=US, O=Org1, CN=someone-else'`,
      ),
    );
    assert.match(error.message, /nothing was signed or sent$/);
  });

  it("refuses a wrong PIN, a missing token, a missing key and a missing library, naming what to fix", async () => {
    const pin = await signerError(() => hsm({ pin: "9999" }));
    assert.equal(pin.code, "CKR_PIN_INCORRECT");
    assert.equal(pin.message, `pkcs11:token=fabric;id=${SKI}: C_Login failed: the PIN is incorrect`);
    assert.ok(!pin.message.includes("9999"));

    const label = await signerError(() => hsm({ tokenLabel: "no-such-token" }));
    assert.equal(label.code, "TOKEN_NOT_FOUND");
    assert.match(
      label.message,
      /no token labelled 'no-such-token' in any slot .*\(tokens present: 'fabric'\): check tokenLabel$/,
    );

    const key = await signerError(() => hsm({ keyId: fabricSki(other.publicKey) }));
    assert.equal(key.code, "KEY_NOT_FOUND");
    assert.match(key.message, /token 'fabric' has no EC private key with CKA_ID [0-9a-f]{64}: check keyId/);

    const library = await signerError(() => hsm({ library: "/nonexistent/libpkcs11.so" }));
    assert.equal(library.code, "LIBRARY_NOT_FOUND");
    assert.match(library.message, /the PKCS#11 library '\/nonexistent\/libpkcs11.so' does not exist/);
  });
});
