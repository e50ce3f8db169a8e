/**
 * `pulumi-opsledger/policy`: helpers for policy packs (@pulumi/policy) that guard this package's resources on both
 * faces. A TypeScript program registers `pulumi-nodejs:dynamic/compute:FirewallPolicyMove`; a YAML, Go or Python
 * program through the plugin registers `opsledger:compute:FirewallPolicyMove`; both carry the same input names (the
 * plugin's schema is generated from the SDK's types). `validateResourceOfType(compute.FirewallPolicyMove, ...)` of
 * @pulumi/policy matches the TypeScript face only; `validateOpsLedgerResource(compute.FirewallPolicyMove, ...)` matches
 * both. The package needs no @pulumi/policy itself: the shapes below are the parts of its arguments read here.
 */
import type * as pulumi from "@pulumi/pulumi";
import { SCHEMA } from "../../provider/plugin/schema";
import { FirewallPolicyMove } from "../compute/firewall-policy-move";
import { InventorySourceGroupDeletion } from "../displayvideo/inventory-source-group-deletion";
import { LEDGER_TRANSACTION_RESOURCE_TYPE, LedgerTransaction } from "../ledger/ledger-transaction";
import { LedgerTransactionSubmission } from "../ledger/ledger-transaction-submission";
import { LedgerTransactions } from "../ledger/ledger-transactions";
import { OperationWait } from "../operations/operation-wait";

/** A resource class of the SDK: a constructor `(name, args, opts?)` with its type string. */
export interface PolicyResourceClass {
  readonly name: string;
  readonly __pulumiType: string;
}

/**
 * Every resource class of the TypeScript SDK, the one list the policy helpers and their documentation read: a resource
 * added to the package is covered by adding its class here. `carriedBy` names the class whose resources hold a
 * component's inputs on the TypeScript face (a component's own inputs never reach the engine, so never a policy);
 * `pluginType` the plugin's token when it is not the class's own type (the ledger component's, decision 0240).
 */
export const POLICY_RESOURCES: readonly {
  readonly cls: PolicyResourceClass;
  readonly carriedBy?: PolicyResourceClass;
  readonly pluginType?: string;
}[] = [
  { cls: FirewallPolicyMove },
  { cls: InventorySourceGroupDeletion },
  { cls: OperationWait },
  { cls: LedgerTransaction, carriedBy: LedgerTransactionSubmission, pluginType: LEDGER_TRANSACTION_RESOURCE_TYPE },
  { cls: LedgerTransactionSubmission },
  { cls: LedgerTransactions },
];

/** The type strings of a class on each face: what a policy sees for its resources. */
export interface FaceTypes {
  /** The TypeScript SDK: the class's own type, and the type of the resource that carries a component's inputs. */
  readonly typescript: readonly string[];
  /** The plugin (YAML, Go, Python, ...): the schema's token, when the plugin serves this resource. */
  readonly plugin: readonly string[];
}

/** The plugin's token of a TypeScript type string: `pulumi-nodejs:dynamic/<module>:<Type>` → `opsledger:<module>:<Type>`. */
function pluginTokenOf(type: string): string | undefined {
  const dynamic = /^pulumi-nodejs:dynamic\/([^:]+):(.+)$/.exec(type);
  const token = dynamic === null ? type : `opsledger:${dynamic[1] ?? ""}:${dynamic[2] ?? ""}`;
  return SCHEMA.resources[token] === undefined ? undefined : token;
}

/** The type strings of `cls` on both faces; a class not in POLICY_RESOURCES is refused, naming the list. */
export function faceTypesOf(cls: PolicyResourceClass): FaceTypes {
  const entry = POLICY_RESOURCES.find((r) => r.cls === cls);
  if (entry === undefined) {
    throw new Error(
      `${cls.name} is not a resource class of pulumi-opsledger (POLICY_RESOURCES in pulumi-opsledger/policy)`,
    );
  }
  const typescript = [cls.__pulumiType, ...(entry.carriedBy === undefined ? [] : [entry.carriedBy.__pulumiType])];
  const plugin = pluginTokenOf(entry.pluginType ?? cls.__pulumiType);
  return { typescript: [...new Set(typescript)], plugin: plugin === undefined ? [] : [plugin] };
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
