/**
 * Committer stage D (Fabric core/ledger/kvledger/txmgmt/validation): every public read must still be at the version
 * it was read at, counting writes of earlier valid transactions in the same block (MVCC_READ_CONFLICT), and every
 * range query must still return the same keys at the same versions (PHANTOM_READ_CONFLICT).
 */
import type { NamespaceRwSet } from "./action-checks";
import type { KVRead, RangeQueryInfo } from "./messages";
import { TxValidationCode } from "../../provider/ledger/protos/tx-validation-code";
import {
  compareKeys,
  inRange,
  isDeleteWrite,
  type StateVersion,
  type StateWrite,
  type WorldState,
} from "./world-state";

/** Writes of the valid transactions of the block being validated, not yet in the world state. */
export class BlockUpdates {
  private readonly updates = new Map<string, Map<string, { write: StateWrite; version: StateVersion }>>();

  add(namespace: string, writes: readonly StateWrite[], version: StateVersion): void {
    let table = this.updates.get(namespace);
    if (table === undefined) {
      table = new Map();
      this.updates.set(namespace, table);
    }
    for (const write of writes) table.set(write.key, { write, version });
  }

  has(namespace: string, key: string): boolean {
    return this.updates.get(namespace)?.has(key) ?? false;
  }

  entries(namespace: string): [string, { write: StateWrite; version: StateVersion }][] {
    return [...(this.updates.get(namespace)?.entries() ?? [])];
  }
}

export interface MvccCheck {
  readonly code: number;
  readonly reason: string;
}

function sameVersion(read: KVRead, committed: StateVersion | undefined): boolean {
  if (read.version === null || committed === undefined) return read.version === null && committed === undefined;
  return read.version.blockNum === committed.blockNum && read.version.txNum === BigInt(committed.txNum);
}

function describe(version: StateVersion | undefined): string {
  return version === undefined ? "absent" : `${version.blockNum}:${version.txNum}`;
}

/** The current results of a range query: committed state overlaid with this block's earlier valid writes. */
function currentRange(
  state: WorldState,
  updates: BlockUpdates,
  namespace: string,
  query: RangeQueryInfo,
): { key: string; version: StateVersion }[] {
  const merged = new Map<string, StateVersion>();
  for (const [key, v] of state.range(namespace, query.startKey, query.endKey)) merged.set(key, v.version);
  for (const [key, u] of updates.entries(namespace)) {
    if (!inRange(key, query.startKey, query.endKey)) continue;
    if (isDeleteWrite(u.write)) merged.delete(key);
    else merged.set(key, u.version);
  }
  return [...merged.entries()].map(([key, version]) => ({ key, version })).sort((a, b) => compareKeys(a.key, b.key));
}

function rangeProblem(
  state: WorldState,
  updates: BlockUpdates,
  namespace: string,
  query: RangeQueryInfo,
): string | undefined {
  const recorded = query.rawReads?.kvReads;
  if (recorded === undefined) return `range [${query.startKey}, ${query.endKey}): merkle summaries are not supported`;
  let current = currentRange(state, updates, namespace, query);
  if (!query.itrExhausted) {
    // The iteration stopped early: only the keys up to the last one read are covered.
    const last = recorded[recorded.length - 1]?.key;
    current = last === undefined ? [] : current.filter((c) => compareKeys(c.key, last) <= 0);
  }
  if (current.length !== recorded.length) {
    return `range [${query.startKey}, ${query.endKey}) returned ${recorded.length} keys at endorsement, ${current.length} now`;
  }
  for (const [i, read] of recorded.entries()) {
    const now = current[i];
    if (now?.key !== read.key || !sameVersion(read, now.version)) {
      return `range [${query.startKey}, ${query.endKey}) changed at key ${read.key}`;
    }
  }
  return undefined;
}

export function checkReads(state: WorldState, updates: BlockUpdates, rwsets: readonly NamespaceRwSet[]): MvccCheck {
  for (const { namespace, kv } of rwsets) {
    for (const read of kv.reads) {
      if (updates.has(namespace, read.key)) {
        return {
          code: TxValidationCode.MVCC_READ_CONFLICT,
          reason: `${namespace}/${read.key} was written by an earlier transaction in the same block`,
        };
      }
      const committed = state.get(namespace, read.key)?.version;
      if (!sameVersion(read, committed)) {
        const readAt = read.version === null ? "absent" : `${read.version.blockNum}:${read.version.txNum}`;
        return {
          code: TxValidationCode.MVCC_READ_CONFLICT,
          reason: `${namespace}/${read.key} was read at version ${readAt} but is now at ${describe(committed)}`,
        };
      }
    }
  }
  for (const { namespace, kv } of rwsets) {
    for (const query of kv.rangeQueriesInfo) {
      const problem = rangeProblem(state, updates, namespace, query);
      if (problem !== undefined)
        return { code: TxValidationCode.PHANTOM_READ_CONFLICT, reason: `${namespace}: ${problem}` };
    }
  }
  return { code: TxValidationCode.VALID, reason: "" };
}
