/**
 * The plugin's dispatch table: each type token to the per-resource module the TypeScript SDK's dynamic resources use
 * (provider/resources), and each function token to the data-source logic the SDK's functions use. Nothing here is
 * resource logic: only which module serves a token, under which input key it expects its URN, and which of its
 * steps take a deadline in `timeouts`.
 */
import { firewallPolicyMoveProvider } from "../resources/firewall-policy-move";
import { inventorySourceGroupDeletionProvider } from "../resources/inventory-source-group-deletion";
import { ledgerTransactionProvider } from "../resources/ledger-transaction";
import { operationWaitProvider } from "../resources/operation-wait";
import {
  readCreative,
  readDeployment,
  readIamOperation,
  readSubscription,
  readWorkforcePoolIamPolicy,
} from "../resources/data-sources";
import type { EndpointCaller } from "../resources/data-sources";

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

/** How the plugin serves one resource type. */
export interface ResourceKind {
  readonly module: ResourceModule;
  /** The input key under which the module expects the resource's URN (set by the SDK on the dynamic face). */
  readonly urnKey: "__urn" | "resourceUrn";
  /** The steps whose deadline the module reads from the `timeouts` input (where a `customTimeouts` value goes). */
  readonly timeoutSteps: readonly Step[];
}

/** Type token → resource. Frozen once released: state names them. */
export const RESOURCES: Readonly<Record<string, ResourceKind>> = {
  "opsledger:compute:FirewallPolicyMove": {
    module: firewallPolicyMoveProvider,
    urnKey: "__urn",
    timeoutSteps: ["create", "update", "delete"],
  },
  "opsledger:displayvideo:InventorySourceGroupDeletion": {
    module: inventorySourceGroupDeletionProvider,
    urnKey: "__urn",
    timeoutSteps: [],
  },
  "opsledger:operations:OperationWait": {
    module: operationWaitProvider,
    urnKey: "__urn",
    timeoutSteps: ["create"],
  },
  "opsledger:ledger:LedgerTransaction": {
    module: ledgerTransactionProvider,
    urnKey: "resourceUrn",
    timeoutSteps: ["create", "delete"],
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
};
