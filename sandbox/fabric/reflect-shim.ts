/**
 * @peculiar/x509 loads tsyringe, which throws at load time unless a Reflect metadata polyfill is installed, and the
 * project has none among its dependencies. This installs the handful of functions tsyringe and tslib's `__metadata`
 * call, and only when no polyfill (or another copy of this shim) got there first. Import it before @peculiar/x509.
 */
type MetadataTable = Map<unknown, unknown>;

const tables = new WeakMap<object, Map<PropertyKey | undefined, MetadataTable>>();

function tableOf(target: object, property: PropertyKey | undefined, create: boolean): MetadataTable | undefined {
  let perProperty = tables.get(target);
  if (perProperty === undefined && create) {
    perProperty = new Map();
    tables.set(target, perProperty);
  }
  let table = perProperty?.get(property);
  if (table === undefined && create && perProperty !== undefined) {
    table = new Map();
    perProperty.set(property, table);
  }
  return table;
}

function lookUp(key: unknown, target: object, property?: PropertyKey): { found: boolean; value: unknown } {
  for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t) as object | null) {
    const table = tableOf(t, property, false);
    if (table?.has(key) === true) return { found: true, value: table.get(key) };
  }
  return { found: false, value: undefined };
}

const functions: Record<string, (...args: never[]) => unknown> = {
  defineMetadata: (key: unknown, value: unknown, target: object, property?: PropertyKey): void => {
    tableOf(target, property, true)?.set(key, value);
  },
  getOwnMetadata: (key: unknown, target: object, property?: PropertyKey): unknown =>
    tableOf(target, property, false)?.get(key),
  hasOwnMetadata: (key: unknown, target: object, property?: PropertyKey): boolean =>
    tableOf(target, property, false)?.has(key) ?? false,
  getMetadata: (key: unknown, target: object, property?: PropertyKey): unknown => lookUp(key, target, property).value,
  hasMetadata: (key: unknown, target: object, property?: PropertyKey): boolean => lookUp(key, target, property).found,
  metadata:
    (key: unknown, value: unknown) =>
    (target: object, property?: PropertyKey): void => {
      tableOf(target, property, true)?.set(key, value);
    },
};

if (typeof (Reflect as unknown as Record<string, unknown>).getMetadata !== "function") {
  for (const [name, fn] of Object.entries(functions)) {
    Object.defineProperty(Reflect, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
}

export {};
