/**
 * The channel ledger: the block chain (block 0 is the genesis block, holding the channel's configuration as one
 * CONFIG envelope when one is given — config-block.ts — and empty otherwise; every commit appends one block), the
 * transaction index (the first transaction stored under a txId, valid or not, as Fabric's block index), the world
 * state, and notifications for commit-status waiters and chaincode-event streams.
 */
import { createHash } from "node:crypto";
import { computeTxId } from "./channel-config";
import { signaturesMetadata } from "./config-block";
import * as der from "./der";
import type { ChaincodeEvent } from "./messages";
import { encode, tryDecode } from "./wire";
import { genesisDefinitionWrites } from "./lifecycle-store";
import { LIFECYCLE_NAMESPACE, WorldState } from "./world-state";

/** Index of the per-transaction validation codes in BlockMetadata.metadata (common.BlockMetadataIndex). */
export const TRANSACTIONS_FILTER_INDEX = 2;
/** Index of the orderer's metadata (the last configuration block's number) in BlockMetadata.metadata. */
const SIGNATURES_INDEX = 0;
const METADATA_ENTRIES = 5;

export interface StoredTransaction {
  /** The txId from the channel header; empty when the envelope did not get that far in validation. */
  readonly txId: string;
  readonly code: number;
  /** Why the committer did not mark it VALID (empty when valid). */
  readonly reason: string;
  /** The envelope bytes exactly as submitted. */
  readonly envelope: Buffer;
  readonly blockNumber: bigint;
  readonly txNum: number;
  /** The chaincode event of a valid transaction, if it set one. */
  readonly event?: ChaincodeEvent;
}

export interface StoredBlock {
  readonly number: bigint;
  readonly transactions: readonly StoredTransaction[];
  /** The serialized common.Block. */
  readonly bytes: Buffer;
  /** SHA-256 of the ASN.1 block header, the next block's previous_hash. */
  readonly headerHash: Buffer;
}

export interface BlockEntry {
  readonly txId: string;
  readonly code: number;
  readonly reason: string;
  readonly envelope: Buffer;
  readonly event?: ChaincodeEvent;
}

export type BlockListener = (block: StoredBlock) => void;

/**
 * The txId Fabric's block store indexes a transaction under (protoutil.GetOrComputeTxIDFromEnvelope, called by
 * blkstorage for every envelope whatever its validation code): the channel header's tx_id, or SHA-256(nonce ‖
 * creator) when that is empty; "" (not indexed) when the envelope, payload, header or channel header do not parse.
 * So a transaction the committer refused for a bad common header is still found by its txId, and its txId is taken.
 */
export function indexedTxId(envelopeBytes: Uint8Array): string {
  const envelope = tryDecode("common.Envelope", envelopeBytes);
  const payload = envelope === undefined ? undefined : tryDecode("common.Payload", envelope.payload);
  if (payload === undefined || payload.header === null) return "";
  const channelHeader = tryDecode("common.ChannelHeader", payload.header.channelHeader);
  if (channelHeader === undefined) return "";
  if (channelHeader.txId !== "") return channelHeader.txId;
  const signatureHeader = tryDecode("common.SignatureHeader", payload.header.signatureHeader);
  return signatureHeader === undefined ? "" : computeTxId(signatureHeader.nonce, signatureHeader.creator);
}

function headerHash(number: bigint, previousHash: Buffer, dataHash: Buffer): Buffer {
  const asn1 = der.sequence(der.integer(number), der.octetString(previousHash), der.octetString(dataHash));
  return createHash("sha256").update(asn1).digest();
}

export class Ledger {
  readonly state = new WorldState();
  private chain: StoredBlock[] = [];
  private readonly index = new Map<string, StoredTransaction>();
  private readonly listeners = new Set<BlockListener>();
  private resets = 0;

  /**
   * `chaincode`: the deployed chaincode, whose definition the genesis state holds in _lifecycle. `configEnvelope`: the
   * genesis block's CONFIG envelope (config-block.ts); block 0 is the last configuration block of every block.
   */
  constructor(
    readonly channel: string,
    private readonly chaincode?: string,
    private readonly configEnvelope?: Buffer,
  ) {
    this.reset();
  }

  /** Changes on every reset(), so that work started before a reset can tell. */
  get generation(): number {
    return this.resets;
  }

  get height(): bigint {
    return BigInt(this.chain.length);
  }

  get blocks(): readonly StoredBlock[] {
    return this.chain;
  }

  block(number: bigint): StoredBlock | undefined {
    return number < 0n ? undefined : this.chain[Number(number)];
  }

  transaction(txId: string): StoredTransaction | undefined {
    return this.index.get(txId);
  }

  /** Appends one block holding `entries` (in order) and notifies listeners. */
  append(entries: readonly BlockEntry[]): StoredBlock {
    const number = this.height;
    const transactions = entries.map((e, txNum): StoredTransaction => ({ ...e, blockNumber: number, txNum }));
    const block = this.build(number, transactions);
    this.chain.push(block);
    for (const tx of transactions) {
      const txId = tx.txId !== "" ? tx.txId : indexedTxId(tx.envelope);
      if (txId !== "" && !this.index.has(txId)) this.index.set(txId, tx);
    }
    for (const listener of [...this.listeners]) listener(block);
    return block;
  }

  /** Calls `listener` for every block appended from now on; returns the unsubscribe function. */
  onBlock(listener: BlockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Back to the genesis block with an empty world state. Listeners stay subscribed. */
  reset(): void {
    this.resets++;
    this.chain = [];
    this.index.clear();
    this.state.clear();
    if (this.chaincode !== undefined) {
      // The built-in chaincode's definition (sequence 1, its sandbox's policy as the channel's default), "committed"
      // at genesis as _lifecycle stores one (lifecycle-store.ts).
      this.state.apply(LIFECYCLE_NAMESPACE, genesisDefinitionWrites(this.chaincode), { blockNum: 0n, txNum: 0 });
    }
    this.chain.push(this.build(0n, []));
  }

  private build(number: bigint, transactions: readonly StoredTransaction[]): StoredBlock {
    // The genesis configuration transaction is in the block but in no index: it has no txId (configtxgen's has none).
    const config = number === 0n && this.configEnvelope !== undefined ? [this.configEnvelope] : [];
    const data = [...config, ...transactions.map((t) => t.envelope)];
    const dataHash = createHash("sha256").update(Buffer.concat(data)).digest();
    const previousHash =
      number === 0n ? Buffer.alloc(0) : (this.chain[Number(number) - 1]?.headerHash ?? Buffer.alloc(0));
    const metadata: Buffer[] = Array.from({ length: METADATA_ENTRIES }, () => Buffer.alloc(0));
    metadata[TRANSACTIONS_FILTER_INDEX] = Buffer.from([...config.map(() => 0), ...transactions.map((t) => t.code)]);
    if (this.configEnvelope !== undefined) metadata[SIGNATURES_INDEX] = signaturesMetadata(0);
    const bytes = encode("common.Block", {
      header: { number, previousHash, dataHash },
      data: { data },
      metadata: { metadata },
    });
    return { number, transactions, bytes, headerHash: headerHash(number, previousHash, dataHash) };
  }
}
