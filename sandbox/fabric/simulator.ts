/**
 * A transaction simulator over the world state, the chaincode's view of the ledger during endorsement. Like
 * Fabric's, it reads committed state only (a chaincode does not read its own writes), and records what it did:
 * every key read with the version it had (no version when absent), every range query with its results, every
 * write or delete (an empty value is a delete, as in Fabric). `results()` is the serialized rwset.TxReadWriteSet,
 * reads and writes sorted by key, with the read of the chaincode's definition in _lifecycle that real endorsements
 * carry.
 */
import type { ChaincodeEventData, ChaincodeStub } from "./chaincode";
import type { MessageInput, RangeQueryInfo } from "./messages";
import { encode } from "./wire";
import { compareKeys, definitionKey, LIFECYCLE_NAMESPACE, type WorldState } from "./world-state";

interface RecordedRead {
  readonly key: string;
  readonly version: { readonly blockNum: bigint; readonly txNum: bigint } | null;
}

export class TxSimulator implements ChaincodeStub {
  private readonly reads = new Map<string, RecordedRead>();
  private readonly writes = new Map<string, { readonly isDelete: boolean; readonly value: Buffer }>();
  private readonly rangeQueries: MessageInput<RangeQueryInfo>[] = [];
  private chaincodeEvent: ChaincodeEventData | undefined;

  constructor(
    private readonly state: WorldState,
    private readonly namespace: string,
    readonly txId: string,
    readonly channelId: string,
  ) {}

  getState(key: string): Buffer | undefined {
    const current = this.state.get(this.namespace, key);
    if (!this.reads.has(key)) {
      this.reads.set(key, {
        key,
        version:
          current === undefined ? null : { blockNum: current.version.blockNum, txNum: BigInt(current.version.txNum) },
      });
    }
    return current === undefined ? undefined : Buffer.from(current.value);
  }

  /** An empty value is recorded as a delete, as Fabric's rwset builder does (IsDelete = len(value) == 0). */
  putState(key: string, value: Uint8Array): void {
    this.writes.set(key, { isDelete: value.length === 0, value: Buffer.from(value) });
  }

  deleteState(key: string): void {
    this.writes.set(key, { isDelete: true, value: Buffer.alloc(0) });
  }

  getStateByRange(startKey: string, endKey: string): { key: string; value: Buffer }[] {
    const entries = this.state.range(this.namespace, startKey, endKey);
    this.rangeQueries.push({
      startKey,
      endKey,
      itrExhausted: true,
      rawReads: {
        kvReads: entries.map(([key, v]) => ({
          key,
          version: { blockNum: v.version.blockNum, txNum: v.version.txNum },
        })),
      },
    });
    return entries.map(([key, v]) => ({ key, value: Buffer.from(v.value) }));
  }

  setEvent(name: string, payload: Uint8Array): void {
    this.chaincodeEvent = { name, payload: Buffer.from(payload) };
  }

  get event(): ChaincodeEventData | undefined {
    return this.chaincodeEvent;
  }

  /** The serialized TxReadWriteSet of everything simulated so far. */
  results(): Buffer {
    const reads = [...this.reads.values()].sort((a, b) => compareKeys(a.key, b.key));
    const writes = [...this.writes.entries()]
      .sort(([a], [b]) => compareKeys(a, b))
      .map(([key, w]) => ({ key, isDelete: w.isDelete, value: w.value }));
    const kvrwset = encode("kvrwset.KVRWSet", { reads, rangeQueriesInfo: this.rangeQueries, writes });
    const nsRwset = [{ namespace: this.namespace, rwset: kvrwset }];
    // Like a peer, the endorsement reads the chaincode's definition in _lifecycle (namespaces sorted by name).
    const definition = this.state.get(LIFECYCLE_NAMESPACE, definitionKey(this.namespace));
    if (definition !== undefined) {
      const read = {
        key: definitionKey(this.namespace),
        version: { blockNum: definition.version.blockNum, txNum: BigInt(definition.version.txNum) },
      };
      nsRwset.push({ namespace: LIFECYCLE_NAMESPACE, rwset: encode("kvrwset.KVRWSet", { reads: [read] }) });
      nsRwset.sort((a, b) => compareKeys(a.namespace, b.namespace));
    }
    return encode("rwset.TxReadWriteSet", { dataModel: 0, nsRwset });
  }
}
