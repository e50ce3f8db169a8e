/**
 * A Pulumi project of one ledger.LedgerTransactions whose items the stack config's `items` lists, as a user would
 * write it (written by test/helpers/ledger-project.ts's writer, run with the plain `pulumi` CLI), against a
 * ComponentTarget's gateway proxy (test/helpers/ledger-component.ts); or its YAML twin through the plugin's
 * executable (test/fixtures/pulumi/ledger-batch-yaml, face "plugin"). Its outputs: `committed` (the resource's output)
 * and `planned` (each item's key and txId).
 */

/** The resource's type token in the state and in the engine's events, per face. */
export function batchType(face: Face): string {
  return typeOf(face, LEDGER_TRANSACTIONS_TYPE);
}
import * as crypto from "node:crypto";
import type { LedgerTransactionsCommitted } from "../../provider/resources/ledger/ledger-shapes";
import type { ComponentTarget } from "./ledger-component";
import { LEDGER_TRANSACTIONS_TYPE } from "../../sdk/ledger/ledger-transactions";
import { YAML, projectOf, typeOf } from "./faces";
import type { Face } from "./faces";
import { writeLedgerProject } from "./ledger-project";
import { initProjectStack } from "./project-stack";
import type { ProjectStack } from "./project-stack";

/** One item as the program declares it. */
export interface BatchItem {
  readonly key: string;
  readonly function: string;
  readonly args: readonly string[];
}

const INDEX_TS = `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const batch = new opsledger.ledger.LedgerTransactions("batch", {
  gateway: {
    address: config.require("gateway"),
    tlsRootCertPem: config.require("tlsRootCertPem"),
    serverNameOverride: config.require("serverNameOverride"),
  },
  channel: config.require("channel"),
  chaincode: config.require("chaincode"),
  identity: {
    mspId: config.require("mspId"),
    certificatePem: config.require("certificatePem"),
    privateKeyPem: config.requireSecret("privateKeyPem"),
  },
  trustedRootCertificates: config.requireObject<Record<string, string>>("trustedRootCertificates"),
  transactions: config.requireObject<{ key: string; function: string; args: string[] }[]>("items"),
  ordered: config.getBoolean("ordered") ?? false,
  timeouts: { create: "2m", update: "2m" },
});

export const committed = batch.committed;
export const planned = batch.transactions.apply((items) => items.map((i) => ({ key: i.key, txId: i.txId })));
`;

/** A stack of the project against `t`'s proxy, with `items` (`setItems` changes them). */
export interface BatchStack {
  readonly stack: ProjectStack;
  setItems(items: readonly BatchItem[]): Promise<void>;
  dispose(): Promise<void>;
}

export async function batchStack(
  t: ComponentTarget,
  items: readonly BatchItem[],
  options: { ordered?: boolean; face?: Face } = {},
): Promise<BatchStack> {
  const project =
    options.face === YAML
      ? { dir: await projectOf(YAML, "batch"), remove: () => undefined }
      : writeLedgerProject(INDEX_TS);
  try {
    const stack = await initProjectStack({
      projectDir: project.dir,
      // A stack name used before on a long-lived network would find that run's transactions (the txIds derive from the URN).
      stackName: `b${crypto.randomBytes(5).toString("hex")}`,
      config: {
        gateway: { value: t.proxy.address },
        tlsRootCertPem: { value: t.proxyTls.rootCertPem },
        serverNameOverride: { value: t.proxyTls.serverName },
        channel: { value: t.ledger.channel },
        chaincode: { value: t.ledger.chaincode },
        mspId: { value: t.identity.mspId },
        certificatePem: { value: t.identity.certificatePem },
        privateKeyPem: { value: t.identity.privateKeyPem, secret: true },
        trustedRootCertificates: { value: JSON.stringify(t.ledger.caCertificates) },
        items: { value: JSON.stringify(items) },
        ...(options.ordered === undefined ? {} : { ordered: { value: String(options.ordered) } }),
      },
    });
    return {
      stack,
      setItems: async (next) => {
        await stack.setConfig({ items: { value: JSON.stringify(next) } });
      },
      dispose: async () => {
        try {
          await stack.dispose();
        } finally {
          project.remove();
        }
      },
    };
  } catch (error) {
    project.remove();
    throw error;
  }
}

/** The `committed` output: the committed items (their shape is the provider's, ledger-shapes.ts). */
export function committedOf(outputs: Record<string, unknown>): LedgerTransactionsCommitted[] {
  const list = outputs["committed"];
  if (!Array.isArray(list)) throw new Error(`no committed output: ${JSON.stringify(outputs)}`);
  return list as LedgerTransactionsCommitted[];
}
