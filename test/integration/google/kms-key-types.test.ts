/**
 * Ed25519 and ECDSA P-384 identities with Cloud KMS (sandbox): EC_SIGN_P384_SHA384 and EC_SIGN_ED25519 key versions
 * signing what Fabric verifies, and the combinations that cannot exist. Fabric verifies P-384 over SHA-256: KMS takes
 * any 48-byte value in digest.sha384, so the signer sends the SHA-256 digest left-padded with zero bytes (ECDSA reads
 * the digest as an integer, so the signature is ECDSA-P384 over SHA-256); the SHA-256 digest as it is (32 bytes) is
 * refused, and what KMS makes of `data` or a SHA-384 digest never verifies for Fabric. Ed25519 signs `data`, never a
 * digest.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { kmsAsymmetricSign, kmsPublicKey } from "../../../provider/google/kms";
import { isLowS, toLowSDer, verifySignature } from "../../../provider/ledger/signing";
import { kmsSignInput } from "../../../provider/resources/ledger/session/kms-signer";
import { fixture } from "../../../sandbox/google";
import { DEPLOYER, apiRequests, tokenClient, useSandbox } from "./helpers";

const P384_KEY = `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/7`;
const ED_KEY = `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/8`;
const sha = (algorithm: string, m: Uint8Array): Uint8Array =>
  new Uint8Array(crypto.createHash(algorithm).update(m).digest());

describe("Cloud KMS EC_SIGN_P384_SHA384 and EC_SIGN_ED25519 key versions (sandbox)", () => {
  const sandbox = useSandbox();
  let p384: crypto.KeyObject;
  let ed: crypto.KeyObject;

  beforeEach(() => {
    p384 = crypto.createPublicKey(sandbox().createKmsKeyVersion(P384_KEY, "EC_SIGN_P384_SHA384"));
    ed = crypto.createPublicKey(sandbox().createKmsKeyVersion(ED_KEY, "EC_SIGN_ED25519"));
  });

  const raw = async (name: string, body: unknown): Promise<{ status: number; text: string }> => {
    const token = sandbox().mintToken({ principal: DEPLOYER, scopes: ["cloudkms"] });
    const res = await fetch(`${sandbox().endpoints.kms}/v1/${name}:asymmetricSign`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: res.status, text: await res.text() };
  };

  it("P-384: the zero-padded SHA-256 digest in digest.sha384 gives ECDSA-P384 over SHA-256, as Fabric verifies", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    assert.equal((await kmsPublicKey(client, P384_KEY)).algorithm, "EC_SIGN_P384_SHA384");
    for (let i = 0; i < 12; i++) {
      const message = crypto.randomBytes(120);
      const input = kmsSignInput("ecdsa-p384", sha("sha256", message));
      assert.ok("digest" in input && input.field === "sha384" && input.digest.length === 48);
      const signature = toLowSDer(await kmsAsymmetricSign(client, P384_KEY, input), "ecdsa-p384");
      assert.ok(isLowS(signature, "ecdsa-p384"));
      assert.ok(crypto.verify("sha256", message, { key: p384, dsaEncoding: "der" }, signature));
      assert.ok(verifySignature({ publicKey: p384, message, signature }));
    }
    const sent = apiRequests(sandbox()).filter((r) => r.route?.endsWith("asymmetricSign"));
    assert.deepEqual(
      sent.map((r) => r.status),
      Array<number>(12).fill(200),
    );
  });

  it("P-384: what cannot exist — a 32-byte digest in digest.sha384, KMS hashing data, a SHA-384 digest", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const message = crypto.randomBytes(64);
    const digest = sha("sha256", message);
    // Our client refuses the short digest before sending it; KMS (and the sandbox) refuse it by length.
    await assert.rejects(
      kmsAsymmetricSign(client, P384_KEY, { digest, field: "sha384" }),
      /digest\.sha384: must be the base64 text of a 48-byte SHA-384 digest/,
    );
    assert.equal(apiRequests(sandbox()).length, 0, "nothing was sent");
    const short = await raw(P384_KEY, { digest: { sha384: Buffer.from(digest).toString("base64") } });
    assert.equal(short.status, 400);
    assert.match(short.text, /Invalid value at 'digest.sha384': the digest must be 48 bytes, base64/);
    const data = await raw(P384_KEY, { data: Buffer.from(message).toString("base64") });
    assert.equal(data.status, 400);
    const wrongField = await raw(P384_KEY, { digest: { sha256: Buffer.from(digest).toString("base64") } });
    assert.match(wrongField.text, /does not match the key algorithm EC_SIGN_P384_SHA384: send digest.sha384/);
    // A signature over SHA-384 (what KMS makes of data for this key) is valid ECDSA but not what Fabric checks.
    const overSha384 = toLowSDer(
      await kmsAsymmetricSign(client, P384_KEY, { digest: sha("sha384", message), field: "sha384" }),
      "ecdsa-p384",
    );
    assert.ok(crypto.verify("sha384", message, { key: p384, dsaEncoding: "der" }, overSha384));
    assert.equal(verifySignature({ publicKey: p384, message, signature: overSha384 }), false);
  });

  it("Ed25519: signs the message itself sent as data (pure Ed25519), and refuses a digest", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    assert.equal((await kmsPublicKey(client, ED_KEY)).algorithm, "EC_SIGN_ED25519");
    for (let i = 0; i < 8; i++) {
      const message = crypto.randomBytes(300);
      const signature = toLowSDer(await kmsAsymmetricSign(client, ED_KEY, kmsSignInput("ed25519", message)), "ed25519");
      assert.equal(signature.length, 64);
      assert.ok(crypto.verify(null, message, ed, signature));
      assert.ok(verifySignature({ publicKey: ed, message, signature }));
    }
    const signs = apiRequests(sandbox()).filter((r) => r.route?.endsWith("asymmetricSign"));
    assert.equal(signs.length, 8);
    const digest = await raw(ED_KEY, { digest: { sha256: Buffer.alloc(32).toString("base64") } });
    assert.equal(digest.status, 400);
    assert.match(digest.text, /uses EC_SIGN_ED25519, which signs data, not a digest: send data/);
    await assert.rejects(
      kmsAsymmetricSign(client, ED_KEY, sha("sha256", Buffer.from("x"))),
      /EC_SIGN_ED25519, which signs data, not a digest/,
    );
  });
});
