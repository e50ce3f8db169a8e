/**
 * The shapes of the configuration messages a channel's capabilities are read from (protos/common/configtx.proto;
 * conventions as messages.ts). Fabric's maps of messages are repeated entries here, in wire order.
 */
import type { Envelope } from "./messages";

/** The data of a CONFIG envelope's payload. */
export interface ConfigEnvelope {
  readonly config?: Config;
  readonly lastUpdate?: Envelope;
}

export interface Config {
  readonly sequence: bigint;
  readonly channelGroup?: ConfigGroup;
}

export interface ConfigGroup {
  readonly version: bigint;
  readonly groups: readonly ConfigEntry<ConfigGroup>[];
  readonly values: readonly ConfigEntry<ConfigValue>[];
  readonly policies: readonly ConfigEntry<ConfigPolicy>[];
  readonly modPolicy: string;
}

/** One entry of a Fabric map of messages. */
export interface ConfigEntry<V> {
  readonly key: string;
  readonly value?: V;
}

export interface ConfigValue {
  readonly version: bigint;
  readonly value: Uint8Array;
  readonly modPolicy: string;
}

/** common.Policy: a policy's type (SIGNATURE 1, MSP 2, IMPLICIT_META 3) and its serialized value. */
export interface Policy {
  readonly type: number;
  readonly value: Uint8Array;
}

export interface ConfigPolicy {
  readonly version: bigint;
  readonly policy?: Policy;
  readonly modPolicy: string;
}

/** The value of a group's "Capabilities" ConfigValue: the capability names are the keys. */
export interface Capabilities {
  readonly capabilities: readonly ConfigEntry<Readonly<Record<string, never>>>[];
}

/** common.Metadata: a block metadata entry. */
export interface Metadata {
  readonly value: Uint8Array;
  readonly signatures: readonly {
    readonly signatureHeader: Uint8Array;
    readonly signature: Uint8Array;
    readonly identifierHeader: Uint8Array;
  }[];
}

/** common.OrdererBlockMetadata: the value of a block's SIGNATURES metadata since Fabric 1.4.1. */
export interface OrdererBlockMetadata {
  readonly lastConfig?: LastConfig;
  readonly consenterMetadata: Uint8Array;
}

export interface LastConfig {
  readonly index: bigint;
}
