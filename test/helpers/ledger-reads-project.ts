/**
 * A generated Pulumi project that reads the ledger and changes nothing, as a user would write it: ledger.getTransaction
 * of the txId in the stack config (the Output form), ledger.evaluate (Output form) and ledger.getChainInfo (the
 * Promise form), each signing with the identity of the config through a key file, and their fields as stack outputs.
 * Written into a temp dir like test/helpers/ledger-project.ts (node_modules linked to the repository's). Its YAML twin
 * (writeLedgerReadsYamlProject) reads the same through the plugin, with `fn::invoke`, and exports what each read
 * answered whole.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/lib/pulumi-cli";
import type { ConfigValues } from "../../scripts/lib/pulumi-cli";

const INDEX_TS = `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const read = {
  gateway: {
    address: config.require("gateway"),
    tlsRootCertPem: config.require("tlsRootCertPem"),
    serverNameOverride: config.require("serverNameOverride"),
    ...(config.get("clientCertPem") === undefined
      ? {}
      : { clientCertPem: config.require("clientCertPem"), clientKeyFile: "client-tls-key.pem" }),
  },
  channel: config.require("channel"),
  identity: { mspId: config.require("mspId"), certificatePem: config.require("certificatePem"), keyFile: "reader-key.pem" },
  trustedRootCertificates: config.requireObject<Record<string, string>>("trustedRootCertificates"),
};

const tx = opsledger.ledger.getTransactionOutput({ ...read, txId: config.require("txId") });
export const transaction = tx.apply((t) => ({
  validationCode: t.validationCode,
  validationCodeNumber: t.validationCodeNumber,
  blockNumber: t.blockNumber,
  creator: t.creator?.mspId,
  chaincode: t.chaincode?.name,
  function: t.function,
  args: (t.args ?? []).map((a) => a.text ?? a.base64),
  writes: (t.readWriteSet ?? []).flatMap((n) => n.writes.map((w) => n.namespace + ":" + w.key + "=" + (w.value.text ?? ""))),
  endorsers: t.endorsers.map((e) => e.mspId),
  verified: t.verification.ok,
}));
export const query = opsledger.ledger.evaluateOutput({
  ...read,
  chaincode: config.require("queryChaincode"),
  function: config.require("queryFunction"),
  args: config.requireObject<string[]>("queryArgs"),
});
export const chainInfo = opsledger.ledger.getChainInfo(read);
`;

/**
 * The same reads in YAML through pulumi-resource-opsledger in `pluginDir`: each `fn::invoke`'s whole answer is a stack output
 * (YAML has no map over a list, so the test picks the fields). The identity signs through reader-key.pem.
 */
function yamlProgram(clientTls: boolean, pluginDir: string): string {
  const gateway = [
    "address: ${gateway}",
    "tlsRootCertPem: ${tlsRootCertPem}",
    "serverNameOverride: ${serverNameOverride}",
    ...(clientTls ? ["clientCertPem: ${clientCertPem}", "clientKeyFile: client-tls-key.pem"] : []),
  ];
  const read = [
    "gateway:",
    ...gateway.map((l) => `  ${l}`),
    "channel: ${channel}",
    "identity:",
    "  mspId: ${mspId}",
    "  certificatePem: ${certificatePem}",
    "  keyFile: reader-key.pem",
    "trustedRootCertificates: ${trustedRootCertificates}",
  ];
  const invoke = (name: string, fn: string, extra: readonly string[]): string[] => [
    `  ${name}:`,
    "    fn::invoke:",
    `      function: opsledger:ledger:${fn}`,
    "      arguments:",
    ...[...read, ...extra].map((l) => `        ${l}`),
    "      options:",
    `        version: ${PACKAGE_VERSION}`,
  ];
  return [
    "name: ledger-reads-yaml",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: opsledger",
    `      path: ${JSON.stringify(pluginDir)}`,
    "variables:",
    ...invoke("transaction", "getTransaction", ["txId: ${txId}"]),
    ...invoke("query", "evaluate", [
      "chaincode: ${queryChaincode}",
      "function: ${queryFunction}",
      "args: ${queryArgs}",
    ]),
    ...invoke("chainInfo", "getChainInfo", []),
    "outputs:",
    "  transaction: ${transaction}",
    "  query: ${query}",
    "  chainInfo: ${chainInfo}",
    "",
  ].join("\n");
}

/** The package's version, which the YAML program's invokes name (one version: one default provider). */
const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;

/** What the project reads, and as whom. */
export interface LedgerReadsSettings {
  readonly gateway: { readonly address: string; readonly tlsRootCertPem: string; readonly serverNameOverride: string };
  readonly channel: string;
  readonly identity: { readonly mspId: string; readonly certificatePem: string; readonly privateKeyPem: string };
  readonly trustedRootCertificates: Readonly<Record<string, string>>;
  readonly txId: string;
  readonly query: { readonly chaincode: string; readonly function: string; readonly args: readonly string[] };
  /** Mutual TLS: the client TLS certificate (config) and its key, written as client-tls-key.pem (a relative keyFile). */
  readonly clientTls?: { readonly certificatePem: string; readonly privateKeyPem: string };
}

/**
 * Writes the project (and the identity's key as reader-key.pem beside it) into a new temp dir: the TypeScript program,
 * or with `yaml` its twin through the plugin.
 */
export function writeLedgerReadsProject(
  s: LedgerReadsSettings,
  options: { readonly yaml?: boolean; readonly pluginDir?: string } = {},
): { dir: string; config: ConfigValues; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-ledger-reads-"));
  if (options.yaml === true) {
    const plugin = options.pluginDir ?? path.join(REPO_ROOT, "bin");
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(s.clientTls !== undefined, plugin));
  } else {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: ledger-reads\nruntime: nodejs\n");
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "ledger-reads", private: true, main: "index.ts" }, null, 2),
    );
    fs.copyFileSync(path.join(REPO_ROOT, "examples", "ledger", "tsconfig.json"), path.join(dir, "tsconfig.json"));
    fs.writeFileSync(path.join(dir, "index.ts"), INDEX_TS);
  }
  fs.writeFileSync(path.join(dir, "reader-key.pem"), s.identity.privateKeyPem, { mode: 0o600 });
  if (s.clientTls !== undefined) {
    fs.writeFileSync(path.join(dir, "client-tls-key.pem"), s.clientTls.privateKeyPem, { mode: 0o600 });
  }
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  const config: ConfigValues = {
    gateway: { value: s.gateway.address },
    tlsRootCertPem: { value: s.gateway.tlsRootCertPem },
    serverNameOverride: { value: s.gateway.serverNameOverride },
    channel: { value: s.channel },
    mspId: { value: s.identity.mspId },
    certificatePem: { value: s.identity.certificatePem },
    trustedRootCertificates: { value: JSON.stringify(s.trustedRootCertificates) },
    txId: { value: s.txId },
    queryChaincode: { value: s.query.chaincode },
    queryFunction: { value: s.query.function },
    queryArgs: { value: JSON.stringify(s.query.args) },
    ...(s.clientTls === undefined ? {} : { clientCertPem: { value: s.clientTls.certificatePem } }),
  };
  return {
    dir,
    config,
    remove: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
