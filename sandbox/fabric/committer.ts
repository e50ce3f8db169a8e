/**
 * The committing peer: validates each transaction of a block in Fabric's order (core/committer/txvalidator: stage A
 * envelope checks, stage B channel and duplicate txId, stage C dispatcher with the endorsement policy, stage D MVCC and
 * phantom reads), records the per-transaction codes in the block, and applies only the valid transactions' writes.
 * Blocks are committed one at a time, in submission order.
 */
import { checkAction, type NamespaceRwSet, type RecordedApproval } from "./action-checks";
import type { ChannelConfig } from "./channel-config";
import { checkEnvelope } from "./envelope-checks";
import type { BlockEntry, Ledger } from "./ledger";
import type { ChaincodeEvent } from "./messages";
import { BlockUpdates, checkReads } from "./mvcc";
import { TxValidationCode } from "./validation-codes";
import type { StateVersion } from "./world-state";

export interface CommitOutcome {
  readonly txId: string;
  readonly code: number;
  readonly reason: string;
  readonly blockNumber: bigint;
}

interface Validated {
  readonly entry: BlockEntry;
  readonly rwsets?: readonly NamespaceRwSet[];
  readonly approval?: RecordedApproval;
}

/** Thrown to callers whose block was being validated when the sandbox was reset; nothing was committed. */
export class SandboxResetError extends Error {
  constructor() {
    super("the Fabric sandbox was reset before the block was committed");
    this.name = "SandboxResetError";
  }
}

export class Committer {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly config: ChannelConfig,
    private readonly ledger: Ledger,
  ) {}

  /** Validates and commits one block made of `envelopes`; resolves with each transaction's outcome. */
  commitBlock(envelopes: readonly Uint8Array[]): Promise<CommitOutcome[]> {
    const run = this.tail.then(() => this.validateAndAppend(envelopes));
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async validateAndAppend(envelopes: readonly Uint8Array[]): Promise<CommitOutcome[]> {
    const generation = this.ledger.generation;
    const blockNum = this.ledger.height;
    const updates = new BlockUpdates();
    const validTxIds = new Set<string>();
    const validated: Validated[] = [];
    for (const [txNum, bytes] of envelopes.entries()) {
      const result = await this.validate(Buffer.from(bytes), updates, validTxIds);
      if (result.entry.code === TxValidationCode.VALID && result.rwsets !== undefined) {
        const version: StateVersion = { blockNum, txNum };
        for (const set of result.rwsets) updates.add(set.namespace, set.kv.writes, version);
        validTxIds.add(result.entry.txId);
      }
      validated.push(result);
    }
    if (generation !== this.ledger.generation) throw new SandboxResetError();
    for (const [txNum, v] of validated.entries()) {
      if (v.entry.code !== TxValidationCode.VALID || v.rwsets === undefined) continue;
      for (const set of v.rwsets) this.ledger.state.apply(set.namespace, set.kv.writes, { blockNum, txNum });
      // An approval's private data: the organization's implicit collection, which the sandbox keeps in its store.
      const approval = v.approval;
      if (approval !== undefined) {
        this.config.lifecycle.approve(approval.mspId, approval.args.name, approval.args.sequence, {
          args: approval.args,
          packageId: approval.args.source?.localPackage?.packageId ?? "",
        });
      }
    }
    const block = this.ledger.append(validated.map((v) => v.entry));
    return block.transactions.map((t) => ({ txId: t.txId, code: t.code, reason: t.reason, blockNumber: block.number }));
  }

  private async validate(envelope: Buffer, updates: BlockUpdates, validTxIds: ReadonlySet<string>): Promise<Validated> {
    const entry = (txId: string, code: number, reason: string, event?: ChaincodeEvent): BlockEntry =>
      event === undefined ? { txId, code, reason, envelope } : { txId, code, reason, envelope, event };

    // Stage A: envelope, payload, header, creator signature, txId, endorser-transaction structure.
    const a = await checkEnvelope(envelope, this.config.msp);
    if (a.code !== TxValidationCode.VALID || a.transaction === undefined)
      return { entry: entry(a.txId, a.code, a.reason) };
    const txId = a.txId;
    // Stage B: the channel must be ours; the txId must be new (in the ledger or among this block's valid ones).
    if (a.transaction.channelHeader.channelId !== this.config.channel) {
      return {
        entry: entry(
          txId,
          TxValidationCode.TARGET_CHAIN_NOT_FOUND,
          `channel ${a.transaction.channelHeader.channelId} not found`,
        ),
      };
    }
    if (this.ledger.transaction(txId) !== undefined || validTxIds.has(txId)) {
      return { entry: entry(txId, TxValidationCode.DUPLICATE_TXID, `duplicate transaction found [${txId}]`) };
    }
    // Stage C: chaincode action, rwset, chaincode identity, namespaces, endorsement policy.
    const c = await checkAction(a.transaction, this.config, this.ledger.state);
    if (c.code !== TxValidationCode.VALID || c.rwsets === undefined) return { entry: entry(txId, c.code, c.reason) };
    // Stage D: reads and range queries against the committed state and this block's earlier valid writes.
    const d = checkReads(this.ledger.state, updates, c.rwsets);
    if (d.code !== TxValidationCode.VALID) return { entry: entry(txId, d.code, d.reason) };
    const valid = { entry: entry(txId, TxValidationCode.VALID, "", c.event), rwsets: c.rwsets };
    return c.approval === undefined ? valid : { ...valid, approval: c.approval };
  }
}
