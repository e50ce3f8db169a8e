/**
 * The package's Pulumi schema (schema.json beside this file, generated from the TypeScript SDK's types and doc comments
 * by scripts/gen-schema.ts; test/unit/plugin/schema.test.ts fails when the two differ), and what is read from it at run
 * time: which properties are secret, and which function arguments exist and are required. Both faces and the SDK read
 * it here, so the SDK depends on no part of the plugin.
 */
import schemaJson from "./schema.json";

/** A property as the schema describes it (only what the plugin reads). */
interface SchemaProperty {
  readonly secret?: boolean;
}

interface SchemaObject {
  readonly inputProperties?: Readonly<Record<string, SchemaProperty>>;
  readonly properties?: Readonly<Record<string, SchemaProperty>>;
  readonly requiredInputs?: readonly string[];
}

interface SchemaFunction {
  readonly inputs?: {
    readonly properties?: Readonly<Record<string, SchemaProperty>>;
    readonly required?: readonly string[];
  };
}

/** The explicit provider's type token, whose properties the schema keeps under `provider`. */
export const PROVIDER_TYPE = "opsledger:index:Provider";

/** The package schema. */
export const SCHEMA = schemaJson as unknown as {
  readonly name: string;
  readonly version?: string;
  readonly provider: SchemaObject;
  readonly resources: Readonly<Record<string, SchemaObject>>;
  readonly functions: Readonly<Record<string, SchemaFunction>>;
};

/** The schema as GetSchema returns it, with the package's version. */
export function schemaText(version: string): string {
  return JSON.stringify({ ...SCHEMA, version });
}

/** secretNames' answers, read once per type and side: every call of every resource asks (the schema never changes). */
const SECRET_NAMES = new Map<string, readonly string[]>();

/**
 * The top-level input or output properties of a resource that the schema marks secret; `opsledger:index:Provider`
 * names the provider's settings.
 */
export function secretNames(type: string, side: "inputs" | "outputs"): readonly string[] {
  const key = `${side} ${type}`;
  let names = SECRET_NAMES.get(key);
  if (names === undefined) {
    const resource = type === PROVIDER_TYPE ? SCHEMA.provider : SCHEMA.resources[type];
    const props = side === "inputs" ? resource?.inputProperties : resource?.properties;
    names = Object.entries(props ?? {})
      .filter(([, p]) => p.secret === true)
      .map(([name]) => name);
    SECRET_NAMES.set(key, names);
  }
  return names;
}

/**
 * The outputs of a resource that the schema marks secret and no input carries: what the SDK's `@secret` tags mark on
 * its classes' outputs (the ledger's `credentials`). The SDK passes them as `additionalSecretOutputs`; the plugin, which
 * accepts secrets, marks them itself.
 */
export function secretOutputsOnly(type: string): readonly string[] {
  const inputs = new Set(Object.keys(SCHEMA.resources[type]?.inputProperties ?? {}));
  return secretNames(type, "outputs").filter((name) => !inputs.has(name));
}

/** The required arguments of a function that are missing (null or absent), each with the fix. */
export function requiredFailures(
  token: string,
  args: Readonly<Record<string, unknown>>,
): { property: string; reason: string }[] {
  const required = SCHEMA.functions[token]?.inputs?.required ?? [];
  return required
    .filter((name) => args[name] === undefined || args[name] === null || args[name] === "")
    .map((name) => ({ property: name, reason: `is required by ${token}; set ${name}` }));
}
