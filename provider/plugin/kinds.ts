/**
 * The plugin's dispatch table, read from the registry (provider/registry): each type token to the implementation the
 * TypeScript SDK's dynamic resources also use, and each function token to the data source's logic the SDK's
 * functions also use. Nothing here is resource logic, and nothing is declared here: which implementation serves a
 * token, which steps take a deadline, which outputs are secret and whether it can be imported are the descriptor's.
 */
import { FUNCTION_LIST, RESOURCE_LIST, importRefusalMessage } from "../registry";
import type { Adopted, Caller, ResourceDescriptor, ResourceModule, Step } from "../registry";
import { secretOutputsOnly } from "../schema/schema";

export type { Adopted, ResourceModule, Step } from "../registry";

/** How the plugin serves one resource type. */
export interface ResourceKind {
  readonly module: ResourceModule;
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

function kindOf(d: ResourceDescriptor): ResourceKind {
  return {
    // Loaded on first use of the token (a YAML stack of moves never loads the ledger).
    get module(): ResourceModule {
      return d.load().provider;
    },
    secretOutputs: secretOutputsOnly(d.token),
    timeoutSteps: d.timeoutSteps,
    adopt: (id, urn) => {
      const refusal = importRefusalMessage(d);
      if (refusal !== undefined) return Promise.reject(new Error(refusal));
      const adopt = d.load().adopt;
      if (adopt === undefined) return Promise.reject(new Error(`${d.token} cannot be imported`));
      return adopt(id, urn);
    },
  };
}

/** Type token → resource. */
export const RESOURCES: Readonly<Record<string, ResourceKind>> = Object.fromEntries(
  RESOURCE_LIST.map((d) => [d.token, kindOf(d)]),
);

/** Function token → the data source's logic, given the endpoint caller of the plugin's provider. */
export const FUNCTIONS: Readonly<Record<string, (call: Caller, args: Record<string, unknown>) => Promise<unknown>>> =
  Object.fromEntries(
    FUNCTION_LIST.map((d) => [d.token, (call: Caller, args: Record<string, unknown>) => d.load()(call, args)]),
  );
