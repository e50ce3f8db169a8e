/**
 * Cloud KMS through the Google client against the sandbox: asymmetricSign and getPublicKey with Google's integrity
 * checks (digestCrc32c sent, verifiedDigestCrc32c, name and signatureCrc32c required, bounded retries on a mismatch),
 * the client's retries on 503 and 429, permissions and the sandbox's own checks of what it is sent.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { isApiError } from "../../../provider/errors/google/api-error";
import { DEFAULT_KMS_INTEGRITY_ATTEMPTS, crc32c, kmsAsymmetricSign, kmsPublicKey } from "../../../provider/google/kms";
import { KmsIntegrityError } from "../../../provider/errors/google/kms-integrity-error";
import type { ApiError } from "../../../provider/errors/google/api-error";
import { isLowS, toLowSDer, verifySignature } from "../../../provider/ledger/signing";
import { fixture } from "../../../sandbox/google";
import { DEPLOYER, READER, SCOPE, apiRequests, tokenClient, useSandbox } from "./helpers";

const KEY = fixture.FIXTURE_KMS_KEY_VERSION;
const SIGN = "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign";
const GET_KEY = "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey";

function digestOf(message: Uint8Array): Uint8Array {
  return new Uint8Array(crypto.createHash("sha256").update(message).digest());
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a rejection");
}

async function apiError(promise: Promise<unknown>): Promise<ApiError> {
  const error = await rejection(promise);
  assert.ok(isApiError(error), String(error));
  return error;
}

describe("Cloud KMS through the Google client (sandbox)", () => {
  const sandbox = useSandbox();

  it("checks CRC32C against RFC 3720's test vector", () => {
    assert.equal(crc32c(Buffer.from("123456789")), 0xe3069283);
    assert.equal(crc32c(new Uint8Array(32)), 0x8a9136aa);
  });

  it("signs digests with the key version: DER that verifies against getPublicKey, low-S once normalized", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER, [`${SCOPE}cloudkms`]);
    const { pem, algorithm } = await kmsPublicKey(client, KEY);
    assert.equal(algorithm, "EC_SIGN_P256_SHA256");
    const publicKey = crypto.createPublicKey(pem);
    let highS = 0;
    for (let i = 0; i < 24; i++) {
      const message = crypto.randomBytes(50);
      const raw = await kmsAsymmetricSign(client, KEY, digestOf(message));
      if (!isLowS(raw)) highS++;
      assert.ok(crypto.verify("sha256", message, { key: publicKey, dsaEncoding: "der" }, raw));
      assert.ok(verifySignature({ publicKey, message, signature: toLowSDer(raw) }));
    }
    assert.ok(highS > 0, "Cloud KMS (and the sandbox) return high-S signatures too: normalizing is needed");
    const first = apiRequests(sandbox()).find((r) => r.route === SIGN);
    assert.ok(first !== undefined);
    assert.equal(first.path, `/cloudkms/v1/${KEY}:asymmetricSign`);
    assert.equal(first.principal, DEPLOYER);
  });

  it("retries a corrupted signatureCrc32c and uses the next, intact answer", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    sandbox().setFaults([{ route: SIGN, kind: "corruptChecksum", times: 2 }]);
    const message = crypto.randomBytes(10);
    const raw = await kmsAsymmetricSign(client, KEY, digestOf(message));
    const { pem } = await kmsPublicKey(client, KEY);
    assert.ok(crypto.verify("sha256", message, { key: crypto.createPublicKey(pem), dsaEncoding: "der" }, raw));
    assert.deepEqual(
      apiRequests(sandbox())
        .filter((r) => r.route === SIGN)
        .map((r) => [r.status, r.fault]),
      [
        [200, "corruptChecksum"],
        [200, "corruptChecksum"],
        [200, undefined],
      ],
    );
  });

  it("gives up after a bounded number of corrupted answers with a KmsIntegrityError naming the check", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    sandbox().setFaults([{ kind: "corruptChecksum" }]);
    const error = await rejection(kmsAsymmetricSign(client, KEY, digestOf(Buffer.from("x"))));
    assert.ok(error instanceof KmsIntegrityError, String(error));
    assert.equal(error.check, "signatureCrc32c mismatch");
    assert.equal(error.attempts, DEFAULT_KMS_INTEGRITY_ATTEMPTS);
    assert.match(
      error.message,
      new RegExp(
        `^Cloud KMS ${KEY}: the answer failed its integrity check \\(signatureCrc32c mismatch\\) 3 times in a row; nothing was signed with it`,
      ),
    );
    const keyError = await rejection(kmsPublicKey(client, KEY));
    assert.ok(keyError instanceof KmsIntegrityError);
    assert.equal(keyError.check, "pemCrc32c mismatch");
    assert.equal(apiRequests(sandbox()).length, 2 * DEFAULT_KMS_INTEGRITY_ATTEMPTS);
  });

  it("retries 503 and rate-limit 429 answers through the client's retry policy", async () => {
    const { client, retries } = tokenClient(sandbox(), DEPLOYER);
    sandbox().setFaults([
      { route: SIGN, kind: "status", status: 503, times: 1 },
      { route: SIGN, kind: "status", status: 429, times: 1 },
    ]);
    const message = Buffer.from("retried");
    await kmsAsymmetricSign(client, KEY, digestOf(message));
    assert.deepEqual(
      retries.map((r) => [r.endpoint, r.httpStatus]),
      [
        [SIGN, 503],
        [SIGN, 429],
      ],
    );
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => r.status),
      [503, 429, 200],
    );
  });

  it("names the missing permission when the principal may only read the public key", async () => {
    const { client } = tokenClient(sandbox(), READER, [`${SCOPE}cloudkms`]);
    const { pem } = await kmsPublicKey(client, KEY);
    assert.match(pem, /^-----BEGIN PUBLIC KEY-----/);
    const error = await apiError(kmsAsymmetricSign(client, KEY, digestOf(Buffer.from("x"))));
    assert.equal(error.httpStatus, 403);
    assert.equal(error.reason, "IAM_PERMISSION_DENIED");
    assert.equal(
      error.hint,
      `The caller lacks the IAM permission cloudkms.cryptoKeyVersions.useToSign on crypto key version ${KEY}`,
    );
  });

  it("answers 404 for a version that does not exist, with the existence hint", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const missing = `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/9`;
    const error = await apiError(kmsPublicKey(client, missing));
    assert.equal(error.httpStatus, 404);
    assert.equal(error.serverMessage, `CryptoKeyVersion ${missing} not found.`);
    assert.equal(error.hint, `Check that crypto key version ${missing} exists and that the caller can see it`);
  });

  it("signs with a key version created on the control plane", async () => {
    const name = `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/2`;
    const response = await fetch(`${sandbox().url}/_sandbox/kms-key-versions`, {
      method: "POST",
      body: JSON.stringify({ name }),
    });
    const { pem } = (await response.json()) as { pem: string };
    assert.equal(pem, sandbox().createKmsKeyVersion(name), "the same key pair both times");
    const { client } = tokenClient(sandbox(), DEPLOYER);
    const message = Buffer.from("v2");
    const raw = await kmsAsymmetricSign(client, name, digestOf(message));
    assert.ok(crypto.verify("sha256", message, { key: crypto.createPublicKey(pem), dsaEncoding: "der" }, raw));
  });

  describe("the sandbox's checks of a request (raw HTTP)", () => {
    const sign = async (body: unknown, principal = DEPLOYER): Promise<{ status: number; json: unknown }> => {
      const token = sandbox().mintToken({ principal, scopes: ["cloudkms"] });
      const res = await fetch(`${sandbox().endpoints.kms}/v1/${KEY}:asymmetricSign`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      return { status: res.status, json: await res.json() };
    };
    const digest = Buffer.alloc(32, 9);

    it("rejects a digestCrc32c that does not match the digest", async () => {
      const { status, json } = await sign({ digest: { sha256: digest.toString("base64") }, digestCrc32c: "1" });
      assert.equal(status, 400);
      assert.match(JSON.stringify(json), /The checksum in field digest_crc32c did not match the data in field digest/);
    });

    it("reports verifiedDigestCrc32c false when no checksum was sent", async () => {
      const { status, json } = await sign({ digest: { sha256: digest.toString("base64") } });
      assert.equal(status, 200);
      assert.equal((json as { verifiedDigestCrc32c: boolean }).verifiedDigestCrc32c, false);
    });

    it("rejects a digest of another algorithm and data for a digest key", async () => {
      const sha384 = await sign({ digest: { sha384: Buffer.alloc(48).toString("base64") } });
      assert.equal(sha384.status, 400);
      assert.match(JSON.stringify(sha384.json), /does not match the key algorithm EC_SIGN_P256_SHA256/);
      const data = await sign({ data: "aGVsbG8=" });
      assert.equal(data.status, 400);
    });
  });

  it("is refused with a token without the cloudkms or cloud-platform scope", async () => {
    const { client } = tokenClient(sandbox(), DEPLOYER, [`${SCOPE}compute`]);
    const error = await apiError(kmsPublicKey(client, KEY));
    assert.equal(error.httpStatus, 403);
    assert.equal(error.reason, "ACCESS_TOKEN_SCOPE_INSUFFICIENT");
    assert.equal(apiRequests(sandbox()).filter((r) => r.route === GET_KEY).length, 1);
  });
});
