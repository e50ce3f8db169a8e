/** The value at a dot path ("a.b.0.c") of parsed YAML or JSON; undefined when a step is missing. */
export function valueAt(doc: unknown, path: string): unknown {
  let node = doc;
  for (const key of path.split(".")) {
    if (typeof node !== "object" || node === null) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}
