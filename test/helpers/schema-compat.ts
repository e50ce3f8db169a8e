/**
 * Breaking changes between two Pulumi package schemas (the previous release's and this one's), as a program or a
 * stack written against the previous one would meet them: a resource, function or object type removed; a property
 * of one removed or its type changed; an input required that was optional. Additions are never breaking.
 */
type Json = Record<string, unknown>;

function obj(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

/** A property's type as a comparable string: its type, $ref, and those of its items or additional properties. */
export function typeShape(property: unknown): string {
  const p = obj(property);
  const own = typeof p["$ref"] === "string" ? `ref(${p["$ref"]})` : typeof p["type"] === "string" ? p["type"] : "any";
  if (p["items"] !== undefined) return `${own}<${typeShape(p["items"])}>`;
  if (p["additionalProperties"] !== undefined) return `${own}{${typeShape(p["additionalProperties"])}}`;
  if (Array.isArray(p["oneOf"])) return `oneOf(${(p["oneOf"] as unknown[]).map(typeShape).join("|")})`;
  return own;
}

function compareProperties(path: string, before: unknown, after: unknown, out: string[]): void {
  const a = obj(after);
  for (const [name, property] of Object.entries(obj(before))) {
    if (!(name in a)) out.push(`${path}.${name}: removed`);
    else if (typeShape(property) !== typeShape(a[name])) {
      out.push(`${path}.${name}: type ${typeShape(property)} became ${typeShape(a[name])}`);
    }
  }
}

function compareRequired(path: string, before: unknown, after: unknown, out: string[]): void {
  const was = new Set(Array.isArray(before) ? (before as string[]) : []);
  for (const name of Array.isArray(after) ? (after as string[]) : []) {
    if (!was.has(name)) out.push(`${path}.${name}: newly required`);
  }
}

/** The breaking changes from `before` to `after`, one line each: `<path>: <change>` (a path holds no ": "). */
export function breakingChanges(before: Json, after: Json): string[] {
  const out: string[] = [];
  for (const section of ["resources", "functions", "types"] as const) {
    const now = obj(after[section]);
    for (const [token, was] of Object.entries(obj(before[section]))) {
      const path = `${section}.${token}`;
      if (!(token in now)) {
        out.push(`${path}: removed`);
        continue;
      }
      const w = obj(was);
      const n = obj(now[token]);
      if (section === "resources") {
        compareProperties(`${path}.inputProperties`, w["inputProperties"], n["inputProperties"], out);
        compareProperties(`${path}.properties`, w["properties"], n["properties"], out);
        compareRequired(`${path}.requiredInputs`, w["requiredInputs"], n["requiredInputs"], out);
      } else if (section === "functions") {
        compareProperties(`${path}.inputs`, obj(w["inputs"])["properties"], obj(n["inputs"])["properties"], out);
        compareRequired(`${path}.inputs.required`, obj(w["inputs"])["required"], obj(n["inputs"])["required"], out);
        compareProperties(`${path}.outputs`, obj(w["outputs"])["properties"], obj(n["outputs"])["properties"], out);
      } else {
        compareProperties(`${path}.properties`, w["properties"], n["properties"], out);
      }
    }
  }
  compareProperties(
    "provider.inputProperties",
    obj(before["provider"])["inputProperties"],
    obj(after["provider"])["inputProperties"],
    out,
  );
  compareProperties("config.variables", obj(before["config"])["variables"], obj(after["config"])["variables"], out);
  return out;
}
