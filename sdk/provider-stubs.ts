/**
 * How every resource of this package reaches its provider. A dynamic resource is a custom resource of type
 * `pulumi-nodejs:dynamic/<module>:<Type>` whose `__provider` input is a CommonJS module: the dynamic-provider host
 * (@pulumi/pulumi `cmd/dynamic-provider`) evaluates it with require-from-string and calls its `handler()` for the
 * provider object, caching it per text. `pulumi.dynamic.Resource` produces that text by serializing a provider object
 * as closures, about 2 KB for seven methods, and Pulumi keeps it twice per resource (inputs and outputs) in every
 * checkpoint it writes, rewritten after every step (the state's size before and after: docs/benchmarks.md,
 * "Organization scale"; the decision: docs/decisions/0013-one-line-provider-stub.md).
 *
 * So the resources below write the module text themselves: one line that `require()`s this package's provider entry
 * by its name inside the provider process (`exports.handler = () => require("pulumi-opsledger/provider").provider`),
 * the same contract the serialized closures meet, with no copy of our code and no credentials in state. State written
 * by earlier versions (the long closures, which call `require(...).dispatch`) keeps working: both entries exist.
 */
import * as pulumi from "@pulumi/pulumi";
import { URN_INPUT } from "../provider/runtime/urn";
import type { ResourceDescriptor } from "../provider/registry";
import { secretOutputsOnly } from "../provider/schema/schema";
import { SETTINGS_INPUT } from "../provider/runtime/resource-settings";
import { Provider, type ResourceOptions } from "./provider";

/** The module the stub loads: the `./provider` entry of package.json's `exports` (dist/provider/dynamic/index.js). */
export const PROVIDER_ENTRY = "pulumi-opsledger/provider";

/**
 * Why the `import` option cannot work on a TypeScript resource, and how to adopt the object instead: one paragraph,
 * thrown before anything is registered (without it, the preview fails with the dynamic-provider host's "code must be
 * a string, not undefined").
 */
export function importRefusal(resource: ResourceDescriptor, name: string, id: pulumi.Input<string>): string {
  const shown = typeof id === "string" ? ` ${id}` : "";
  return (
    `${resource.name} ${name}: the \`import\` option cannot adopt${shown} in a TypeScript program: this package's TypeScript ` +
    `resources are Pulumi dynamic resources, and Pulumi cannot import a dynamic resource (an import reads the object ` +
    `with no state, and a dynamic resource's provider lives in its state: pulumi/pulumi#16175). Remove \`import\` and ` +
    `declare the resource as it is: a FirewallPolicyMove whose parentId is the policy's current parent records it ` +
    `without a move, and an OperationWait on a finished operation records how it ended. Or adopt it through the ` +
    `resource plugin, which can import: \`pulumi import ${resource.token} ${name} <id>\` in a YAML, Go or ` +
    `Python program (docs/plugin.md#import).`
  );
}

/** The `__provider` input of every resource: the provider module text, 70 bytes. */
export const PROVIDER_MODULE = `exports.handler = () => require(${JSON.stringify(PROVIDER_ENTRY)}).provider;\n`;

/**
 * A dynamic resource of this package: what `pulumi.dynamic.Resource` registers (the same type token, `__provider`
 * input and provider host), with the one-line provider module instead of serialized closures.
 */
export class OpsLedgerDynamicResource extends pulumi.CustomResource {
  /**
   * An opsledger.Provider in `opts.provider` is not a Pulumi provider: its settings become the secret `__settings`
   * input (sdk/provider.ts), and the resource is registered with the default dynamic provider as any other.
   */
  constructor(resource: ResourceDescriptor, name: string, props: pulumi.Inputs, opts?: ResourceOptions) {
    if (props["__provider"] !== undefined) throw new Error("A dynamic resource must not define the __provider key");
    if (opts?.import !== undefined) throw new Error(importRefusal(resource, name, opts.import));
    const { provider, ...rest } = opts ?? {};
    const explicit = Provider.isInstance(provider) ? provider : undefined;
    const options = explicit === undefined ? (opts as pulumi.CustomResourceOptions | undefined) : rest;
    // Outputs the SDK's `@secret` tags mark and no input carries (the ledger's credentials), from the schema.
    const secretOutputs = secretOutputsOnly(resource.token);
    super(
      resource.dynamicType,
      name,
      {
        ...props,
        // The resource's own URN, which its provider derives idempotency keys and txIds from.
        [URN_INPUT]: pulumi.createUrn(name, resource.dynamicType, opts?.parent),
        __provider: PROVIDER_MODULE,
        ...(explicit === undefined ? {} : { [SETTINGS_INPUT]: explicit.settings }),
      },
      secretOutputs.length === 0
        ? options
        : pulumi.mergeOptions(options, { additionalSecretOutputs: [...secretOutputs] }),
    );
  }
}
