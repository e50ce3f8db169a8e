/**
 * A channel's capabilities, read from the channel itself through the gateway with the caller's identity (qscc
 * GetChainInfo → GetBlockByNumber of the newest block → its last-config index → GetBlockByNumber of that configuration
 * block, decoded with our codec: Envelope → Payload (CONFIG) → ConfigEnvelope → Config → the Channel, Application and
 * Orderer groups' "Capabilities" values), and `resolveChannelCapabilities`, the one check every ledger resource and
 * data source runs before it signs anything: may this identity's key type be used on this channel?
 *
 * Reads are cached per network and channel in the process (a `pulumi up` of many resources reads once; concurrent
 * callers share one read); a failed read is not cached, and a channel's are forgotten once this process has a
 * configuration update of that channel ordered (a capability raise, then a resource that needs it, in one `pulumi up`).
 * Fabric tells an identity it refuses nothing about the channel: an Ed25519 identity on a channel without V3_0 gets
 * only `creator is malformed` (Fabric 2.x) or `creator org [MSP]` (Fabric 3 without V3_0) for the read itself, and
 * the error says what that answer means (docs/decisions/0045-channel-capabilities-read-from-the-channel.md).
 */
import type * as grpc from "@grpc/grpc-js";
import { codecs } from "./codec";
import { lastConfigIndexOf, readConfigBlock } from "./channel/config-block";
import type { Config, ConfigGroup } from "./config-messages";
import type { Block } from "./messages";
import type { Gateway, ProposalRequest } from "./gateway-client";
import { GatewayError } from "../errors/ledger/gateway-error";
import { KEY_TYPE_NAMES, needsV3 } from "./key-types";
import type { KeyType } from "./key-types";
import { ChannelCapabilityError } from "../errors/ledger/channel-capability-error";
import type { ChannelCapabilities, ChannelCapabilityLevel } from "../errors/ledger/channel-capability-error";
import { LedgerReadError } from "../errors/ledger/ledger-read-error";
import { readErrorOf } from "./qscc-reads";

/** "Channel V3_0, Application V2_5, Orderer V2_0 (configuration block 0)", for messages. */
export function describeChannelCapabilities(c: ChannelCapabilities): string {
  const list = (names: readonly string[]) => (names.length === 0 ? "none" : names.join("+"));
  return (
    `Channel ${list(c.channelGroup)}, Application ${list(c.application)}, Orderer ${list(c.orderer)} ` +
    `(configuration block ${c.configBlock.toString()})`
  );
}

function qscc(channelId: string, functionName: string, args: string[]): ProposalRequest {
  return { channelId, chaincodeName: "qscc", functionName, args: [channelId, ...args] };
}

function capabilitiesOf(group: ConfigGroup | undefined): string[] {
  const value = group?.values.find((v) => v.key === "Capabilities")?.value?.value;
  if (value === undefined) return [];
  return codecs.Capabilities.decode(value, { path: "Capabilities" })
    .capabilities.map((c) => c.key)
    .sort();
}

/** The capabilities of a channel's configuration. */
export function capabilitiesOfConfig(channel: string, configBlock: bigint, config: Config): ChannelCapabilities {
  const root = config.channelGroup;
  const group = (name: string) => root?.groups.find((g) => g.key === name)?.value;
  const channelGroup = capabilitiesOf(root);
  return {
    channel,
    channelGroup,
    application: capabilitiesOf(group("Application")),
    orderer: capabilitiesOf(group("Orderer")),
    configBlock,
    level: channelGroup.includes("V3_0") ? "V3_0" : "V2_0",
  };
}

/** The capabilities a configuration block's CONFIG envelope holds. */
export function capabilitiesOfConfigBlock(channel: string, block: Block): ChannelCapabilities {
  const { number, config } = readConfigBlock(block, channel);
  return capabilitiesOfConfig(channel, number, config);
}

/**
 * The newest configuration block of a channel, read through the gateway with its identity: qscc GetChainInfo, the
 * newest block, and the block its metadata names as the last configuration block (two evaluations when the newest
 * block is that one). Nothing is endorsed for ordering. Throws LedgerReadError for what Fabric answers a read with
 * (NOT_A_READER, CHANNEL_NOT_FOUND…), GatewayError otherwise.
 */
export async function fetchConfigBlockThroughGateway(
  gateway: Gateway,
  channelId: string,
  options?: grpc.CallOptions,
): Promise<Block> {
  const context = { channel: channelId, chaincode: "qscc" };
  try {
    const info = codecs.BlockchainInfo.decode(
      await gateway.evaluateTransaction(qscc(channelId, "GetChainInfo", []), options),
    );
    const blockAt = async (n: bigint) =>
      codecs.Block.decode(
        await gateway.evaluateTransaction(qscc(channelId, "GetBlockByNumber", [n.toString()]), options),
      );
    const newest = await blockAt(info.height - 1n);
    const index = lastConfigIndexOf(newest);
    return index === (newest.header?.number ?? 0n) ? newest : await blockAt(index);
  } catch (error) {
    throw readErrorOf(error, context);
  }
}

/**
 * Reads the channel's capabilities from its newest configuration block, with the gateway's identity (three qscc
 * evaluations, two when the newest block is the configuration block). Throws as fetchConfigBlockThroughGateway.
 */
export async function readChannelCapabilities(
  gateway: Gateway,
  channelId: string,
  options?: grpc.CallOptions,
): Promise<ChannelCapabilities> {
  return capabilitiesOfConfigBlock(channelId, await fetchConfigBlockThroughGateway(gateway, channelId, options));
}

const cache = new Map<string, Promise<ChannelCapabilities>>();

/**
 * The channel's capabilities, read once per `network` and channel in this process (concurrent callers share the read;
 * a failed read is forgotten, so the next caller reads again).
 */
export function cachedChannelCapabilities(
  gateway: Gateway,
  network: string,
  channelId: string,
  options?: grpc.CallOptions,
): Promise<ChannelCapabilities> {
  const key = JSON.stringify([network, channelId]);
  let read = cache.get(key);
  if (read === undefined) {
    read = readChannelCapabilities(gateway, channelId, options);
    cache.set(key, read);
    read.catch(() => {
      if (cache.get(key) === read) cache.delete(key);
    });
  }
  return read;
}

/**
 * Forgets the cached reads of `channelId` on every network (a caller that changed that channel's configuration), or
 * every cached read when no channel is named (tests).
 */
export function forgetChannelCapabilities(channelId?: string): void {
  if (channelId === undefined) {
    cache.clear();
    return;
  }
  for (const key of cache.keys()) {
    const [, channel] = JSON.parse(key) as [string, string];
    if (channel === channelId) cache.delete(key);
  }
}

/** What resolveChannelCapabilities needs. */
export interface ChannelCapabilityRequest {
  readonly channelId: string;
  /** The identity's key type (keyTypeOf its certificate's public key). */
  readonly keyType: KeyType;
  /** The user's `channelCapability`: an assertion checked against the channel; undefined when not set. */
  readonly asserted?: ChannelCapabilityLevel | undefined;
  /** Names the network for the cache, e.g. the gateway address and its TLS root; the channel is added to it. */
  readonly network: string;
  /** Per-call options (a deadline) for the reads. */
  readonly callOptions?: grpc.CallOptions;
}

/** What resolveChannelCapabilities decided. */
export interface ChannelCapabilityResolution {
  /** The level the identity was checked against. */
  readonly level: ChannelCapabilityLevel;
  /**
   * "channel": read from the channel; "assertion": the channel could not be read (the notice says why) and the
   * assertion was used; "not-needed": an ECDSA identity and no assertion, nothing read (every channel accepts it).
   */
  readonly source: "channel" | "assertion" | "not-needed";
  readonly capabilities?: ChannelCapabilities;
  /** Set with source "assertion": what to tell the user (a warning). */
  readonly notice?: string;
}

const REFUSED = /access denied: channel \[[^\]]*\] creator org (unknown, creator is malformed|\[[^\]]*\])/;

/** Fabric's refusal of the identity itself (the endorser's creator check), or undefined. */
function creatorRefusal(error: unknown): string | undefined {
  const gatewayError = error instanceof LedgerReadError ? error.cause : error;
  if (!(gatewayError instanceof GatewayError)) return undefined;
  const texts = [gatewayError.message, ...gatewayError.details.map((d) => d.message)];
  return texts.map((t) => REFUSED.exec(t)?.[0]).find((m) => m !== undefined);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Decides, before anything is signed for ordering, whether an identity of `keyType` may be used on the channel: reads
 * the channel's capabilities (cached; only when the key type needs V3_0 or `asserted` is set) and checks the key type
 * and the assertion against them. Throws ChannelCapabilityError when the identity cannot be used, when the assertion
 * disagrees with the channel (naming both), or when the channel cannot be read and nothing was asserted for an
 * identity that needs V3_0. When the identity may not read the configuration (the Readers ACL) or the read fails
 * otherwise, an assertion is used instead, with a notice saying so.
 */
export async function resolveChannelCapabilities(
  gateway: Gateway,
  request: ChannelCapabilityRequest,
): Promise<ChannelCapabilityResolution> {
  const { channelId, keyType, asserted } = request;
  const v3 = needsV3(keyType);
  if (!v3 && asserted === undefined) return { level: "V2_0", source: "not-needed" };
  const name = KEY_TYPE_NAMES[keyType];
  let capabilities: ChannelCapabilities;
  try {
    capabilities = await cachedChannelCapabilities(gateway, request.network, channelId, request.callOptions);
  } catch (error) {
    const refused = creatorRefusal(error);
    if (refused !== undefined && v3) {
      const meaning = refused.endsWith("creator is malformed")
        ? "a Fabric 2.x peer answers so, since it cannot import Ed25519 keys and no 2.x channel has the capability V3_0 " +
          "(any peer answers so for a certificate its organization's CA did not issue)"
        : "a Fabric 3 peer answers so when the channel lacks the capability V3_0, whose MSPs refuse Ed25519 " +
          "identities ('Ed25519 is not supported'; or when the certificate is not one of the organization's)";
      const head =
        asserted === undefined
          ? `has an ${name} key, and this identity`
          : `says ${asserted}, ${asserted === "V3_0" ? "but" : "and"} this ${name} identity`;
      throw new ChannelCapabilityError({
        problem: "IDENTITY_REFUSED",
        field: asserted === undefined ? "identity.certificatePem" : "channelCapability",
        message:
          `${head} was refused even a read of channel '${channelId}''s configuration (qscc GetChainInfo; Fabric: ` +
          `${refused}): ${meaning}. Fabric shows an identity it refuses nothing of the channel's configuration, ` +
          "and nothing was endorsed or submitted. Use an ECDSA P-256 or P-384 identity here, or a Fabric 3 channel " +
          "with V3_0",
        cause: error,
      });
    }
    const notReader = error instanceof LedgerReadError && error.problem === "NOT_A_READER";
    const why = notReader
      ? `the identity may not read channel '${channelId}''s configuration (its Readers policy refused qscc)`
      : `channel '${channelId}''s configuration could not be read (${messageOf(error)})`;
    if (asserted === "V2_0" && v3) {
      throw new ChannelCapabilityError({
        problem: "KEY_TYPE_NOT_ACCEPTED",
        field: "channelCapability",
        message:
          `says V2_0 (${why}), and an ${name} identity needs a channel with the capability V3_0: use an ECDSA ` +
          "P-256 or P-384 identity, or, if the channel has V3_0, set channelCapability: 'V3_0' or leave it out",
        cause: error,
      });
    }
    if (asserted !== undefined) {
      return {
        level: asserted,
        source: "assertion",
        notice: `${why}; using channelCapability ${asserted} as declared`,
      };
    }
    throw new ChannelCapabilityError({
      problem: notReader ? "NOT_A_READER" : "UNREADABLE",
      field: "identity.certificatePem",
      message:
        `has an ${name} key, which Fabric accepts only on a channel with the capability V3_0, and ${why}: ` +
        `if '${channelId}' has V3_0, set channelCapability: 'V3_0'; otherwise use an ECDSA P-256 or P-384 identity`,
      cause: error,
    });
  }
  const described = describeChannelCapabilities(capabilities);
  if (asserted !== undefined && asserted !== capabilities.level) {
    throw new ChannelCapabilityError({
      problem: "ASSERTION_DISAGREES",
      field: "channelCapability",
      capabilities,
      message:
        `says ${asserted}, but channel '${channelId}' has ${described}: remove channelCapability (the channel's own ` +
        `configuration is read) or set it to '${capabilities.level}'`,
    });
  }
  if (v3 && capabilities.level !== "V3_0") {
    throw new ChannelCapabilityError({
      problem: "KEY_TYPE_NOT_ACCEPTED",
      field: "identity.certificatePem",
      capabilities,
      message:
        `has an ${name} key, which Fabric accepts only on a channel with the capability V3_0, and channel ` +
        `'${channelId}' has ${described}; nothing was endorsed or submitted. Use an ECDSA P-256 or P-384 identity, ` +
        "or enable V3_0 on the channel (Fabric 3 peers and orderers, a channel configuration update)",
    });
  }
  return { level: capabilities.level, source: "channel", capabilities };
}
