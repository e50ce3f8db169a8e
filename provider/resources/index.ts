/**
 * Entry point loaded inside the dynamic-provider process by the serialized stubs (sdk/provider-stubs.ts).
 * Keep the names stable: state written by earlier versions calls them.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configureProvider, flushLogs } from "./context";
import { firewallPolicyMoveProvider } from "./firewall-policy-move";
import { inventorySourceGroupDeletionProvider } from "./inventory-source-group-deletion";
import type { ledgerTransactionProvider } from "./ledger-transaction";
import type { ledgerTransactionsProvider } from "./ledger-transactions";
import { operationWaitProvider } from "./operation-wait";
import { exitWhenOutputIsGone } from "./orphan-guard";
import { runWithSettings, settingsOf } from "./resource-settings";

export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  configureProvider(req);
  return Promise.resolve();
}

/**
 * The ledger's provider loads gRPC, the Fabric protos, X.509 and the signers: about a third of what a provider process
 * loads besides `@pulumi/pulumi`. A process serves one stack's resources, so only one that meets a ledger resource
 * loads it (on its first call); the Google resources' processes never do.
 */
let ledger: typeof ledgerTransactionProvider | undefined;
function ledgerTransaction(): typeof ledgerTransactionProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above); CommonJS build
  ledger ??= (require("./ledger-transaction") as typeof import("./ledger-transaction")).ledgerTransactionProvider;
  return ledger;
}

let ledgerBatch: typeof ledgerTransactionsProvider | undefined;
function ledgerTransactions(): typeof ledgerTransactionsProvider {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above); CommonJS build
  ledgerBatch ??= (require("./ledger-transactions") as typeof import("./ledger-transactions"))
    .ledgerTransactionsProvider;
  return ledgerBatch;
}

export const providers = {
  firewallPolicyMove: firewallPolicyMoveProvider,
  inventorySourceGroupDeletion: inventorySourceGroupDeletionProvider,
  get ledgerTransaction(): typeof ledgerTransactionProvider {
    return ledgerTransaction();
  },
  get ledgerTransactions(): typeof ledgerTransactionsProvider {
    return ledgerTransactions();
  },
  operationWait: operationWaitProvider,
};

export type ProviderKind = keyof typeof providers;

/** Type token (after `pulumi-nodejs:dynamic/`) to provider. Frozen once released: state names them. */
const KINDS: Readonly<Record<string, ProviderKind>> = {
  "compute:FirewallPolicyMove": "firewallPolicyMove",
  "displayvideo:InventorySourceGroupDeletion": "inventorySourceGroupDeletion",
  "ledger:LedgerTransactionSubmission": "ledgerTransaction",
  "ledger:LedgerTransactions": "ledgerTransactions",
  "operations:OperationWait": "operationWait",
};

/**
 * The provider of a call, from the type token in the `__urn` input that every resource carries (`resourceUrn` in
 * state written before the plumbing was hidden from previews).
 */
function kindOf(args: readonly unknown[]): string {
  for (const arg of args) {
    const inputs = arg as { __urn?: unknown; resourceUrn?: unknown } | null;
    const urn = inputs?.__urn ?? inputs?.resourceUrn;
    if (typeof urn === "string") {
      // A child's type is qualified by its parents' types: `...::opsledger:ledger:LedgerTransactionComponent$pulumi-nodejs:dynamic/...`.
      const type = /(?:::|\$)pulumi-nodejs:dynamic\/([^:$]+:[^:$]+)::/.exec(urn)?.[1] ?? "";
      return KINDS[type] ?? type;
    }
  }
  return "(no __urn input)";
}

/** Which argument of each method holds the properties whose `__settings` apply (diff calls no API). */
const SETTINGS_ARG: Readonly<Record<string, number>> = { check: 1, create: 0, read: 1, update: 2, delete: 1 };

/**
 * The single entry the serialized stubs call: `dispatch(method, args)`. `configure` applies to every kind.
 * An unknown kind or method (state written by a newer version) is a clear error rather than a crash.
 */
export function dispatch(method: string, args: unknown[]): Promise<unknown> {
  exitWhenOutputIsGone(); // only this entry runs inside the dynamic-provider process
  if (method === "configure") return configure(args[0] as dynamic.ConfigureRequest);
  const kind = kindOf(args);
  const provider = (providers as Record<string, Record<string, unknown> | undefined>)[kind];
  const fn = provider?.[method];
  if (typeof fn !== "function") {
    return Promise.reject(
      new Error(
        `pulumi-opsledger: the installed version has no provider ${kind}.${method}; upgrade the package that wrote this state`,
      ),
    );
  }
  // A resource given an opsledger.Provider runs with its settings: the new inputs' on create and update, the
  // state's on read and delete (resource-settings.ts). Every message the call reported reaches the engine before
  // its answer does (flushLogs).
  const settings = settingsOf(args[SETTINGS_ARG[method] ?? -1]);
  return Promise.resolve()
    .then(() => runWithSettings(settings, () => (fn as (...a: unknown[]) => Promise<unknown>).apply(provider, args)))
    .then(
      async (value) => {
        await flushLogs();
        return value;
      },
      async (e: unknown) => {
        await flushLogs();
        throw plainError(e, args[method === "update" ? 2 : 0]);
      },
    );
}

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

function via(method: Method): (...args: unknown[]) => Promise<never> {
  return (...args) => dispatch(method, args) as Promise<never>;
}

/**
 * The provider object the one-line `__provider` module returns (sdk/provider-stubs.ts): every method goes through
 * `dispatch`. The dynamic-provider host evaluates that module once per process and keeps this object.
 */
export const provider: dynamic.ResourceProvider = {
  configure: via("configure"),
  check: via("check"),
  diff: via("diff"),
  create: via("create"),
  read: via("read"),
  update: via("update"),
  delete: via("delete"),
};

/**
 * The dynamic-provider host hands errors of read and delete straight to grpc-js as a call status, where fields such as
 * `code`, `details` and `metadata` have grpc meanings (a `metadata` without .clone() crashes the host). So the host
 * only ever sees a plain Error carrying the message, which already names the resource, the cause and the fix.
 *
 * A create or update that made part of its effect (ledger-transactions.ts) throws an error with the resource's `id`
 * and the `properties` to record: the host sends those as ErrorResourceInitFailed, and the engine keeps them in the
 * state with the error. The host passes them as they are, so the `__provider` it adds to every other answer's outputs
 * (refresh and delete need it) is added here from the call's inputs.
 */
function plainError(e: unknown, inputs: unknown): Error {
  const plain = new Error(e instanceof Error ? e.message : String(e));
  const partial = e as { id?: unknown; properties?: unknown; reasons?: unknown } | null;
  if (typeof partial?.id !== "string" || partial.id === "" || typeof partial.properties !== "object") return plain;
  const provider = (inputs as Record<string, unknown> | null)?.["__provider"];
  return Object.assign(plain, {
    id: partial.id,
    properties: { ...(partial.properties as object), ...(provider === undefined ? {} : { __provider: provider }) },
    reasons: Array.isArray(partial.reasons) ? partial.reasons : [],
  });
}
