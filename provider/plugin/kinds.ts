/**
 * The plugin's dispatch table: each type token to the per-resource module the TypeScript SDK's dynamic resources use
 * (provider/resources), and each function token to the data-source logic the SDK's functions use. Nothing here is
 * resource logic: only which module serves a token, under which input key it expects its URN, and which of its
 * steps take a deadline in `timeouts`.
 */
import { adoptFirewallPolicyMove, firewallPolicyMoveProvider } from "../resources/firewall-policy-move";
import { inventorySourceGroupDeletionProvider } from "../resources/inventory-source-group-deletion";
import { ledgerTransactionProvider } from "../resources/ledger-transaction";
import { ledgerTransactionsProvider } from "../resources/ledger-transactions";
import { adoptOperationWait, operationWaitProvider } from "../resources/operation-wait";
import {
  readCreative,
  readDeployment,
  readIamOperation,
  readSubscription,
  readWorkforcePoolIamPolicy,
} from "../functions/google-reads";
import type { EndpointCaller } from "../functions/google-reads";
import { evaluateLedger, readLedgerChainInfo, readLedgerTransaction } from "../functions/ledger-reads";

/** The per-resource module's methods, as the dynamic provider contract shapes them. */
export interface ResourceModule {
  check(olds: unknown, news: unknown): Promise<{ inputs?: unknown; failures?: { property: string; reason: string }[] }>;
  diff(
    id: string,
    olds: unknown,
    news: unknown,
  ): Promise<{ changes?: boolean; replaces?: string[]; deleteBeforeReplace?: boolean }>;
  create(inputs: unknown): Promise<{ id: string; outs?: unknown }>;
  update?(id: string, olds: unknown, news: unknown): Promise<{ outs?: unknown }>;
  read?(id: string, props: unknown): Promise<{ id?: string; props?: unknown; inputs?: unknown }>;
  delete?(id: string, props: unknown): Promise<void>;
}

export type Step = "create" | "update" | "delete";

/** An import's answer: the id, outputs and inputs of the adopted object (an empty id: not found). */
export interface Adopted {
  id: string;
  props?: unknown;
  inputs?: unknown;
}

/** The message refusing an import of a resource type that cannot be imported, saying why and what to do. */
export function importRefusal(type: string, why: string, instead: string): () => Promise<Adopted> {
  return () => Promise.reject(new Error(`${type} cannot be imported: ${why}. ${instead}`));
}

/** How the plugin serves one resource type. */
export interface ResourceKind {
  readonly module: ResourceModule;
  /**
   * The input key under which the module expects the resource's URN (set by the SDK on the dynamic face): every
   * module's plumbing is under `__` keys (decision 0007; `resourceUrn` is only read from 0.1 state).
   */
  readonly urnKey: "__urn";
  /**
   * Outputs no input carries that must be Pulumi secrets: what the SDK marks with `additionalSecretOutputs` on the
   * dynamic face. The plugin claims acceptSecrets, so the engine does not mark them: the adapter does.
   */
  readonly secretOutputs?: readonly string[];
  /** The steps whose deadline the module reads from the `timeouts` input (where a `customTimeouts` value goes). */
  readonly timeoutSteps: readonly Step[];
  /**
   * Import (`pulumi import`, the `import` option): Read with no state. Adopts the object `id` names, or refuses with
   * a message saying why this type cannot be imported and what to declare instead.
   */
  readonly adopt: (id: string, urn: string) => Promise<Adopted>;
}

/** Type token → resource. Frozen once released: state names them. */
export const RESOURCES: Readonly<Record<string, ResourceKind>> = {
  "opsledger:compute:FirewallPolicyMove": {
    module: firewallPolicyMoveProvider,
    urnKey: "__urn",
    timeoutSteps: ["create", "update", "delete"],
    adopt: adoptFirewallPolicyMove,
  },
  "opsledger:displayvideo:InventorySourceGroupDeletion": {
    module: inventorySourceGroupDeletionProvider,
    urnKey: "__urn",
    timeoutSteps: [],
    adopt: importRefusal(
      "opsledger:displayvideo:InventorySourceGroupDeletion",
      "the resource is the deletion of a group, not the group; an existing group has no deletion to adopt, and a group already gone needs none",
      "Declare it without import: its create deletes the group, and records a group already gone (404) as alreadyAbsent without an error",
    ),
  },
  "opsledger:operations:OperationWait": {
    module: operationWaitProvider,
    urnKey: "__urn",
    timeoutSteps: ["create"],
    adopt: adoptOperationWait,
  },
  "opsledger:ledger:LedgerTransaction": {
    module: ledgerTransactionProvider,
    urnKey: "__urn",
    timeoutSteps: ["create", "delete"],
    // A privateKeyPem or PIN value and the mutual TLS client key, which read and delete sign with
    // (sdk/ledger/ledger-transaction-submission.ts marks the same output).
    secretOutputs: ["credentials"],
    adopt: importRefusal(
      "opsledger:ledger:LedgerTransaction",
      "its inputs (the signing identity, a secret, and the transient data) cannot be read back from the ledger, and its exactly-once txId is derived from the resource's URN, so a transaction another program committed cannot be adopted",
      "Declare it without import: a transaction this resource already committed under its txId is found on the ledger and adopted, not submitted again",
    ),
  },
  "opsledger:ledger:LedgerTransactions": {
    module: ledgerTransactionsProvider,
    urnKey: "__urn",
    timeoutSteps: ["create", "update"],
    // sdk/ledger/ledger-transactions.ts marks the same output.
    secretOutputs: ["credentials"],
    adopt: importRefusal(
      "opsledger:ledger:LedgerTransactions",
      "its items' exactly-once txIds are derived from the resource's URN, and its signing identity cannot be read back from the ledger",
      "Declare it without import: every item this resource already committed under its txId is found on the ledger and adopted, not submitted again",
    ),
  },
};

/** Function token → the data source's logic, given the endpoint caller of the plugin's provider. */
export const FUNCTIONS: Readonly<
  Record<string, (call: EndpointCaller, args: Record<string, unknown>) => Promise<unknown>>
> = {
  "opsledger:iam:getWorkforcePoolIamPolicy": (call, a) =>
    readWorkforcePoolIamPolicy(call, a as Parameters<typeof readWorkforcePoolIamPolicy>[1]),
  "opsledger:iam:getOperation": (call, a) => readIamOperation(call, a as Parameters<typeof readIamOperation>[1]),
  "opsledger:deploymentmanager:getDeployment": (call, a) =>
    readDeployment(call, a as Parameters<typeof readDeployment>[1]),
  "opsledger:workspaceevents:getSubscription": (call, a) =>
    readSubscription(call, a as Parameters<typeof readSubscription>[1]),
  "opsledger:displayvideo:getCreative": (call, a) => readCreative(call, a as Parameters<typeof readCreative>[1]),
  // The ledger reads talk to a Fabric gateway, not to Google: the caller is unused (a KMS signer uses the plugin's
  // provider client through the resources' context, as the LedgerTransaction does).
  "opsledger:ledger:getTransaction": (_call, a) =>
    readLedgerTransaction(a as unknown as Parameters<typeof readLedgerTransaction>[0]),
  "opsledger:ledger:evaluate": (_call, a) => evaluateLedger(a as unknown as Parameters<typeof evaluateLedger>[0]),
  "opsledger:ledger:getChainInfo": (_call, a) =>
    readLedgerChainInfo(a as unknown as Parameters<typeof readLedgerChainInfo>[0]),
};
