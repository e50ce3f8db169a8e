import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as zlib from "node:zlib";
import { ValidationError } from "../../../../provider/errors/validation-error";
import {
  buildCcaasPackage,
  packageIdOf,
  readChaincodePackage,
} from "../../../../provider/ledger/lifecycle/chaincode-package";
import type { CcaasConnection } from "../../../../provider/ledger/lifecycle/chaincode-package";
import { gunzip, readTar, writeTar } from "../../../../provider/ledger/lifecycle/package-archive";

const CERT = "-----BEGIN CERTIFICATE-----\nMIIBtest\n-----END CERTIFICATE-----\n";
/** A client TLS key made for this run: no key material lives in the repository outside test/fixtures. */
const KEY = crypto
  .generateKeyPairSync("ec", { namedCurve: "P-256" })
  .privateKey.export({ type: "pkcs8", format: "pem" })
  .toString();
const MUTUAL: CcaasConnection = {
  address: "127.0.0.1:9999",
  tlsRequired: true,
  clientAuthRequired: true,
  rootCert: CERT,
  clientCert: CERT,
  clientKey: KEY,
};

const utf8 = (s: string): Uint8Array => Buffer.from(s, "utf8");

function refusal(make: () => unknown): string[] {
  try {
    make();
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return error.failures.map((f) => `${f.property}: ${f.reason}`);
  }
  assert.fail("accepted");
}

describe("chaincode install packages (lifecycle/chaincode-package.ts)", () => {
  it("builds a ccaas package whose bytes do not depend on when or where: the same package id every time", () => {
    const a = buildCcaasPackage({ label: "lc_1.0", connection: { address: "127.0.0.1:9999" } });
    const b = buildCcaasPackage({ label: "lc_1.0", connection: { address: "127.0.0.1:9999" } });
    assert.deepEqual(Buffer.from(a.bytes), Buffer.from(b.bytes));
    // Recorded once; `peer lifecycle chaincode calculatepackageid` of 2.5.16 and 3.1.5 print the same for these bytes
    // (test/integration/ledger/chaincode-package-peer-cli.test.ts). A change here changes every ccaas package id.
    assert.equal(a.packageId, "lc_1.0:4c9b6c63f9c5fd98168091e66e1c784dfadf360749f4c9ea594ff1aa67afbc37");
    assert.equal(a.packageId, `lc_1.0:${crypto.createHash("sha256").update(a.bytes).digest("hex")}`);
  });

  it("holds metadata.json then code.tar.gz, regular files of mode 0644, owner 0 and time 0, gzip without a time", () => {
    const pkg = buildCcaasPackage({ label: "lc_1.0", connection: MUTUAL });
    assert.deepEqual([pkg.bytes[4], pkg.bytes[5], pkg.bytes[6], pkg.bytes[7], pkg.bytes[9]], [0, 0, 0, 0, 0xff]);
    const entries = readTar(gunzip(pkg.bytes));
    assert.deepEqual(
      entries.map((e) => [e.name, e.type]),
      [
        ["metadata.json", "0"],
        ["code.tar.gz", "0"],
      ],
    );
    assert.deepEqual(JSON.parse(Buffer.from(entries[0]?.data ?? []).toString()), { type: "ccaas", label: "lc_1.0" });
    const tar = Buffer.from(zlib.gunzipSync(pkg.bytes));
    assert.deepEqual(
      [tar.subarray(100, 108).toString(), tar.subarray(108, 116).toString(), tar.subarray(136, 148).toString()],
      ["0000644\0", "0000000\0", "00000000000\0"],
    );
    const code = readTar(gunzip(entries[1]?.data ?? new Uint8Array(0)));
    assert.deepEqual(JSON.parse(Buffer.from(code[0]?.data ?? []).toString()), {
      address: "127.0.0.1:9999",
      dial_timeout: "10s",
      tls_required: true,
      client_auth_required: true,
      root_cert: CERT,
      client_key: KEY,
      client_cert: CERT,
    });
  });

  it("reads back a ccaas package's connection without its client key, and marks such a package secret", () => {
    const pkg = buildCcaasPackage({ label: "lc_1.0", connection: MUTUAL });
    assert.deepEqual(pkg.connection, {
      address: "127.0.0.1:9999",
      dialTimeout: "10s",
      tlsRequired: true,
      clientAuthRequired: true,
      rootCert: CERT,
      clientCert: CERT,
      hasClientKey: true,
    });
    assert.equal(pkg.secret, true);
    assert.equal(buildCcaasPackage({ label: "lc_1.0", connection: { address: "127.0.0.1:1" } }).secret, false);
  });

  it("reads a package compressed as other tools compress it (any deflate level), with its id over its own bytes", () => {
    const code = zlib.gzipSync(writeTar([{ name: "src/index.js", data: utf8("module.exports = {}") }]), { level: 9 });
    const bytes = zlib.gzipSync(
      writeTar([
        { name: "metadata.json", data: utf8('{"path":"src","type":"node","label":"assets_1.0"}') },
        { name: "code.tar.gz", data: code },
      ]),
      { level: 6 },
    );
    const pkg = readChaincodePackage(bytes);
    assert.deepEqual(
      [pkg.label, pkg.type, pkg.path, pkg.packageId],
      ["assets_1.0", "node", "src", packageIdOf("assets_1.0", bytes)],
    );
    assert.equal(pkg.connection, undefined);
  });

  it("refuses what a peer would not install, with Fabric's reason", () => {
    const metadata = { name: "metadata.json", data: utf8('{"type":"ccaas","label":"ok"}') };
    const code = {
      name: "code.tar.gz",
      data: zlib.gzipSync(writeTar([{ name: "connection.json", data: utf8("{}") }])),
    };
    const pkg = (...entries: { name: string; data: Uint8Array }[]) => zlib.gzipSync(writeTar(entries));
    assert.deepEqual(
      refusal(() => readChaincodePackage(pkg(metadata))),
      ["package: did not find a code package inside the package"],
    );
    assert.deepEqual(
      refusal(() => readChaincodePackage(pkg(code))),
      ["package: did not find any package metadata (missing metadata.json)"],
    );
    assert.deepEqual(
      refusal(() => readChaincodePackage(pkg({ name: "metadata.json", data: utf8('{"label":"_x"}') }, code))),
      [
        "package: invalid label '_x'. Label must be non-empty, can only consist of alphanumerics, symbols from '.+-_', and can only begin with alphanumerics",
      ],
    );
    assert.deepEqual(
      refusal(() => readChaincodePackage(utf8("not a package"), "chaincodePackage")),
      ["chaincodePackage: is not a chaincode install package (.tar.gz): not a gzip stream (no gzip header)"],
    );
    const symlink = Buffer.from(zlib.gunzipSync(pkg(metadata, code)));
    symlink[156] = "2".charCodeAt(0);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 0x20 : (symlink[i] ?? 0);
    symlink.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
    assert.deepEqual(
      refusal(() => readChaincodePackage(zlib.gzipSync(symlink))),
      ["package: tar entry metadata.json is not a regular file, type 2"],
    );
  });

  it("refuses connection details the ccaas builder could not use, naming every field", () => {
    assert.deepEqual(
      refusal(() =>
        buildCcaasPackage({
          label: "-bad",
          connection: { address: "localhost", dialTimeout: "ten seconds", clientKey: KEY, clientAuthRequired: true },
        }),
      ),
      [
        "label: '-bad' must start with a letter or digit and hold only letters, digits and '_', '.', '+', '-'",
        "connection.address: 'localhost' must be host:port, such as 127.0.0.1:9999",
        "connection.dialTimeout: 'ten seconds' must be a duration such as 10s or 1m30s",
        "connection.tlsRequired: must be true when clientAuthRequired, rootCert, clientCert or clientKey is set",
        "connection.clientCert: must be the PEM certificate the peer presents (clientAuthRequired is set)",
      ],
    );
    assert.deepEqual(
      refusal(() => buildCcaasPackage({ label: "ok", connection: { address: "127.0.0.1:1", tlsRequired: true } })),
      ["connection.rootCert: must be the PEM CA certificate of the server's TLS certificate (tlsRequired is set)"],
    );
  });
});
