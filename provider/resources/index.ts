/**
 * Entry point loaded inside the dynamic-provider process by the serialized stubs (sdk/provider-stubs.ts).
 * Keep the names stable: state written by earlier versions calls them.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configureProvider } from "./context";
import { firewallPolicyMoveProvider } from "./firewall-policy-move";
import { inventorySourceGroupDeletionProvider } from "./inventory-source-group-deletion";
import { operationWaitProvider } from "./operation-wait";

export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  configureProvider(req);
  return Promise.resolve();
}

export const providers = {
  firewallPolicyMove: firewallPolicyMoveProvider,
  inventorySourceGroupDeletion: inventorySourceGroupDeletionProvider,
  operationWait: operationWaitProvider,
} as const;

export type ProviderKind = keyof typeof providers;

/**
 * The single entry the serialized stubs call: `dispatch(kind, method, args)`. `configure` applies to every kind.
 * An unknown kind or method (state written by a newer version) is a clear error rather than a crash.
 */
export function dispatch(kind: string, method: string, args: unknown[]): Promise<unknown> {
  if (method === "configure") return configure(args[0] as dynamic.ConfigureRequest);
  const provider = (providers as Record<string, Record<string, unknown> | undefined>)[kind];
  const fn = provider?.[method];
  if (typeof fn !== "function") {
    return Promise.reject(new Error(`pulumi-opsledger: the installed version has no ${kind}.${method}; upgrade the package that wrote this state`));
  }
  return (fn as (...a: unknown[]) => Promise<unknown>).apply(provider, args);
}
