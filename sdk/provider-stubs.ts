/**
 * The provider objects handed to `pulumi.dynamic.Resource`. Pulumi serializes them into state as closures, so they
 * are deliberately tiny: each method `require()`s this package by its name inside the provider process and delegates.
 * The state therefore holds a short stub (no copy of our code, no credentials), and the stub keeps working when the
 * package is installed from a tarball into another project's node_modules.
 */
import type * as pulumi from "@pulumi/pulumi";

/** The module the stubs load: the `./provider` entry of the package's `exports` map (dist/provider/resources/index.js). */
export const PROVIDER_ENTRY = "pulumi-opsledger/provider";

/**
 * The one stub object handed to every resource, so Pulumi's per-object serialization cache applies. It captures only
 * the entry's name: the provider process finds the resource kind from the type token in the `resourceUrn` input.
 */
export function providerStub(): pulumi.dynamic.ResourceProvider {
  stub ??= makeStub(PROVIDER_ENTRY);
  return stub;
}

let stub: pulumi.dynamic.ResourceProvider | undefined;

/* eslint-disable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call --
   The bodies below run in the provider process after serialization; they may capture only `e` (the entry).
   Every method goes through one dispatcher so the serialized text stays short. */
function makeStub(e: string): pulumi.dynamic.ResourceProvider {
  const d = (m: string, a: unknown[]): Promise<never> => require(e).dispatch(m, a);
  return {
    configure: (...a: unknown[]) => d("configure", a),
    check: (...a: unknown[]) => d("check", a),
    diff: (...a: unknown[]) => d("diff", a),
    create: (...a: unknown[]) => d("create", a),
    read: (...a: unknown[]) => d("read", a),
    update: (...a: unknown[]) => d("update", a),
    delete: (...a: unknown[]) => d("delete", a),
  } as pulumi.dynamic.ResourceProvider;
}
/* eslint-enable @typescript-eslint/no-require-imports, @typescript-eslint/no-unsafe-return, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-call */
