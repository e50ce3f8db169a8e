/**
 * The secrets scanner of the e2e tests (test/helpers/secrets-scan.ts) finds a planted secret in every encoding it
 * claims, wherever in a larger text or blob it sits, and finds nothing in what may be stored (the certificate, the
 * public key) — so a green scan means the secret is not there, not that the scanner looked for the wrong thing.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import { createRootCa } from "../../sandbox/fabric/certificates";
import {
  decodedViews,
  findSecrets,
  findSecretsDecoded,
  privateKeyForms,
  scanFiles,
  textForms,
} from "../helpers/secrets-scan";

/** `bytes` inside a longer blob, after `offset` random bytes, as a JSON document would hold it. */
function embedded(bytes: Buffer, offset: number, encoding: BufferEncoding): string {
  const blob = Buffer.concat([crypto.randomBytes(offset), bytes, crypto.randomBytes(7)]);
  return JSON.stringify({ before: "x", blob: blob.toString(encoding), after: "y" });
}

describe("the e2e secrets scanner", () => {
  const ca = createRootCa({ commonName: "scan", organization: "scan" });
  const ecPem = ca.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const ecForms = privateKeyForms("key", ecPem);

  it("finds an EC key as PKCS#8 or SEC1 DER in base64, base64url and hex at any offset of a larger blob", () => {
    for (const type of ["pkcs8", "sec1"] as const) {
      const der = ca.privateKey.export({ type, format: "der" });
      for (const encoding of ["base64", "base64url", "hex"] as const) {
        for (const offset of [0, 1, 2, 5]) {
          const found = findSecrets(embedded(der, offset, encoding), ecForms);
          assert.ok(found.length > 0, `${type} DER as ${encoding} at offset ${String(offset)}`);
        }
      }
    }
  });

  it("finds the key's JWK d, its raw scalar in hex and base64, and its PEM lines JSON-escaped", () => {
    const jwk = ca.privateKey.export({ format: "jwk" });
    const d = Buffer.from(jwk.d ?? "", "base64url");
    assert.equal(d.length, 32);
    assert.ok(findSecrets(JSON.stringify({ key: jwk }), ecForms).includes("key JWK d"));
    assert.ok(findSecrets(`scalar=${d.toString("hex")}`, ecForms).includes("key d scalar as hex"));
    assert.ok(findSecrets(`scalar=${d.toString("hex").toUpperCase()}`, ecForms).includes("key d scalar as HEX"));
    assert.ok(findSecrets(embedded(d, 1, "base64"), ecForms).some((l) => l.startsWith("key d scalar as base64")));
    assert.ok(findSecrets(JSON.stringify({ pem: ecPem }), ecForms).includes("key PEM line 1"));
  });

  it("finds an RSA key's private members and PKCS#1 DER", () => {
    const { privateKey } = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const forms = privateKeyForms("sa", privateKey.export({ type: "pkcs8", format: "pem" }).toString());
    const jwk = privateKey.export({ format: "jwk" });
    for (const m of ["d", "p", "q", "dp", "dq", "qi"] as const) {
      assert.deepEqual(findSecrets(`"${m}":"${String(jwk[m])}"`, forms).includes(`sa JWK ${m}`), true, m);
    }
    const pkcs1 = privateKey.export({ type: "pkcs1", format: "der" });
    assert.ok(findSecrets(embedded(pkcs1, 2, "base64"), forms).length > 0);
  });

  it("finds an Ed25519 key (PKCS#8 only, no SEC1) by its PEM line, PKCS#8 DER and JWK d, and not by its public key", () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync("ed25519");
    const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const forms = privateKeyForms("ed", pem);
    const d = String(privateKey.export({ format: "jwk" }).d);
    assert.ok(findSecrets(`"d":"${d}"`, forms).includes("ed JWK d"));
    assert.ok(findSecrets(JSON.stringify({ pem }), forms).includes("ed PEM line 1"));
    const pkcs8 = privateKey.export({ type: "pkcs8", format: "der" });
    assert.ok(findSecrets(embedded(pkcs8, 1, "hex"), forms).length > 0);
    const spki = publicKey.export({ type: "spki", format: "der" });
    assert.deepEqual(
      findSecrets([spki.toString("base64"), JSON.stringify(publicKey.export({ format: "jwk" }))].join("\n"), forms),
      [],
    );
  });

  it("finds nothing in what may be stored: the certificate and the public key in every encoding, another key", () => {
    const spki = ca.publicKey.export({ type: "spki", format: "der" });
    const stored = [
      ca.certificatePem,
      JSON.stringify({ certificatePem: ca.certificatePem }),
      ca.certificateDer.toString("hex"),
      spki.toString("base64"),
      spki.toString("hex"),
      JSON.stringify(ca.publicKey.export({ format: "jwk" })),
    ].join("\n");
    assert.deepEqual(findSecrets(stored, ecForms), []);
    const other = createRootCa({ commonName: "other", organization: "scan" });
    const otherJwk = JSON.stringify(other.privateKey.export({ format: "jwk" }));
    assert.deepEqual(findSecrets(otherJwk, ecForms), []);
  });

  it("finds a PIN or a token as text, JSON-escaped and in every encoding, and a token of any value by its prefix", () => {
    const pin = "hsm-pin-8264";
    const forms = textForms("PIN", pin);
    assert.deepEqual(findSecrets(`pin=${pin}`, forms), ["PIN"]);
    for (const encoding of ["base64", "base64url", "hex"] as const) {
      for (const offset of [0, 1, 2]) {
        assert.ok(findSecrets(embedded(Buffer.from(pin), offset, encoding), forms).length > 0, `${encoding} ${offset}`);
      }
    }
    const prefix = textForms("token", "ya29.sandbox.");
    const token = `ya29.sandbox.${crypto.randomBytes(32).toString("base64url")}`;
    assert.ok(findSecrets(`Authorization: Bearer ${token}`, prefix).includes("token"));
    assert.ok(findSecrets(Buffer.from(`Bearer ${token}`).toString("base64"), prefix).length > 0);
    assert.deepEqual(findSecrets("no secret here: ya29 sandbox", prefix), []);
  });

  it("finds a token read only by decoding: base64 twice, gzip in base64, Go's HTML-safe escapes, Pulumi's dumps", () => {
    const token = "ya29.sandbox.Qk3x-_9vTzR8bYwL0pN2aF6hJ4uE1cM7sD5gK3iO9";
    const forms = textForms("token", token);
    const json = JSON.stringify({ "opsledger:accessToken": token });
    const twice = Buffer.from(Buffer.from(json).toString("base64")).toString("base64");
    const gzipped = zlib.gzipSync(Buffer.from(json)).toString("base64");
    const passphrase = 'a<b>&"c" d';
    const htmlSafe = `{"passphrase":"${passphrase.replace(/[<>&"]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}"}`;
    const dump = `Unmarshaling property for RPC[Configure]: variables=map[V:map[opsledger:accessToken:${Buffer.from(`"${token}"`).toString("base64")}]]`;
    for (const [what, text, secretForms] of [
      ["base64 twice", twice, forms],
      ["gzip in base64", gzipped, forms],
      ["Go's HTML-safe escapes", htmlSafe, textForms("passphrase", passphrase)],
    ] as const) {
      assert.deepEqual(findSecrets(text, secretForms), [], `${what}: not found without decoding`);
      assert.ok(findSecretsDecoded(text, secretForms).length > 0, `${what}: found once decoded`);
    }
    assert.ok(findSecretsDecoded(dump, forms).includes("token"), "the token itself, out of a base64 value of a dump");
    assert.ok(decodedViews(dump).some((v) => v.includes(`opsledger:accessToken:"${token}"`)));
  });

  it("finds nothing decoded in what may be stored: base64 noise, the certificate, another key's PEM", () => {
    const noise = crypto.randomBytes(4096).toString("base64");
    const other = crypto
      .generateKeyPairSync("ec", { namedCurve: "P-256" })
      .privateKey.export({ type: "pkcs8", format: "pem" });
    const text = [noise, ca.certificatePem, JSON.stringify({ pem: other.toString() })].join("\n");
    assert.deepEqual(findSecretsDecoded(text, ecForms), []);
  });

  it("reads every file under a directory, gzip files unpacked, and counts them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-scan-"));
    try {
      fs.mkdirSync(path.join(dir, "logs"));
      fs.writeFileSync(path.join(dir, "logs", "pulumi.log.gz"), zlib.gzipSync("planted-in-a-gzip-log"));
      fs.writeFileSync(path.join(dir, "state.json"), '{"planted":"in-plain-state"}');
      const scan = scanFiles(dir);
      assert.equal(scan.files, 2);
      assert.ok(scan.text.includes("planted-in-a-gzip-log") && scan.text.includes("in-plain-state"));
      assert.equal(scan.bytes, "planted-in-a-gzip-log".length + '{"planted":"in-plain-state"}'.length);
      assert.deepEqual(scanFiles(path.join(dir, "none")), { text: "", files: 0, bytes: 0 });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
