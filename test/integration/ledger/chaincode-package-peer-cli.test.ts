/**
 * Package ids against the peer CLI of each Fabric release: what `peer lifecycle chaincode calculatepackageid` prints
 * for a package buildCcaasPackage wrote, and for packages made elsewhere (the peer CLI's own `package`, and tar and
 * gzip as sandbox/fabric-network/chaincode-package.ts makes them), which readChaincodePackage reads.
 */
import assert from "node:assert/strict";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildCcaasPackage, readChaincodePackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import { ensureFabric } from "../../../sandbox/fabric-network/fabric-home";
import { runTool } from "../../../sandbox/fabric-network/processes";
import { FABRIC_VERSIONS } from "../../../sandbox/fabric-network/types";

/** A self-signed certificate and its key, as real PEM text (connection.json carries them verbatim). */
function tlsPair(): { cert: string; key: string } {
  const { privateKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const key = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  // A certificate body is only carried here, never parsed: any PEM CERTIFICATE block will do.
  const cert = `-----BEGIN CERTIFICATE-----\n${crypto.randomBytes(300).toString("base64")}\n-----END CERTIFICATE-----\n`;
  return { cert, key };
}

for (const version of FABRIC_VERSIONS) {
  describe(`package ids against the peer CLI of Fabric ${version}`, function () {
    this.timeout(180_000);
    let home: string;
    let dir: string;
    const peer = async (...args: string[]): Promise<string> =>
      (
        await runTool([path.join(home, "bin", "peer"), ...args], {
          env: { FABRIC_CFG_PATH: path.join(home, "config"), FABRIC_LOGGING_SPEC: "warning" },
        })
      ).stdout.trim();

    before(async function () {
      this.timeout(600_000);
      home = await ensureFabric(version);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-package-"));
    });
    after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("prints the package id buildCcaasPackage computes, for plain, TLS and mutual-TLS connections", async () => {
      const { cert, key } = tlsPair();
      const packages = [
        buildCcaasPackage({ label: "lc_1.0", connection: { address: "127.0.0.1:9999" } }),
        buildCcaasPackage({
          label: "lc+tls.2-a_b",
          connection: { address: "cc.org1.example.com:7052", dialTimeout: "1m30s", tlsRequired: true, rootCert: cert },
        }),
        buildCcaasPackage({
          label: "lc_mutual",
          connection: {
            address: "127.0.0.1:9999",
            tlsRequired: true,
            clientAuthRequired: true,
            rootCert: cert,
            clientCert: cert,
            clientKey: key,
          },
        }),
      ];
      for (const [i, pkg] of packages.entries()) {
        const file = path.join(dir, `ours-${String(i)}.tgz`);
        fs.writeFileSync(file, pkg.bytes);
        assert.equal(await peer("lifecycle", "chaincode", "calculatepackageid", file), pkg.packageId);
      }
    });

    it("reads a package the peer CLI made, with the label and id calculatepackageid gives", async () => {
      const source = path.join(dir, "node-src");
      fs.mkdirSync(source, { recursive: true });
      fs.writeFileSync(
        path.join(source, "package.json"),
        JSON.stringify({ name: "cc", version: "1.0.0", main: "index.js" }),
      );
      fs.writeFileSync(path.join(source, "index.js"), "module.exports = {};\n");
      const file = path.join(dir, "peer-cli.tgz");
      await peer("lifecycle", "chaincode", "package", file, "--lang", "node", "--path", source, "--label", "node_cc_1");
      const pkg = readChaincodePackage(fs.readFileSync(file));
      assert.deepEqual(
        [pkg.label, pkg.type, pkg.packageId],
        ["node_cc_1", "node", await peer("lifecycle", "chaincode", "calculatepackageid", file)],
      );
    });

    it("reads a ccaas package made with tar and gzip, as the network's deploy script makes them", async () => {
      const src = path.join(dir, "tar-src");
      const pkgDir = path.join(dir, "tar-pkg");
      fs.mkdirSync(src, { recursive: true });
      fs.mkdirSync(pkgDir, { recursive: true });
      fs.writeFileSync(
        path.join(src, "connection.json"),
        JSON.stringify({ address: "127.0.0.1:7777", dial_timeout: "10s", tls_required: false }),
      );
      fs.writeFileSync(path.join(pkgDir, "metadata.json"), JSON.stringify({ type: "ccaas", label: "tarred_1.0" }));
      await runTool(["tar", "-C", src, "-czf", path.join(pkgDir, "code.tar.gz"), "connection.json"]);
      const file = path.join(dir, "tarred.tgz");
      await runTool(["tar", "-C", pkgDir, "-czf", file, "metadata.json", "code.tar.gz"]);
      const pkg = readChaincodePackage(fs.readFileSync(file));
      assert.deepEqual(
        [pkg.label, pkg.connection?.address, pkg.packageId],
        ["tarred_1.0", "127.0.0.1:7777", await peer("lifecycle", "chaincode", "calculatepackageid", file)],
      );
    });
  });
}
