/**
 * A minimal Reflect metadata polyfill (the subset tsyringe and tslib's `__metadata` use), installed only when no
 * polyfill (reflect-metadata, core-js, @abraham/reflection) is present. @peculiar/x509 depends on tsyringe, which
 * throws at load time without one, and none is among our dependencies.
 */
type Key = unknown;
type MetadataMap = Map<Key, unknown>;

const store = new WeakMap<object, Map<PropertyKey | undefined, MetadataMap>>();

function ownMap(target: object, property: PropertyKey | undefined, create: boolean): MetadataMap | undefined {
  let byProperty = store.get(target);
  if (byProperty === undefined) {
    if (!create) return undefined;
    byProperty = new Map();
    store.set(target, byProperty);
  }
  let map = byProperty.get(property);
  if (map === undefined && create) {
    map = new Map();
    byProperty.set(property, map);
  }
  return map;
}

const polyfill = {
  defineMetadata(key: Key, value: unknown, target: object, property?: PropertyKey): void {
    ownMap(target, property, true)?.set(key, value);
  },
  getOwnMetadata(key: Key, target: object, property?: PropertyKey): unknown {
    return ownMap(target, property, false)?.get(key);
  },
  hasOwnMetadata(key: Key, target: object, property?: PropertyKey): boolean {
    return ownMap(target, property, false)?.has(key) ?? false;
  },
  getMetadata(key: Key, target: object, property?: PropertyKey): unknown {
    for (let t: object | null = target; t !== null; t = Object.getPrototypeOf(t) as object | null) {
      const map = ownMap(t, property, false);
      if (map?.has(key) === true) return map.get(key);
    }
    return undefined;
  },
  hasMetadata(key: Key, target: object, property?: PropertyKey): boolean {
    return polyfill.getMetadata(key, target, property) !== undefined;
  },
  metadata(key: Key, value: unknown): (target: object, property?: PropertyKey) => void {
    return (target, property) => {
      polyfill.defineMetadata(key, value, target, property);
    };
  },
};

const reflect = Reflect as unknown as Record<string, unknown>;
if (typeof reflect.getMetadata !== "function") {
  for (const [name, fn] of Object.entries(polyfill)) {
    Object.defineProperty(Reflect, name, { value: fn, writable: true, configurable: true, enumerable: false });
  }
}

export {};
