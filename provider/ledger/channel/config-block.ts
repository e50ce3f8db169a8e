/**
 * A configuration block: one CONFIG envelope whose payload carries the channel's whole configuration
 * (Envelope → Payload (CONFIG) → ConfigEnvelope → Config), and the last-config index every block's metadata records.
 */
import { codecs } from "../codec";
import type { Config } from "../config-messages";
import { LedgerError } from "../../errors/ledger/ledger-error";
import type { Block, Envelope } from "../messages";
import { HeaderType } from "../unwrap";
import { TxValidationCode } from "../../errors/ledger/validation-codes";

/** What a configuration block holds. */
export interface ConfigBlock {
  readonly number: bigint;
  /** The channel of its CONFIG envelope's header. */
  readonly channelId: string;
  readonly config: Config;
  /** The CONFIG_UPDATE envelope that produced it (absent in a genesis block). */
  readonly lastUpdate?: Envelope;
}

const SIGNATURES = 0;
const LAST_CONFIG = 1;

/** The last-config index a block's metadata records (protoutil.GetLastConfigIndexFromBlock). */
export function lastConfigIndexOf(block: Block): bigint {
  const entries = block.metadata?.metadata ?? [];
  const number = block.header?.number ?? 0n;
  const signatures = codecs.Metadata.decode(entries[SIGNATURES] ?? new Uint8Array(0), {
    path: `Block ${number.toString()}.metadata[SIGNATURES]`,
  });
  if (signatures.value.length > 0) {
    const obm = codecs.OrdererBlockMetadata.decode(signatures.value, { path: "OrdererBlockMetadata" });
    if (obm.lastConfig !== undefined) return obm.lastConfig.index;
  }
  // Blocks cut before Fabric 1.4.1 kept it in the deprecated LAST_CONFIG entry.
  const legacy = codecs.Metadata.decode(entries[LAST_CONFIG] ?? new Uint8Array(0), { path: "metadata[LAST_CONFIG]" });
  if (legacy.value.length > 0) return codecs.LastConfig.decode(legacy.value, { path: "LastConfig" }).index;
  throw new LedgerError({ message: `block ${number.toString()} records no last configuration block in its metadata` });
}

/**
 * The configuration a block holds. `channel` (when given) is the channel the caller expects, for the message of a
 * block that is not a configuration block. Throws LedgerError for a block without a CONFIG envelope, LedgerDecodeError
 * for bytes that do not decode.
 */
export function readConfigBlock(block: Block, channel?: string): ConfigBlock {
  const number = block.header?.number ?? 0n;
  const data = block.data?.data[0];
  const path = `Block ${number.toString()}`;
  const context = { path, validationCode: TxValidationCode.INVALID_CONFIG_TRANSACTION };
  const payload = codecs.Payload.decode(codecs.Envelope.decode(data ?? new Uint8Array(0), context).payload, context);
  const header = codecs.ChannelHeader.decode(payload.header?.channelHeader ?? new Uint8Array(0), context);
  if (data === undefined || header.type !== HeaderType.CONFIG || (block.data?.data.length ?? 0) !== 1) {
    const named = channel === undefined ? "" : `, named as channel '${channel}''s last configuration block,`;
    throw new LedgerError({ message: `block ${number.toString()}${named} holds no CONFIG transaction` });
  }
  const envelope = codecs.ConfigEnvelope.decode(payload.data, { ...context, path: `${path} ConfigEnvelope` });
  return {
    number,
    channelId: header.channelId,
    config: envelope.config ?? { sequence: 0n },
    ...(envelope.lastUpdate === undefined ? {} : { lastUpdate: envelope.lastUpdate }),
  };
}
