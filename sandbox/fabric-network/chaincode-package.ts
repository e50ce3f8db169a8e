/**
 * The `assets` chaincode as a service: one chaincode server per organization (the contract in ./chaincode, run by
 * fabric-shim's `fabric-chaincode-node server`), and for each organization a ccaas package
 * (https://github.com/hyperledger/fabric/blob/main/docs/source/cc_service.md of Fabric; the ccaas builder's
 * detect/build/release in the release's builders/ccaas) whose connection.json points its peer at its own server over
 * mutual TLS: the server's certificate comes from the organization's TLS CA and the peer presents its TLS certificate
 * (connection.json carries it and its key, as Fabric's ccaas design requires: this is test material that lives only in
 * the network's folder). Different connection.json files make different packages, so each organization installs and
 * approves its own package id for the same definition.
 */
import { mkdirSync, writeFileSync, readFileSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { runTool } from "./processes";
import { chaincodeServerName, type NetworkLayout, type NodeTls, type PeerOrgSpec } from "./topology";
import { FABRIC_NETWORK_CHAINCODE, FABRIC_NETWORK_CHAINCODE_VERSION, type FabricProcessRecord } from "./types";

export const CHAINCODE_LABEL = `${FABRIC_NETWORK_CHAINCODE}_${FABRIC_NETWORK_CHAINCODE_VERSION}`;

/** The compiled contract module (dist/sandbox/fabric-network/chaincode/index.js). */
export function contractModule(): string {
  const main = join(__dirname, "chaincode", "index.js");
  if (!existsSync(main)) throw new Error(`${main} is missing: build the project first (npm run build)`);
  return main;
}

/** fabric-shim's CLI (`fabric-chaincode-node`). */
export function chaincodeCli(): string {
  return join(dirname(require.resolve("fabric-shim/package.json")), "cli.js");
}

export interface ChaincodePackage {
  readonly file: string;
  /** The module folder `fabric-chaincode-node server --module-path` loads (its package.json names the contract). */
  readonly moduleDir: string;
}

/** Writes the organization's ccaas package and the chaincode server's module folder. */
export async function writeChaincodePackage(
  layout: NetworkLayout,
  org: PeerOrgSpec,
  serverPort: number,
  peerTls: NodeTls,
  orgTlsCa: string,
): Promise<ChaincodePackage> {
  const dir = layout.chaincode(org);
  const src = join(dir, "src");
  const pkg = join(dir, "package");
  mkdirSync(src, { recursive: true });
  mkdirSync(pkg, { recursive: true });
  const connection = {
    address: `127.0.0.1:${serverPort}`,
    dial_timeout: "10s",
    tls_required: true,
    client_auth_required: true,
    client_key: readFileSync(peerTls.key, "utf8"),
    client_cert: readFileSync(peerTls.cert, "utf8"),
    root_cert: readFileSync(orgTlsCa, "utf8"),
  };
  writeFileSync(join(src, "connection.json"), JSON.stringify(connection, null, 2), { mode: 0o600 });
  writeFileSync(join(pkg, "metadata.json"), JSON.stringify({ type: "ccaas", label: CHAINCODE_LABEL }));
  await runTool(["tar", "-C", src, "-czf", join(pkg, "code.tar.gz"), "connection.json"]);
  const file = join(dir, `${CHAINCODE_LABEL}.tgz`);
  await runTool(["tar", "-C", pkg, "-czf", file, "metadata.json", "code.tar.gz"]);

  const moduleDir = join(dir, "module");
  mkdirSync(moduleDir, { recursive: true });
  writeFileSync(
    join(moduleDir, "package.json"),
    JSON.stringify(
      { name: FABRIC_NETWORK_CHAINCODE, version: FABRIC_NETWORK_CHAINCODE_VERSION, main: resolve(contractModule()) },
      null,
      2,
    ),
  );
  return { file, moduleDir };
}

/** The chaincode server's command line (TLS with client authentication against the organization's TLS CA). */
export function chaincodeServerCommand(
  packageId: string,
  port: number,
  moduleDir: string,
  tls: NodeTls,
  clientCa: string,
): string[] {
  return [
    process.execPath,
    chaincodeCli(),
    "server",
    "--chaincode-address",
    `127.0.0.1:${port}`,
    "--chaincode-id",
    packageId,
    "--module-path",
    moduleDir,
    "--chaincode-tls-cert-file",
    tls.cert,
    "--chaincode-tls-key-file",
    tls.key,
    "--chaincode-tls-client-cacert-file",
    clientCa,
  ];
}

/** The process record of an organization's chaincode server serving `packageId` on `port` (not started). */
export function chaincodeServerProcess(
  layout: NetworkLayout,
  org: PeerOrgSpec,
  packageId: string,
  port: number,
  moduleDir: string,
): FabricProcessRecord {
  const name = chaincodeServerName(org);
  return {
    name,
    role: "chaincode",
    mspId: org.mspId,
    pid: null,
    ports: { listen: port },
    log: layout.log(name),
    command: chaincodeServerCommand(packageId, port, moduleDir, layout.chaincodeTls(org), layout.orgTlsCa(org)),
    cwd: moduleDir,
    env: {},
  };
}
