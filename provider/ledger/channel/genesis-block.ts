/**
 * A channel's genesis block from a declared configuration, as `configtxgen -outputBlock` makes it from a profile
 * (internal/configtxgen/encoder NewChannelGroup, common/genesis Block) for the parts a declaration covers: the Channel
 * group (policies, HashingAlgorithm SHA256, BlockDataHashingStructure, Capabilities, global OrdererAddresses only
 * before V3_0), the Orderer group (policies with BlockValidation, BatchSize, BatchTimeout, ChannelRestrictions,
 * Capabilities, ConsensusType with etcdraft metadata or SmartBFT options and the Orderers mapping, whose identities
 * make BlockValidation a quorum), the Application group (policies, ACLs, Capabilities) and each organization (see
 * organization-declaration.ts); every element at version 0 with mod_policy Admins. The block: number 0, one unsigned
 * CONFIG envelope, data hash SHA-256 of the data, LAST_CONFIG and SIGNATURES metadata naming block 0. The orderers
 * join with it through the channel participation API (no system channel).
 */
import { codecs } from "../codec";
import type { Config, ConfigGroup, ConfigPolicy, EtcdRaftOptions, SmartBftOptions } from "../config-messages";
import { concatBytes, sha256 } from "../hash";
import type { Block } from "../messages";
import { computeTxId, newNonce } from "../proposal";
import { HeaderType } from "../unwrap";
import type { BatchSizeConfig, CapabilitySets, OrdererConsenter } from "./channel-config";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { checkCapabilities } from "./capabilities";
import { ADMINS, GROUP, VALUE, emptyGroup } from "./config-tree";
import { checkBatchSize, checkBatchTimeout, checkConsenters, consensusValues } from "./orderer-values";
import { checkOrganization, organizationGroup } from "./organization-declaration";
import type { OrganizationDeclaration } from "./organization-declaration";
import { policyFromText } from "./policy-text";
import type { PolicyText } from "./policy-text";

export interface ChannelDeclaration {
  /** Lower-case letters, digits, '.' and '-', starting with a letter (Fabric's channel id rule). */
  readonly channelId: string;
  /** The network's Fabric version: capabilities are checked against it. */
  readonly fabricVersion?: string;
  readonly capabilities: CapabilitySets;
  /** @default ANY Readers, ANY Writers, MAJORITY Admins */
  readonly policies?: Readonly<Record<string, PolicyText>>;
  readonly orderer: {
    readonly consensus: "etcdraft" | "BFT";
    readonly organizations: readonly OrganizationDeclaration[];
    readonly consenters: readonly OrdererConsenter[];
    /** A Go duration. @default "2s" */
    readonly batchTimeout?: string;
    /** @default 500 messages, 10 MiB absolute, 2 MiB preferred (configtxgen's sample) */
    readonly batchSize?: BatchSizeConfig;
    /** etcdraft: @default configtxgen's (500ms, 10, 1, 5, 16 MiB) */
    readonly etcdRaftOptions?: EtcdRaftOptions;
    /** BFT: the whole options message (configtxgen takes a profile's SmartBFT section as it is). */
    readonly smartBftOptions?: Partial<SmartBftOptions>;
    /** @default the channel's three plus BlockValidation ANY Writers */
    readonly policies?: Readonly<Record<string, PolicyText>>;
    /** Global orderer addresses (channels before V3_0 only). */
    readonly addresses?: readonly string[];
  };
  readonly application: {
    readonly organizations: readonly OrganizationDeclaration[];
    /** @default the channel's three plus LifecycleEndorsement and Endorsement MAJORITY Endorsement */
    readonly policies?: Readonly<Record<string, PolicyText>>;
    readonly acls?: Readonly<Record<string, string>>;
  };
}

export const DEFAULT_BATCH_TIMEOUT = "2s";
export const DEFAULT_BATCH_SIZE: BatchSizeConfig = {
  maxMessageCount: 500,
  absoluteMaxBytes: 10 * 1024 * 1024,
  preferredMaxBytes: 2 * 1024 * 1024,
};
export const DEFAULT_ETCDRAFT_OPTIONS: EtcdRaftOptions = {
  tickInterval: "500ms",
  electionTick: 10,
  heartbeatTick: 1,
  maxInflightBlocks: 5,
  snapshotIntervalSize: 16 * 1024 * 1024,
};

const meta = (rule: string): PolicyText => ({ type: "ImplicitMeta", rule });
const CHANNEL_POLICIES = {
  Readers: meta("ANY Readers"),
  Writers: meta("ANY Writers"),
  Admins: meta("MAJORITY Admins"),
};
const CHANNEL_ID = /^[a-z][a-z0-9.-]*$/;
const MAX_CHANNEL_ID_LENGTH = 249;

function policies(texts: Readonly<Record<string, PolicyText>>): { key: string; value: ConfigPolicy }[] {
  return Object.entries(texts).map(([key, text]) => ({
    key,
    value: { version: 0n, policy: policyFromText(text), modPolicy: ADMINS },
  }));
}

function value(key: string, bytes: Uint8Array, modPolicy: string = ADMINS) {
  return { key, value: { version: 0n, value: bytes, modPolicy } };
}

function capabilities(names: readonly string[]): Uint8Array {
  return codecs.Capabilities.encode({ capabilities: [...names].sort().map((key) => ({ key, value: {} })) });
}

function check(declaration: ChannelDeclaration): void {
  const { channelId, fabricVersion, capabilities: caps, orderer } = declaration;
  if (!CHANNEL_ID.test(channelId) || channelId.length > MAX_CHANNEL_ID_LENGTH)
    throw new ChannelConfigError({
      problem: "CHANNEL_ID",
      field: "channelId",
      message: `'${channelId}' is not a channel id Fabric accepts: lower-case letters, digits, '.' and '-', starting with a letter, under 250 characters`,
    });
  checkCapabilities(caps.channel, "channel", "capabilities.channel", fabricVersion);
  checkCapabilities(caps.orderer, "orderer", "capabilities.orderer", fabricVersion);
  checkCapabilities(caps.application, "application", "capabilities.application", fabricVersion);
  const v3 = caps.channel.includes("V3_0");
  if (orderer.consensus === "BFT" && !v3)
    throw new ChannelConfigError({
      problem: "UNSUPPORTED_CAPABILITY",
      field: "capabilities.channel",
      message: "a BFT orderer needs the channel capability V3_0",
    });
  if (v3 && (orderer.addresses ?? []).length > 0)
    throw new ChannelConfigError({
      problem: "ORDERER_ENDPOINT",
      field: "orderer.addresses",
      message:
        "global orderer addresses cannot be used with the channel capability V3_0: give each orderer organization its endpoints",
    });
  if (orderer.organizations.length === 0 || orderer.consenters.length === 0)
    throw new ChannelConfigError({
      problem: "CONSENTER",
      field: "orderer",
      message: "a channel needs at least one orderer organization and one consenter",
    });
  orderer.organizations.forEach((org) => {
    checkOrganization(org, `orderer.organizations[${org.mspId}]`);
    if (v3 && (org.endpoints ?? []).length === 0)
      throw new ChannelConfigError({
        problem: "ORDERER_ENDPOINT",
        field: `orderer.organizations[${org.mspId}].endpoints`,
        organization: org.mspId,
        message: `${org.mspId} needs its orderers' endpoints: the channel capability V3_0 requires them`,
      });
  });
  for (const [kind, orgs] of [
    ["orderer", orderer.organizations],
    ["application", declaration.application.organizations],
  ] as const) {
    const seen = new Set<string>();
    for (const org of orgs) {
      if (seen.has(org.mspId))
        throw new ChannelConfigError({
          problem: "DUPLICATE_ORGANIZATION",
          field: `${kind}.organizations[${org.mspId}]`,
          organization: org.mspId,
          message: `${org.mspId} is declared twice among the ${kind} organizations`,
        });
      seen.add(org.mspId);
    }
  }
  declaration.application.organizations.forEach((org) => {
    checkOrganization(org, `application.organizations[${org.mspId}]`);
  });
  checkConsenters(orderer.consenters);
  checkBatchTimeout(orderer.batchTimeout ?? DEFAULT_BATCH_TIMEOUT, "orderer.batchTimeout");
  checkBatchSize(orderer.batchSize ?? DEFAULT_BATCH_SIZE, "orderer.batchSize");
}

function ordererGroup(declaration: ChannelDeclaration): ConfigGroup {
  const o = declaration.orderer;
  const consensus = codecs.ConsensusType.encode({
    type: o.consensus,
    metadata:
      o.consensus === "etcdraft"
        ? codecs.EtcdRaftMetadata.encode({ consenters: [], options: o.etcdRaftOptions ?? DEFAULT_ETCDRAFT_OPTIONS })
        : codecs.SmartBftOptions.encode(o.smartBftOptions ?? {}),
  });
  const size = o.batchSize ?? DEFAULT_BATCH_SIZE;
  let group: ConfigGroup = {
    ...emptyGroup(),
    policies: policies(o.policies ?? { ...CHANNEL_POLICIES, BlockValidation: meta("ANY Writers") }),
    values: [
      value(VALUE.BATCH_SIZE, codecs.BatchSize.encode(size)),
      value(VALUE.BATCH_TIMEOUT, codecs.BatchTimeout.encode({ timeout: o.batchTimeout ?? DEFAULT_BATCH_TIMEOUT })),
      value(VALUE.CHANNEL_RESTRICTIONS, codecs.ChannelRestrictions.encode({ maxCount: 0n })),
      ...(declaration.capabilities.orderer.length === 0
        ? []
        : [value(VALUE.CAPABILITIES, capabilities(declaration.capabilities.orderer))]),
      value(VALUE.CONSENSUS_TYPE, consensus),
    ],
    groups: o.organizations.map((org) => ({ key: org.name ?? org.mspId, value: organizationGroup(org, "orderer") })),
    modPolicy: ADMINS,
  };
  const path = `/${GROUP.CHANNEL}/${GROUP.ORDERER}`;
  for (const [key, bytes] of consensusValues(group, o.consenters, path)) {
    const rest = group.values.filter((v) => v.key !== key);
    group = { ...group, values: [...rest, value(key, bytes)] };
  }
  if (o.consensus === "BFT") group = { ...group, policies: withBftBlockValidation(group.policies, o.consenters) };
  return group;
}

/** BlockValidation of a BFT channel: a quorum ⌈(n + f + 1) / 2⌉ of the consenters' identities (policies/bft.go). */
function withBftBlockValidation(
  entries: readonly { key: string; value?: ConfigPolicy }[],
  consenters: readonly OrdererConsenter[],
): { key: string; value: ConfigPolicy }[] {
  const n = consenters.length;
  const f = Math.floor((n - 1) / 3);
  const envelope = codecs.SignaturePolicyEnvelope.encode({
    rule: { nOutOf: { n: Math.ceil((n + f + 1) / 2), rules: consenters.map((_c, i) => ({ signedBy: i })) } },
    identities: consenters.map((c) => ({
      principalClassification: 2,
      principal: codecs.SerializedIdentity.encode({
        mspid: c.mspId ?? "",
        idBytes: new TextEncoder().encode(c.identity ?? ""),
      }),
    })),
  });
  const policy = { version: 0n, policy: { type: 1, value: envelope }, modPolicy: ADMINS };
  const kept = entries.filter((e) => e.key !== "BlockValidation") as { key: string; value: ConfigPolicy }[];
  return [...kept, { key: "BlockValidation", value: policy }];
}

/** The configuration a declaration describes (sequence 0, every version 0). Throws ChannelConfigError first. */
export function buildChannelConfig(declaration: ChannelDeclaration): Config {
  check(declaration);
  const app = declaration.application;
  const endorsement = meta("MAJORITY Endorsement");
  const application: ConfigGroup = {
    ...emptyGroup(),
    policies: policies(
      app.policies ?? { ...CHANNEL_POLICIES, LifecycleEndorsement: endorsement, Endorsement: endorsement },
    ),
    values: [
      ...(app.acls === undefined || Object.keys(app.acls).length === 0
        ? []
        : [
            value(
              VALUE.ACLS,
              codecs.Acls.encode({
                acls: Object.keys(app.acls)
                  .sort()
                  .map((key) => ({ key, value: { policyRef: app.acls?.[key] ?? "" } })),
              }),
            ),
          ]),
      ...(declaration.capabilities.application.length === 0
        ? []
        : [value(VALUE.CAPABILITIES, capabilities(declaration.capabilities.application))]),
    ],
    groups: app.organizations.map((org) => ({
      key: org.name ?? org.mspId,
      value: organizationGroup(org, "application"),
    })),
    modPolicy: ADMINS,
  };
  const addresses = declaration.orderer.addresses ?? [];
  const channel: ConfigGroup = {
    ...emptyGroup(),
    policies: policies(declaration.policies ?? CHANNEL_POLICIES),
    values: [
      value(VALUE.HASHING_ALGORITHM, codecs.HashingAlgorithm.encode({ name: "SHA256" })),
      value(VALUE.BLOCK_DATA_HASHING_STRUCTURE, codecs.BlockDataHashingStructure.encode({ width: 0xffffffff })),
      ...(addresses.length === 0
        ? []
        : [value(VALUE.ORDERER_ADDRESSES, codecs.OrdererAddresses.encode({ addresses }), "/Channel/Orderer/Admins")]),
      ...(declaration.capabilities.channel.length === 0
        ? []
        : [value(VALUE.CAPABILITIES, capabilities(declaration.capabilities.channel))]),
    ],
    groups: [
      { key: GROUP.ORDERER, value: ordererGroup(declaration) },
      { key: GROUP.APPLICATION, value: application },
    ],
    modPolicy: ADMINS,
  };
  return { sequence: 0n, channelGroup: channel };
}

const METADATA_ENTRIES = 5;
/** common/genesis's msgVersion: the genesis CONFIG envelope's channel header version. */
const GENESIS_MESSAGE_VERSION = 1;

/**
 * The genesis block of `config` (the CONFIG envelope unsigned, as configtxgen writes it). configtxgen's header carries
 * the time and a random nonce; a caller that must build the same block again (a retry joining the orderers it has not
 * joined yet) passes both.
 */
export function genesisBlock(
  channelId: string,
  config: Config,
  now: () => Date = () => new Date(),
  nonce: Uint8Array = newNonce(),
): Block {
  const signatureHeader = codecs.SignatureHeader.encode({ nonce });
  const channelHeader = codecs.ChannelHeader.encode({
    type: HeaderType.CONFIG,
    version: GENESIS_MESSAGE_VERSION,
    channelId,
    timestamp: { seconds: BigInt(Math.floor(now().getTime() / 1000)), nanos: 0 },
    txId: computeTxId(nonce, new Uint8Array(0)),
  });
  const data = codecs.ConfigEnvelope.encode({ config });
  const payload = codecs.Payload.encode({ header: { channelHeader, signatureHeader }, data });
  const envelope = codecs.Envelope.encode({ payload });
  const metadata: Uint8Array[] = Array.from({ length: METADATA_ENTRIES }, () => new Uint8Array(0));
  metadata[0] = codecs.Metadata.encode({ value: codecs.OrdererBlockMetadata.encode({ lastConfig: { index: 0n } }) });
  metadata[1] = codecs.Metadata.encode({ value: codecs.LastConfig.encode({ index: 0n }) });
  return {
    header: { number: 0n, previousHash: new Uint8Array(0), dataHash: sha256(concatBytes(envelope)) },
    data: { data: [envelope] },
    metadata: { metadata },
  };
}
