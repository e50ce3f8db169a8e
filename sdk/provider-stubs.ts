/**
 * The provider objects handed to `pulumi.dynamic.Resource`. Pulumi serializes them into state as closures, so they
 * are deliberately tiny: each method `require()`s this package by its name inside the provider process and delegates.
 * The state therefore holds a short stub (no copy of our code, no credentials), and the stub keeps working when the
 * package is installed from a tarball into another project's node_modules.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The module the stubs load, reachable through the package's `exports` map ("./dist/*"). */
export const PROVIDER_ENTRY = "pulumi-opsledger/dist/provider/resources/index.js";

export type ProviderKind = "firewallPolicyMove" | "inventorySourceGroupDeletion" | "operationWait" | "ledgerTransaction";

const stubs = new Map<ProviderKind, pulumi.dynamic.ResourceProvider>();

/** One stub object per kind, so Pulumi's per-object serialization cache applies across resources. */
export function providerStub(kind: ProviderKind): pulumi.dynamic.ResourceProvider {
  let stub = stubs.get(kind);
  if (!stub) {
    stub = makeStub(kind, PROVIDER_ENTRY);
    stubs.set(kind, stub);
  }
  return stub;
}

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-explicit-any --
   The bodies below run in the provider process after serialization; they may capture only `kind` and `entry`.
   Every method goes through one dispatcher so the serialized text stays short. */
function makeStub(kind: ProviderKind, entry: string): pulumi.dynamic.ResourceProvider {
  const d = (m: string, a: unknown[]): any => require(entry).dispatch(kind, m, a);
  return {
    configure: (...a: unknown[]) => d("configure", a),
    check: (...a: unknown[]) => d("check", a),
    diff: (...a: unknown[]) => d("diff", a),
    create: (...a: unknown[]) => d("create", a),
    read: (...a: unknown[]) => d("read", a),
    update: (...a: unknown[]) => d("update", a),
    delete: (...a: unknown[]) => d("delete", a),
  } as pulumi.dynamic.ResourceProvider<any, any>;
}
/* eslint-enable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call, @typescript-eslint/no-explicit-any */
