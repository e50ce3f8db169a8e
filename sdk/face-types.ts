/**
 * The type strings of the SDK's resource classes on each face, and the `isInstance` that answers for both. A
 * TypeScript program registers `pulumi-nodejs:dynamic/compute:FirewallPolicyMove`; a YAML, Go or Python program through
 * the plugin registers `opsledger:compute:FirewallPolicyMove`. @pulumi/policy's `validateResourceOfType(Class, …)` and
 * `remediateResourceOfType` compare a class's static `__pulumiType` with the resource's type when the class has one,
 * and ask `Class.isInstance({ __pulumiType: type })` only when it has none (its server.js `isTypeOf`): so the classes
 * carry no static `__pulumiType`, and their `isInstance` matches every type string of `faceTypes`.
 */
import type { ResourceDescriptor } from "../provider/registry";

/** The type strings of a class on each face: what a policy sees for its resources. */
export interface FaceTypes {
  /**
   * The TypeScript SDK: the class's own type first, then the type of the resource that carries a component's inputs
   * (a component's own inputs never reach the engine, so never a policy).
   */
  readonly typescript: readonly string[];
  /** The plugin (YAML, Go, Python, ...): the schema's token, when the plugin serves this class's resources. */
  readonly plugin: readonly string[];
}

/**
 * The type strings of the SDK class of `resource`; `part: "child"` for the class of a component's dynamic child (the
 * ledger transaction's submission), which exists on the TypeScript face only.
 */
export function resourceFaceTypes(resource: ResourceDescriptor, part: "class" | "child" = "class"): FaceTypes {
  const component = resource.typescriptComponent;
  if (part === "child") {
    if (component === undefined) throw new Error(`${resource.token} has no component, so no child class`);
    return { typescript: [resource.dynamicType], plugin: [] };
  }
  return {
    typescript: component === undefined ? [resource.dynamicType] : [component.type, resource.dynamicType],
    plugin: [resource.token],
  };
}

/** Every type string of `types`, TypeScript's first. */
export function allFaceTypes(types: FaceTypes): readonly string[] {
  return [...new Set([...types.typescript, ...types.plugin])];
}

/**
 * Whether `obj` is a resource of one of `types`: a resource object (whose `__pulumiType` @pulumi/pulumi sets) or the
 * `{ __pulumiType: type }` that @pulumi/policy builds to ask a class about a resource it is given.
 */
export function hasFaceType(types: FaceTypes, obj: unknown): boolean {
  if (typeof obj !== "object" || obj === null) return false;
  const type = (obj as { readonly __pulumiType?: unknown }).__pulumiType;
  return typeof type === "string" && allFaceTypes(types).includes(type);
}
