/**
 * A generated Pulumi project of N ledger.LedgerTransactions (the ones the stack config's `transactions` lists), as a
 * user would write it: Pulumi.yaml, package.json, tsconfig.json and index.ts in a temp dir, run with the plain
 * `pulumi` CLI (test/helpers/project-stack.ts). Its node_modules is a link to the repository's, where
 * `pulumi-opsledger` is this checkout. Every transaction shares the gateway, identity and trust roots of the config.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/lib/pulumi-cli";
import type { ConfigValues } from "../../scripts/lib/pulumi-cli";

/** One transaction of the program: its resource name, chaincode function and arguments. */
export interface ProjectTransaction {
  readonly name: string;
  readonly function: string;
  readonly args: readonly string[];
}

const INDEX_TS = `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

interface Declared { name: string; function: string; args: string[] }

const config = new pulumi.Config();
const declared = config.requireObject<Declared[]>("transactions");
const shared = {
  gateway: { address: config.require("gateway"), tlsRootCertPem: config.require("tlsRootCertPem") },
  channel: config.require("channel"),
  chaincode: config.require("chaincode"),
  identity: {
    mspId: config.require("mspId"),
    certificatePem: config.require("certificatePem"),
    privateKeyPem: config.requireSecret("privateKeyPem"),
  },
  trustedRootCertificates: config.requireObject<Record<string, string>>("trustedRootCertificates"),
  timeouts: { create: config.get("createTimeout") ?? "2m", delete: "2m" },
};

export const transactions = declared.map((d) => {
  const tx = new opsledger.ledger.LedgerTransaction(d.name, { ...shared, function: d.function, args: d.args });
  return pulumi
    .all([tx.txId, tx.validationCode, tx.blockNumber])
    .apply(([txId, validationCode, blockNumber]) => ({ name: d.name, txId, validationCode, blockNumber }));
});
`;

/** Writes the project (its program `indexTs`, default the one above) into a new temp dir; `remove()` deletes it. */
export function writeLedgerProject(indexTs: string = INDEX_TS): { dir: string; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-ledger-project-"));
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: ledger-transactions\nruntime: nodejs\n");
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "ledger-transactions", private: true, main: "index.ts" }, null, 2),
  );
  fs.copyFileSync(path.join(REPO_ROOT, "examples", "ledger", "tsconfig.json"), path.join(dir, "tsconfig.json"));
  fs.writeFileSync(path.join(dir, "index.ts"), indexTs);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  return {
    dir,
    remove: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface LedgerProjectSettings {
  readonly gateway: { readonly address: string; readonly tlsRootCertPem: string };
  readonly channel: string;
  readonly chaincode: string;
  readonly identity: { readonly mspId: string; readonly certificatePem: string; readonly privateKeyPem: string };
  readonly trustedRootCertificates: Readonly<Record<string, string>>;
  readonly transactions: readonly ProjectTransaction[];
  /** The component's create timeout. @default "2m" */
  readonly createTimeout?: string;
}

/** The stack config of the generated project. */
export function ledgerProjectConfig(s: LedgerProjectSettings): ConfigValues {
  return {
    gateway: { value: s.gateway.address },
    tlsRootCertPem: { value: s.gateway.tlsRootCertPem },
    channel: { value: s.channel },
    chaincode: { value: s.chaincode },
    mspId: { value: s.identity.mspId },
    certificatePem: { value: s.identity.certificatePem },
    privateKeyPem: { value: s.identity.privateKeyPem, secret: true },
    trustedRootCertificates: { value: JSON.stringify(s.trustedRootCertificates) },
    transactions: { value: JSON.stringify(s.transactions) },
    ...(s.createTimeout === undefined ? {} : { createTimeout: { value: s.createTimeout } }),
  };
}

/** The `transactions` stack output: one entry per declared transaction. */
export interface CommittedTransaction {
  readonly name: string;
  readonly txId: string;
  readonly validationCode: string;
  readonly blockNumber: string;
}

export function committedTransactions(outputs: Record<string, unknown>): CommittedTransaction[] {
  const list = outputs["transactions"];
  if (!Array.isArray(list)) throw new Error(`no transactions output: ${JSON.stringify(outputs)}`);
  return list as CommittedTransaction[];
}
