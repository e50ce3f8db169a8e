/**
 * Pulumi secrets on the plugin's wire. The plugin answers Configure with `acceptSecrets: true`, so the engine sends a
 * secret input as `{ [SIG]: SECRET_SIG, value }` and stores outputs exactly as the plugin returns them: the plugin
 * unwraps inputs before the per-resource logic sees them and marks secret outputs itself (the engine does not re-mark
 * them for a provider that accepts secrets). Which properties are secret: those the schema marks `secret: true`, and
 * every top-level property that arrived secret.
 */

/** The key that marks a special value in a Struct. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
/** The value of SIG_KEY that marks a secret. */
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
/** The value the engine sends for an unknown (not yet computed) value, during preview. */
export { UNKNOWN } from "../runtime/unknown-value";

/** Whether `v` is a wrapped secret. */
export function isSecret(v: unknown): v is { value: unknown } {
  return typeof v === "object" && v !== null && (v as Record<string, unknown>)[SIG_KEY] === SECRET_SIG;
}

/** Wraps `value` as a secret (once: a wrapped secret is returned as it is). */
export function wrapSecret(value: unknown): unknown {
  return isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

/** A copy of `v` with every secret, at any depth, replaced by its value. */
export function unwrapDeep(v: unknown): unknown {
  if (isSecret(v)) return unwrapDeep(v.value);
  if (Array.isArray(v)) return v.map(unwrapDeep);
  if (typeof v === "object" && v !== null) {
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapDeep(x)]));
  }
  return v;
}

/** The top-level property names holding a secret anywhere inside them. */
export function secretPaths(props: Readonly<Record<string, unknown>>): Set<string> {
  const found = new Set<string>();
  const has = (v: unknown): boolean =>
    isSecret(v) || (Array.isArray(v) ? v.some(has) : typeof v === "object" && v !== null && Object.values(v).some(has));
  for (const [k, v] of Object.entries(props)) if (has(v)) found.add(k);
  return found;
}

/** Unwraps the properties, and says which top-level ones were secret. */
export function unwrapProperties(props: Readonly<Record<string, unknown>>): {
  plain: Record<string, unknown>;
  secret: Set<string>;
} {
  return { plain: unwrapDeep(props) as Record<string, unknown>, secret: secretPaths(props) };
}

/** A copy of `props` with each named top-level property (when present and not undefined) wrapped as a secret. */
export function wrapProperties(
  props: Readonly<Record<string, unknown>>,
  names: Iterable<string>,
): Record<string, unknown> {
  const out: Record<string, unknown> = { ...props };
  for (const name of names) {
    if (out[name] !== undefined && out[name] !== null) out[name] = wrapSecret(out[name]);
  }
  return out;
}
