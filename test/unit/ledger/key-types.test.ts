/**
 * ECDSA P-384 and Ed25519 identities beside P-256. Our signers and verifiers are cross-checked
 * against node:crypto, @noble/curves and the official client's signers (@hyperledger/fabric-gateway): a signature
 * from ours verifies with theirs and vice versa, byte for byte where both are deterministic.
 */
import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import { signers } from "@hyperledger/fabric-gateway";
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256, p384 } from "@noble/curves/nist.js";
import { decodeDerSignatureOn, encodeDerSignature, P256, P384 } from "../../../provider/ledger/ecdsa";
import { sha256 } from "../../../provider/ledger/hash";
import { IdentityError } from "../../../provider/errors/ledger/identity-error";
import { identityKeyType, newIdentity } from "../../../provider/ledger/identity";
import type { KeyType } from "../../../provider/ledger/key-types";
import {
  isLowS,
  newPrivateKeySigner,
  normalizeLowS,
  privateKeySignerType,
  signatureFormProblem,
  toLowSDer,
  verifySignature,
} from "../../../provider/ledger/signing";
import { ecPointOf, fabricSki, publicKeyFromEcPoint } from "../../../provider/ledger/signer-keys";
import { newMember, newOrg } from "./fixtures";

const generate = {
  "ecdsa-p256": () => crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }),
  "ecdsa-p384": () => crypto.generateKeyPairSync("ec", { namedCurve: "P-384" }),
  ed25519: () => crypto.generateKeyPairSync("ed25519"),
} as const;

const rawPrivate = (key: crypto.KeyObject): Uint8Array =>
  new Uint8Array(Buffer.from(key.export({ format: "jwk" }).d ?? "", "base64url"));
const rawPublic = (key: crypto.KeyObject): Uint8Array => ecPointOf(key);

describe("key types: ECDSA P-384 and Ed25519 beside P-256", () => {
  it("signs ECDSA P-384 SHA-256 digests byte for byte as the official client and @noble/curves do", async () => {
    const { privateKey, publicKey } = generate["ecdsa-p384"]();
    const ours = newPrivateKeySigner(privateKey);
    const theirs = signers.newPrivateKeySigner(privateKey);
    assert.equal(privateKeySignerType(ours), "ecdsa-p384");
    for (let i = 0; i < 40; i++) {
      const message = crypto.randomBytes(50 + i);
      const digest = sha256(message);
      const signature = await ours(digest);
      assert.deepEqual(signature, new Uint8Array(await theirs(digest)), "RFC 6979 with HMAC-SHA-384, as noble's p384");
      assert.deepEqual(
        signature,
        p384.sign(digest, rawPrivate(privateKey), { prehash: false, lowS: true, format: "der" }),
      );
      assert.ok(isLowS(signature, "ecdsa-p384"));
      assert.ok(crypto.verify("sha256", message, { key: publicKey, dsaEncoding: "der" }, signature));
      assert.ok(p384.verify(signature, digest, rawPublic(publicKey), { prehash: false, format: "der", lowS: true }));
      assert.ok(verifySignature({ publicKey, message, signature }));
    }
  });

  it("signs Ed25519 over the message itself (hash none), byte for byte as the official client and noble", async () => {
    const { privateKey, publicKey } = generate.ed25519();
    const ours = newPrivateKeySigner(privateKey);
    const theirs = signers.newPrivateKeySigner(privateKey);
    assert.equal(privateKeySignerType(ours), "ed25519");
    for (let i = 0; i < 20; i++) {
      const message = crypto.randomBytes(100 + i);
      const signature = await ours(message);
      assert.equal(signature.length, 64);
      assert.deepEqual(signature, new Uint8Array(await theirs(message)));
      assert.deepEqual(signature, ed25519.sign(message, rawPrivate(privateKey)));
      assert.ok(crypto.verify(null, message, publicKey, signature));
      assert.ok(ed25519.verify(signature, message, rawPublic(publicKey)));
      assert.ok(verifySignature({ publicKey, message, signature }));
      // fabric-gateway#757: a signature over SHA-256(message) is what the peer refuses, and so do we.
      assert.equal(verifySignature({ publicKey, message, signature: await ours(sha256(message)) }), false);
    }
  });

  it("verifies the official client's and noble's signatures of every key type like an MSP", async () => {
    for (const type of ["ecdsa-p256", "ecdsa-p384", "ed25519"] as const) {
      const { privateKey, publicKey } = generate[type]();
      const message = crypto.randomBytes(80);
      const input = type === "ed25519" ? message : sha256(message);
      const official = await signers.newPrivateKeySigner(privateKey)(input);
      assert.ok(verifySignature({ publicKey, message, signature: official }), `${type}: official client`);
      const noble =
        type === "ed25519"
          ? ed25519.sign(message, rawPrivate(privateKey))
          : (type === "ecdsa-p256" ? p256 : p384).sign(input, rawPrivate(privateKey), {
              prehash: false,
              lowS: true,
              format: "der",
            });
      assert.ok(verifySignature({ publicKey, message, signature: noble }), `${type}: noble`);
      const tampered = Buffer.from(message);
      tampered[0] = (tampered[0] ?? 0) ^ 1;
      assert.equal(verifySignature({ publicKey, message: tampered, signature: official }), false, type);
    }
  });

  it("applies low-S with each curve's own half order: P-384's, not P-256's", () => {
    const { privateKey, publicKey } = generate["ecdsa-p384"]();
    const message = crypto.randomBytes(32);
    let high: Uint8Array | undefined;
    while (high === undefined) {
      const signature = new Uint8Array(crypto.sign("sha256", message, { key: privateKey, dsaEncoding: "der" }));
      const parsed = decodeDerSignatureOn(P384, signature);
      if (parsed !== undefined && parsed.s > P384.halfOrder) high = signature;
    }
    assert.equal(signatureFormProblem(high, "ecdsa-p384"), "is high-S (s > n/2 of P-384)");
    assert.equal(verifySignature({ publicKey, message, signature: high }), false, "high-S is refused");
    const low = normalizeLowS(high, "ecdsa-p384");
    assert.ok(isLowS(low, "ecdsa-p384"));
    assert.ok(crypto.verify("sha256", message, { key: publicKey, dsaEncoding: "der" }, low));
    assert.ok(verifySignature({ publicKey, message, signature: low }));
    // With the P-256 order the same signature is not even in range (s ≥ n of P-256 for almost every P-384 s).
    assert.throws(() => normalizeLowS(high, "ecdsa-p256"), /not a canonical DER ECDSA P-256 signature/);
    // raw r || s (PKCS#11 CKM_ECDSA on P-384) is 96 bytes.
    const parsed = decodeDerSignatureOn(P384, high)!;
    const raw = Buffer.concat([
      Buffer.from(parsed.r.toString(16).padStart(96, "0"), "hex"),
      Buffer.from(parsed.s.toString(16).padStart(96, "0"), "hex"),
    ]);
    assert.deepEqual(toLowSDer(raw, "ecdsa-p384"), low);
  });

  it("refuses a raw r || s out of range and an Ed25519 signature that is not 64 bytes", () => {
    assert.throws(
      () => toLowSDer(Buffer.alloc(96, 0xff), "ecdsa-p384"),
      (e: unknown) =>
        e instanceof IdentityError && e.message === "signature: raw r || s is not a valid ECDSA P-384 signature",
    );
    assert.throws(
      () => toLowSDer(new Uint8Array(65), "ed25519"),
      (e: unknown) => e instanceof IdentityError && e.message === "signature: not a 64-byte Ed25519 signature",
    );
    assert.equal(signatureFormProblem(new Uint8Array(63), "ed25519"), "is not a 64-byte Ed25519 signature");
    assert.equal(
      signatureFormProblem(encodeDerSignature(P256.n, 1n), "ecdsa-p256"),
      "is not canonical DER for ECDSA P-256",
    );
  });

  it("names keys as Fabric's BCCSP does: SKI = SHA-256 of the point (ECDSA) or of the 32 raw bytes (Ed25519)", () => {
    const ed = generate.ed25519().publicKey;
    const raw = Buffer.from(ed.export({ format: "jwk" }).x ?? "", "base64url");
    assert.equal(Buffer.from(fabricSki(ed)).toString("hex"), crypto.createHash("sha256").update(raw).digest("hex"));
    const ec = generate["ecdsa-p384"]().publicKey;
    assert.equal(ecPointOf(ec).length, 97);
    // PKCS#11 CKA_EC_POINT (DER OCTET STRING) with CKA_EC_PARAMS of each curve.
    const p384Point = Buffer.concat([Buffer.of(0x04, 0x61), ecPointOf(ec)]);
    const fromToken = publicKeyFromEcPoint(p384Point, Buffer.from("06052b81040022", "hex"));
    assert.ok(fromToken?.equals(ec));
    const edPoint = Buffer.concat([Buffer.of(0x04, 0x20), raw]);
    assert.ok(publicKeyFromEcPoint(edPoint, Buffer.from("06032b6570", "hex"))?.equals(ed));
    assert.ok(publicKeyFromEcPoint(edPoint, Buffer.from("130c656477617264733235353139", "hex"))?.equals(ed));
    assert.equal(publicKeyFromEcPoint(p384Point, Buffer.from("06082a8648ce3d030107", "hex")), undefined);
  });

  it("accepts P-384 and Ed25519 certificates as identities and names any other key", async () => {
    for (const keyType of ["ecdsa-p384", "ed25519"] as KeyType[]) {
      const org = await newOrg("Org3MSP", { keyType });
      const member = await newMember(org, "client");
      assert.equal(identityKeyType(newIdentity("Org3MSP", member.identity.credentials)), keyType);
    }
    const { x509 } = await import("../../../provider/ledger/x509-lib");
    const keys = await crypto.webcrypto.subtle.generateKey(
      { name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" },
      true,
      ["sign", "verify"],
    );
    const cert = await x509.X509CertificateGenerator.createSelfSigned({
      name: "CN=rsa",
      keys,
      signingAlgorithm: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
    });
    assert.throws(
      () => newIdentity("Org1MSP", cert.toString("pem")),
      (e: unknown) =>
        e instanceof IdentityError &&
        e.message ===
          "certificate of Org1MSP: the certificate's key is RSA 2048; it must be ECDSA P-256, ECDSA P-384 or Ed25519 (Fabric ≥ 3.0 with channel capability V3_0)",
    );
  });
});
