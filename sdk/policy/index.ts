/**
 * `pulumi-opsledger/policy`: helpers for policy packs (@pulumi/policy) that guard this package's resources on both
 * faces. A TypeScript program registers `pulumi-nodejs:dynamic/compute:FirewallPolicyMove`; a YAML, Go or Python
 * program through the plugin registers `opsledger:compute:FirewallPolicyMove`; both carry the same input names (the
 * plugin's schema is generated from the SDK's types). `validateResourceOfType(compute.FirewallPolicyMove, ...)` of
 * @pulumi/policy matches both through the class's `isInstance` (sdk/face-types.ts); `validateOpsLedgerResource` does
 * too, and also types the inputs as the class's arguments without the `__` plumbing. The package needs no
 * @pulumi/policy itself: the shapes below are the parts of its arguments read here.
 */
import type * as pulumi from "@pulumi/pulumi";
import { resourceOfType } from "../../provider/registry";
import * as compute from "../compute";
import * as displayvideo from "../displayvideo";
import { allFaceTypes, type FaceTypes } from "../face-types";
import * as ledger from "../ledger";
import * as operations from "../operations";

export type { FaceTypes } from "../face-types";

/** A resource class of the SDK: a constructor `(name, args, opts?)` with its type strings on each face. */
export interface PolicyResourceClass {
  readonly name: string;
  readonly faceTypes: FaceTypes;
  isInstance(obj: unknown): boolean;
}

/** A class's own type: the first of its TypeScript type strings. */
function ownType(cls: PolicyResourceClass): string {
  return cls.faceTypes.typescript[0] ?? "";
}

function isResourceClass(value: unknown): value is PolicyResourceClass {
  if (typeof value !== "function") return false;
  const types = (value as unknown as Partial<PolicyResourceClass>).faceTypes;
  return types !== undefined && resourceOfType(types.typescript[0] ?? "") !== undefined;
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
  const d = resourceOfType(ownType(cls));
  const carriedBy =
    d?.typescriptComponent?.type === ownType(cls) ? CLASSES.find((c) => ownType(c) === d.dynamicType) : undefined;
  return carriedBy === undefined ? { cls } : { cls, carriedBy };
});

/** The type strings of `cls` on both faces (its `faceTypes`); a class of no resource of this package is refused. */
export function faceTypesOf(cls: PolicyResourceClass): FaceTypes {
  const candidate: unknown = cls;
  if (!isResourceClass(candidate)) {
    throw new Error(
      `${cls.name} is not a resource class of pulumi-opsledger (its type ${ownType(cls)} is not in the registry)`,
    );
  }
  return cls.faceTypes;
}

/** Every type string a policy sees for `cls`'s resources, on either face. */
export function typeStringsOf(cls: PolicyResourceClass): readonly string[] {
  return allFaceTypes(faceTypesOf(cls));
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
