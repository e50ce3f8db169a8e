/**
 * `pulumi-opsledger/policy`: helpers for policy packs (@pulumi/policy) that guard this package's resources on both
 * faces. A TypeScript program registers `pulumi-nodejs:dynamic/compute:FirewallPolicyMove`; a YAML, Go or Python
 * program through the plugin registers `opsledger:compute:FirewallPolicyMove`; both carry the same input names (the
 * plugin's schema is generated from the SDK's types). `validateResourceOfType(compute.FirewallPolicyMove, ...)` of
 * @pulumi/policy matches the TypeScript face only; `validateOpsLedgerResource(compute.FirewallPolicyMove, ...)` matches
 * both. The package needs no @pulumi/policy itself: the shapes below are the parts of its arguments read here.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resourceOfType } from "../../provider/registry";
import * as compute from "../compute";
import * as displayvideo from "../displayvideo";
import * as ledger from "../ledger";
import * as operations from "../operations";

/** A resource class of the SDK: a constructor `(name, args, opts?)` with its type string. */
export interface PolicyResourceClass {
  readonly name: string;
  readonly __pulumiType: string;
}

function isResourceClass(value: unknown): value is PolicyResourceClass {
  if (typeof value !== "function") return false;
  const type = (value as unknown as Partial<PolicyResourceClass>).__pulumiType;
  return typeof type === "string" && resourceOfType(type) !== undefined;
}

const CLASSES: readonly PolicyResourceClass[] = [compute, displayvideo, ledger, operations]
  .flatMap((m) => Object.values(m) as unknown[])
  .filter(isResourceClass);

/**
 * Every resource class of the TypeScript SDK: the classes of its modules whose type the registry (provider/registry)
 * declares, so a resource added to the registry and the SDK is covered with nothing to add here. `carriedBy` names
 * the class whose resources hold a component's inputs on the TypeScript face (a component's own inputs never reach the
 * engine, so never a policy).
 */
export const POLICY_RESOURCES: readonly {
  readonly cls: PolicyResourceClass;
  readonly carriedBy?: PolicyResourceClass;
}[] = CLASSES.map((cls) => {
  const d = resourceOfType(cls.__pulumiType);
  const carriedBy =
    d?.typescriptComponent?.type === cls.__pulumiType
      ? CLASSES.find((c) => c.__pulumiType === d.dynamicType)
      : undefined;
  return carriedBy === undefined ? { cls } : { cls, carriedBy };
});

/** The type strings of a class on each face: what a policy sees for its resources. */
export interface FaceTypes {
  /** The TypeScript SDK: the class's own type, and the type of the resource that carries a component's inputs. */
  readonly typescript: readonly string[];
  /** The plugin (YAML, Go, Python, ...): the schema's token, when the plugin serves this resource. */
  readonly plugin: readonly string[];
}

/** The type strings of `cls` on both faces, from its registry descriptor; a class of no resource is refused. */
export function faceTypesOf(cls: PolicyResourceClass): FaceTypes {
  const d = resourceOfType(cls.__pulumiType);
  if (d === undefined) {
    throw new Error(
      `${cls.name} is not a resource class of pulumi-opsledger (its type ${cls.__pulumiType} is not in the registry)`,
    );
  }
  if (d.typescriptComponent !== undefined && cls.__pulumiType === d.dynamicType) {
    // The component's child: what carries the component's inputs on the TypeScript face; the plugin has no such type.
    return { typescript: [d.dynamicType], plugin: [] };
  }
  return {
    typescript: d.typescriptComponent === undefined ? [d.dynamicType] : [d.typescriptComponent.type, d.dynamicType],
    plugin: [d.token],
  };
}

/** Every type string a policy sees for `cls`'s resources, on either face. */
export function typeStringsOf(cls: PolicyResourceClass): readonly string[] {
  const { typescript, plugin } = faceTypesOf(cls);
  return [...new Set([...typescript, ...plugin])];
}

/** Whether a resource a policy is given (`args.type`) is one of `cls`'s, on either face. */
export function isResourceOf(cls: PolicyResourceClass, args: { readonly type: string }): boolean {
  return typeStringsOf(cls).includes(args.type);
}

/** What a policy's `validateResource` is given, as far as these helpers read it (@pulumi/policy ResourceValidationArgs). */
export interface PolicyResourceArgs {
  readonly type: string;
  readonly props: Record<string, unknown>;
  readonly urn: string;
  readonly name: string;
}

/** @pulumi/policy's ReportViolation. */
export type ReportViolation = (message: string, urn?: string) => void;

/** The inputs of `C`'s resources as a policy sees them: the constructor's arguments, resolved. */
export type PolicyProps<C> = C extends abstract new (name: string, args: infer A, ...rest: never[]) => unknown
  ? pulumi.Unwrap<A>
  : Record<string, unknown>;

/**
 * A `validateResource` for @pulumi/policy that runs `validate` on the resources of `cls` on both faces, with their
 * inputs typed as the class's arguments (the package's own `__` keys, plumbing, are left out).
 */
export function validateOpsLedgerResource<C extends PolicyResourceClass>(
  cls: C,
  validate: (props: PolicyProps<C>, args: PolicyResourceArgs, reportViolation: ReportViolation) => void | Promise<void>,
): (args: PolicyResourceArgs, reportViolation: ReportViolation) => void | Promise<void> {
  const types = typeStringsOf(cls);
  return (args, reportViolation) => {
    if (!types.includes(args.type)) return;
    const props = Object.fromEntries(Object.entries(args.props).filter(([key]) => !key.startsWith("__")));
    return validate(props as PolicyProps<C>, args, reportViolation);
  };
}
