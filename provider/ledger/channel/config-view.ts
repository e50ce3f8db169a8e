/**
 * What `opsledger-ledger decode` adds for channel configuration files: a configuration block (or its CONFIG envelope)
 * as the readable ChannelConfig, and a configuration update — bare (configtxlator compute_update's output), in its
 * ConfigUpdateEnvelope, or in a CONFIG_UPDATE envelope (what admins pass around to sign) — as its read and write sets
 * with the values decoded, and who signed it.
 */
import * as crypto from "node:crypto";
import { codecs } from "../codec";
import type { ConfigSignature } from "../config-messages";
import type { Block, Envelope } from "../messages";
import { HeaderType } from "../unwrap";
import { readConfigBlock } from "./config-block";
import { signerOf } from "./config-update-signing";
import { describeConfigBlock, describeChannelConfig } from "./describe-config";
import { describeConfigUpdate } from "./describe-update";

function signaturesView(signatures: readonly ConfigSignature[]): { mspId: string; subject: string | null }[] {
  return signatures.map((s) => {
    const who = signerOf(s);
    let subject: string | null = null;
    try {
      subject = new crypto.X509Certificate(Buffer.from(who.credentials)).subject.replace(/\n/g, ", ");
    } catch {
      subject = null;
    }
    return { mspId: who.mspId, subject };
  });
}

function updateView(updateBytes: Uint8Array, signatures?: readonly ConfigSignature[]): Record<string, unknown> {
  const view = describeConfigUpdate(codecs.ConfigUpdate.decode(updateBytes, { path: "ConfigUpdate" }));
  return signatures === undefined ? { ...view } : { ...view, signatures: signaturesView(signatures) };
}

function envelopeView(envelope: Envelope): Record<string, unknown> | undefined {
  const payload = codecs.Payload.decode(envelope.payload);
  const header = codecs.ChannelHeader.decode(payload.header?.channelHeader ?? new Uint8Array(0));
  if (header.type === HeaderType.CONFIG_UPDATE) {
    const inner = codecs.ConfigUpdateEnvelope.decode(payload.data, { path: "ConfigUpdateEnvelope" });
    return {
      configUpdate: { envelopeChannelId: header.channelId, ...updateView(inner.configUpdate, inner.signatures) },
    };
  }
  if (header.type === HeaderType.CONFIG) {
    const config = codecs.ConfigEnvelope.decode(payload.data, { path: "ConfigEnvelope" }).config;
    return config === undefined ? undefined : { channelConfig: describeChannelConfig(config, header.channelId) };
  }
  return undefined;
}

function blockView(block: Block): Record<string, unknown> | undefined {
  try {
    const config = readConfigBlock(block);
    const lastUpdate = config.lastUpdate === undefined ? undefined : envelopeView(config.lastUpdate);
    return {
      channelConfig: describeConfigBlock(config),
      ...(lastUpdate === undefined ? {} : { lastUpdate: lastUpdate.configUpdate }),
    };
  } catch {
    return undefined;
  }
}

/** The channel configuration views of a decoded file of `type`, or undefined when it holds none (or they do not decode). */
export function channelConfigView(type: string, bytes: Uint8Array): Record<string, unknown> | undefined {
  try {
    return viewOf(type, bytes);
  } catch {
    return undefined;
  }
}

function viewOf(type: string, bytes: Uint8Array): Record<string, unknown> | undefined {
  if (type === "Block") return blockView(codecs.Block.decode(bytes));
  if (type === "Envelope") return envelopeView(codecs.Envelope.decode(bytes));
  if (type === "ConfigUpdateEnvelope") {
    const inner = codecs.ConfigUpdateEnvelope.decode(bytes);
    return { configUpdate: updateView(inner.configUpdate, inner.signatures) };
  }
  if (type === "ConfigUpdate") return { configUpdate: updateView(bytes) };
  return undefined;
}
