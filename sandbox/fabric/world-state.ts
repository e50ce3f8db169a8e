/**
 * The channel's world state: namespace → key → value with the version (block number, transaction number) of the
 * transaction that last wrote it. Keys are ordered by their UTF-8 bytes, as in Fabric's LevelDB state database.
 */

export interface StateVersion {
  readonly blockNum: bigint;
  readonly txNum: number;
}

export interface VersionedValue {
  readonly value: Buffer;
  readonly version: StateVersion;
}

export interface StateWrite {
  readonly key: string;
  readonly isDelete: boolean;
  readonly value: Buffer;
}

/**
 * Whether a write removes its key: a delete, or a write of an empty value, which a peer's state database stores as a
 * delete (Fabric's simulator records an empty SetState as IsDelete; a committed empty value is a nil value, which the
 * LevelDB state database deletes).
 */
export function isDeleteWrite(write: Pick<StateWrite, "isDelete" | "value">): boolean {
  return write.isDelete || write.value.length === 0;
}

/** The namespace of Fabric's chaincode lifecycle, where each committed chaincode definition lives. */
export const LIFECYCLE_NAMESPACE = "_lifecycle";

/** The `_lifecycle` key every endorsement of chaincode `name` reads (its definition's sequence). */
export function definitionKey(name: string): string {
  return `namespaces/fields/${name}/Sequence`;
}

/** Byte-wise comparison of two keys' UTF-8 encodings (LevelDB order). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, "utf8"), Buffer.from(b, "utf8"));
}

/** True when `key` is in [startKey, endKey); an empty endKey means no upper bound. */
export function inRange(key: string, startKey: string, endKey: string): boolean {
  return compareKeys(key, startKey) >= 0 && (endKey === "" || compareKeys(key, endKey) < 0);
}

export class WorldState {
  private readonly namespaces = new Map<string, Map<string, VersionedValue>>();

  get(namespace: string, key: string): VersionedValue | undefined {
    return this.namespaces.get(namespace)?.get(key);
  }

  /** The entries with keys in [startKey, endKey), in key order. */
  range(namespace: string, startKey: string, endKey: string): [string, VersionedValue][] {
    const entries = [...(this.namespaces.get(namespace) ?? new Map<string, VersionedValue>()).entries()];
    return entries.filter(([key]) => inRange(key, startKey, endKey)).sort(([a], [b]) => compareKeys(a, b));
  }

  apply(namespace: string, writes: readonly StateWrite[], version: StateVersion): void {
    let table = this.namespaces.get(namespace);
    if (table === undefined) {
      table = new Map();
      this.namespaces.set(namespace, table);
    }
    for (const w of writes) {
      if (isDeleteWrite(w)) table.delete(w.key);
      else table.set(w.key, { value: Buffer.from(w.value), version });
    }
  }

  /** A copy of one namespace, in key order. */
  snapshot(namespace: string): Map<string, VersionedValue> {
    return new Map(this.range(namespace, "", ""));
  }

  clear(): void {
    this.namespaces.clear();
  }
}
