import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import { IdentityError } from "../../../provider/errors/ledger/identity-error";
import {
  decodeDerSignature,
  encodeDerSignature,
  P256_HALF_ORDER,
  P256_ORDER,
  verifyDigest,
} from "../../../provider/ledger/ecdsa-p256";
import { sha384 } from "../../../provider/ledger/hash";
import {
  isLowS,
  lowSSigner,
  messageSignerOf,
  newPrivateKeySigner,
  normalizeLowS,
  toLowSDer,
  verifySignature,
} from "../../../provider/ledger/signing";

const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
const pem = privateKey.export({ format: "pem", type: "pkcs8" }).toString();
const digestOf = (m: Uint8Array): Uint8Array => new Uint8Array(crypto.createHash("sha256").update(m).digest());

/** A high-S signature made by Node (retrying until Node happens to produce one). */
function nodeHighS(message: Uint8Array): Uint8Array {
  for (;;) {
    const sig = new Uint8Array(crypto.sign("sha256", message, privateKey));
    if (!isLowS(sig)) return sig;
  }
}

describe("signing", () => {
  it("signs digests with low-S DER signatures that Node verifies over the message, 300 times out of 300", async () => {
    const signer = newPrivateKeySigner(pem);
    let verified = 0;
    let low = 0;
    for (let i = 0; i < 300; i++) {
      const message = crypto.randomBytes(40);
      const signature = await signer(digestOf(message));
      if (crypto.verify("sha256", message, publicKey, signature)) verified++;
      if (decodeDerSignature(signature)!.s <= P256_HALF_ORDER) low++;
    }
    assert.deepEqual([verified, low], [300, 300]);
  });

  it("is deterministic (RFC 6979): the same digest gives the same signature", async () => {
    const signer = newPrivateKeySigner(privateKey);
    const digest = digestOf(new TextEncoder().encode("hello"));
    assert.deepEqual(await signer(digest), await signer(digest));
  });

  it("signs SHA-384 digests by truncating them to the curve order size", async () => {
    const signer = newPrivateKeySigner(new TextEncoder().encode(pem));
    const message = new TextEncoder().encode("sha384");
    const signature = await signer(sha384(message));
    assert.equal(crypto.verify("sha384", message, publicKey, signature), true);
    assert.equal(verifySignature({ publicKey, message, signature, hashAlgorithm: "sha384" }), true);
  });

  it("has a node:crypto message fast path: low-S DER signatures that verify over the digest, 300 of 300", () => {
    const signer = newPrivateKeySigner(pem);
    const fast = messageSignerOf(signer);
    assert.notEqual(fast, undefined);
    const jwk = publicKey.export({ format: "jwk" });
    const coordinate = (v: string | undefined): bigint =>
      BigInt(`0x${Buffer.from(v ?? "", "base64url").toString("hex")}`);
    const [x, y] = [coordinate(jwk.x), coordinate(jwk.y)];
    let der = 0;
    let low = 0;
    let overDigest = 0;
    let asMsp = 0;
    for (let i = 0; i < 300; i++) {
      const message = crypto.randomBytes(40);
      const signature = fast!(message, "sha256");
      const parsed = decodeDerSignature(signature); // undefined unless canonical DER
      if (parsed === undefined) continue;
      der++;
      if (parsed.s <= P256_HALF_ORDER) low++;
      // The Signer contract: a signature over the digest, exactly what signer(digest) would have produced.
      if (verifyDigest(x, y, digestOf(message), parsed.r, parsed.s)) overDigest++;
      if (verifySignature({ publicKey, message, signature })) asMsp++;
    }
    assert.deepEqual([der, low, overDigest, asMsp], [300, 300, 300, 300]);
    // Another hash: signs sha384(message), as the digest signer signs a SHA-384 digest.
    const message = new TextEncoder().encode("sha384");
    const signature = fast!(message, "sha384");
    const { r, s } = decodeDerSignature(signature)!;
    assert.equal(verifyDigest(x, y, sha384(message), r, s), true);
    assert.equal(verifySignature({ publicKey, message, signature, hashAlgorithm: "sha384" }), true);
    // Only our own signers have it: an HSM/KMS Signer or a lowSSigner wrapper is given the digest.
    assert.equal(messageSignerOf(lowSSigner(signer)), undefined);
    assert.equal(
      messageSignerOf(() => Promise.resolve(new Uint8Array(0))),
      undefined,
    );
  });

  it("accepts SEC1 PEM keys", async () => {
    const sec1 = privateKey.export({ format: "pem", type: "sec1" }).toString();
    const message = new TextEncoder().encode("m");
    const signature = await newPrivateKeySigner(sec1)(digestOf(message));
    assert.equal(crypto.verify("sha256", message, publicKey, signature), true);
  });

  it("rejects keys that are not ECDSA P-256, P-384 or Ed25519, naming what they are, without echoing the key", () => {
    const cases: [crypto.KeyObject, string][] = [
      [crypto.generateKeyPairSync("ed448").privateKey, "ed448"],
      [crypto.generateKeyPairSync("ec", { namedCurve: "secp521r1" }).privateKey, "EC secp521r1"],
      [crypto.generateKeyPairSync("ec", { namedCurve: "secp256k1" }).privateKey, "EC secp256k1"],
      [crypto.generateKeyPairSync("rsa", { modulusLength: 1024 }).privateKey, "RSA 1024"],
    ];
    for (const [key, what] of cases) {
      assert.throws(
        () => newPrivateKeySigner(key),
        (e: unknown) =>
          e instanceof IdentityError &&
          e.message ===
            `private key: must be an ECDSA P-256, ECDSA P-384 or Ed25519 (Fabric ≥ 3.0 with channel capability V3_0) private key, not ${what}`,
      );
    }
    const dashes = "-".repeat(5);
    const garbage = `${dashes}BEGIN PRIVATE KEY${dashes}\nc2VjcmV0LWtleS1tYXRlcmlhbA==\n${dashes}END PRIVATE KEY${dashes}\n`;
    assert.throws(
      () => newPrivateKeySigner(garbage),
      (e: unknown) =>
        e instanceof IdentityError &&
        e.message === "private key: not a parsable PEM private key (PKCS#8 or SEC1)" &&
        e.cause === undefined &&
        !JSON.stringify(e).includes("c2VjcmV0"),
    );
  });

  it("normalizes Node's high-S signatures to low-S ones that still verify", () => {
    const message = new TextEncoder().encode("normalize");
    const high = nodeHighS(message);
    assert.equal(isLowS(high), false);
    const low = normalizeLowS(high);
    assert.equal(isLowS(low), true);
    assert.equal(decodeDerSignature(low)!.s, P256_ORDER - decodeDerSignature(high)!.s);
    assert.equal(crypto.verify("sha256", message, publicKey, low), true);
    assert.deepEqual(normalizeLowS(low), low);
  });

  it("wraps an external signer so that its output is always low-S", async () => {
    const message = new TextEncoder().encode("hsm");
    const high = nodeHighS(message);
    const calls: Uint8Array[] = [];
    const signer = lowSSigner((digest) => {
      calls.push(digest);
      return Promise.resolve(high);
    });
    const signature = await signer(digestOf(message));
    assert.equal(calls.length, 1);
    assert.equal(isLowS(signature), true);
  });

  it("verifies like an MSP: rejects high-S, non-DER and wrong-message signatures", () => {
    const message = new TextEncoder().encode("verify");
    const high = nodeHighS(message);
    assert.equal(verifySignature({ publicKey, message, signature: high }), false);
    assert.equal(verifySignature({ publicKey, message, signature: normalizeLowS(high) }), true);
    assert.equal(
      verifySignature({ publicKey, message: new TextEncoder().encode("other"), signature: normalizeLowS(high) }),
      false,
    );
    const { r, s } = decodeDerSignature(normalizeLowS(high))!;
    const raw = Buffer.concat([
      Buffer.from(r.toString(16).padStart(64, "0"), "hex"),
      Buffer.from(s.toString(16).padStart(64, "0"), "hex"),
    ]);
    assert.equal(verifySignature({ publicKey, message, signature: raw }), false);
    assert.equal(verifySignature({ publicKey: "not a certificate", message, signature: normalizeLowS(high) }), false);
  });

  it("parses only canonical DER", () => {
    assert.deepEqual(decodeDerSignature(encodeDerSignature(1n, 2n)), { r: 1n, s: 2n });
    assert.equal(Buffer.from(encodeDerSignature(0x80n, 1n)).toString("hex"), "3007020200800201" + "01");
    assert.equal(
      decodeDerSignature(Uint8Array.from([0x30, 0x07, 0x02, 0x02, 0x00, 0x01, 0x02, 0x01, 0x01])),
      undefined,
    );
    assert.equal(
      decodeDerSignature(Uint8Array.from([0x30, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x01, 0x00])),
      undefined,
    );
    assert.equal(decodeDerSignature(encodeDerSignature(P256_ORDER, 1n)), undefined);
    assert.equal(decodeDerSignature(encodeDerSignature(1n, 0n)), undefined);
  });

  it("turns a backend's raw r || s (PKCS#11) or DER (KMS) into low-S DER that still verifies", () => {
    for (let i = 0; i < 20; i++) {
      const message = crypto.randomBytes(40);
      const high = nodeHighS(message);
      const parsed = decodeDerSignature(high);
      assert.ok(parsed !== undefined);
      const raw = Buffer.concat([
        Buffer.from(parsed.r.toString(16).padStart(64, "0"), "hex"),
        Buffer.from(parsed.s.toString(16).padStart(64, "0"), "hex"),
      ]);
      for (const input of [new Uint8Array(raw), high]) {
        const out = toLowSDer(input);
        assert.ok(isLowS(out));
        assert.deepEqual(decodeDerSignature(out), { r: parsed.r, s: P256_ORDER - parsed.s });
        assert.ok(verifySignature({ publicKey, message, signature: out }));
      }
    }
    assert.throws(() => toLowSDer(new Uint8Array(64)), /raw r \|\| s is not a valid ECDSA P-256 signature/);
    assert.throws(() => toLowSDer(new Uint8Array(63)), /not a canonical DER ECDSA P-256 signature/);
  });
});
