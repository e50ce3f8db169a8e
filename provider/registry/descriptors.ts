/**
 * What a descriptor of the registry says about a resource or a function (provider/registry/resources.ts,
 * functions.ts), and the contract its implementation meets. Nothing here loads an implementation: the SDK reads the
 * descriptors in the program process, where the providers' code must not load.
 */
import type { EndpointCaller } from "../functions/google-reads";

/** A step that takes a deadline. */
export type Step = "create" | "update" | "delete";

/** An implementation's methods, as the dynamic provider contract shapes them (both faces call the same ones). */
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

/** An import's answer: the id, outputs and inputs of the adopted object (an empty id: not found). */
export interface Adopted {
  id: string;
  props?: unknown;
  inputs?: unknown;
}

/** A resource's implementation: its provider, and how it adopts an existing object when it can be imported. */
export interface ResourceImplementation {
  readonly provider: ResourceModule;
  readonly adopt?: (id: string, urn: string) => Promise<Adopted>;
}

/** Why a resource cannot be imported, and what to declare instead (the plugin's answer to `pulumi import`). */
export interface ImportRefusal {
  readonly why: string;
  readonly instead: string;
}

/** A TypeScript component around a resource's dynamic resource. */
export interface TypescriptComponent {
  /** The component's type token; never a token of the plugin's, so that one token means one kind of resource. */
  readonly type: string;
  /** The types the component had before, which it keeps as aliases. */
  readonly aliasTypes: readonly string[];
}

/** Where the TypeScript SDK declares a resource: gen-schema reads its types and doc comments from there. */
export interface SdkResourceSource {
  /** The SDK file, from the repository's root. */
  readonly file: string;
  /** The class users construct. */
  readonly cls: string;
  /** Its arguments' interface. */
  readonly args: string;
  /** Public outputs of the class that are SDK conveniences, not state (aliases of `__` plumbing). */
  readonly sdkOnly?: readonly string[];
}

/** One resource of the package. */
export interface ResourceDescriptor {
  /** The type token programs name it by through the plugin (YAML, Go, Python) and the schema: `opsledger:<module>:<name>`. */
  readonly token: string;
  /** The token's module: compute, displayvideo, operations, ledger. */
  readonly module: string;
  /** The token's type name. */
  readonly name: string;
  /**
   * The type of the TypeScript SDK's dynamic resource, `pulumi-nodejs:dynamic/<module>:<dynamicName>`, which the
   * dynamic dispatch reads in a call's URN. Frozen once released: state names it.
   */
  readonly dynamicType: string;
  /**
   * Set when the TypeScript SDK's class is a component whose child, of `dynamicType`, is the dynamic resource (the
   * ledger transaction): the component's type, and the types it was registered under before (its aliases, so that
   * stacks written then see no diff). Otherwise the SDK class is the dynamic resource itself.
   */
  readonly typescriptComponent?: TypescriptComponent;
  readonly sdk: SdkResourceSource;
  /** The steps whose deadline the implementation reads from the `timeouts` input (where `customTimeouts` go). */
  readonly timeoutSteps: readonly Step[];
  /** Set when the resource cannot be imported; otherwise the implementation's `adopt` imports. */
  readonly importRefusal?: ImportRefusal;
  /** The implementation, loaded on first use (and once). */
  readonly load: () => ResourceImplementation;
}

/** Where the TypeScript SDK declares a function: gen-schema reads its types and doc comments from there. */
export interface SdkFunctionSource {
  readonly file: string;
  /** The SDK function (its `…Output` twin is derived). */
  readonly fn: string;
  readonly args: string;
  readonly result: string;
}

/** Calls one Google endpoint with the caller's credentials (the plugin's provider, or the program's). */
export type Caller = EndpointCaller;

/** One function (data source) of the package. */
export interface FunctionDescriptor {
  /** `opsledger:<module>:<name>`. */
  readonly token: string;
  readonly module: string;
  /** The function's name, as the SDK exports it. */
  readonly name: string;
  readonly sdk: SdkFunctionSource;
  /** The implementation, loaded on first use: the read, given the caller of Google endpoints and the arguments. */
  readonly load: () => (call: Caller, args: Record<string, unknown>) => Promise<unknown>;
}
