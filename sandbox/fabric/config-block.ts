/**
 * The channel's configuration as a real channel's genesis block carries it (configtxgen's output, read by qscc
 * GetBlockByNumber and decoded by clients for the channel's capabilities): one unsigned CONFIG envelope whose payload
 * data is a common.ConfigEnvelope {config: Config {sequence 0, channel_group}}, the Channel group holding the channel
 * capability and the Application (one group per organization, and the endorsement policies) and Orderer groups their
 * own; and the block
 * metadata every block has since Fabric 1.4.1, SIGNATURES = Metadata {value: OrdererBlockMetadata {last_config}}.
 *
 * Written field by field here (map entries are {key = 1, value = 2} messages, in key order as Go marshals them), not
 * through the client library: the sandbox shares only the .proto files with it.
 */
import { lengthDelimitedField, varintField } from "./wire";
import { HeaderType } from "./channel-config";

/** The capabilities the configuration holds, by group. */
export interface SandboxCapabilities {
  readonly channel: readonly string[];
  readonly application: readonly string[];
  readonly orderer: readonly string[];
}

const utf8 = (text: string): Buffer => Buffer.from(text, "utf8");

/** One entry of a protobuf map<string, Message>. */
function entry(field: number, key: string, value: Buffer): Buffer {
  return lengthDelimitedField(
    field,
    Buffer.concat([lengthDelimitedField(1, utf8(key)), lengthDelimitedField(2, value)]),
  );
}

/** common.Capabilities {capabilities = 1: map<string, Capability{}>}. */
function capabilities(names: readonly string[]): Buffer {
  return Buffer.concat([...names].sort().map((n) => entry(1, n, Buffer.alloc(0))));
}

/** common.ConfigValue {version = 1, value = 2, mod_policy = 3}. */
function configValue(value: Buffer): Buffer {
  return Buffer.concat([lengthDelimitedField(2, value), lengthDelimitedField(3, utf8("Admins"))]);
}

/** common.ConfigGroup {version = 1, groups = 2, values = 3, policies = 4, mod_policy = 5}. */
function configGroup(
  groups: Readonly<Record<string, Buffer>>,
  values: Readonly<Record<string, Buffer>>,
  policies: Readonly<Record<string, Buffer>> = {},
): Buffer {
  const sorted = (field: number, record: Readonly<Record<string, Buffer>>) =>
    Object.keys(record)
      .sort()
      .map((k) => entry(field, k, record[k] ?? Buffer.alloc(0)));
  return Buffer.concat([
    ...sorted(2, groups),
    ...sorted(3, values),
    ...sorted(4, policies),
    lengthDelimitedField(5, utf8("Admins")),
  ]);
}

/** ImplicitMetaPolicy rules, as configtxgen writes "ANY/ALL/MAJORITY <sub-policy>". */
export const IMPLICIT_META_RULES = { any: 0, all: 1, majority: 2 } as const;

/**
 * common.ConfigPolicy {policy = 2: Policy {type = 1 (IMPLICIT_META 3), value = 2: ImplicitMetaPolicy {sub_policy = 1,
 * rule = 2}}, mod_policy = 3}.
 */
function implicitMetaPolicy(rule: keyof typeof IMPLICIT_META_RULES, subPolicy: string): Buffer {
  const meta = Buffer.concat([lengthDelimitedField(1, utf8(subPolicy)), varintField(2, IMPLICIT_META_RULES[rule])]);
  const policy = Buffer.concat([varintField(1, 3), lengthDelimitedField(2, meta)]);
  return Buffer.concat([lengthDelimitedField(2, policy), lengthDelimitedField(3, utf8("Admins"))]);
}

/**
 * The serialized CONFIG envelope of the channel's genesis block. The Application group's Endorsement policy is the
 * sandbox's endorsement rule over its organizations, and its LifecycleEndorsement `MAJORITY Endorsement`, as
 * configtxgen's sample profile writes them (what chaincode definitions are committed under).
 */
export function configEnvelope(
  channel: string,
  organizations: readonly string[],
  caps: SandboxCapabilities,
  /** The Endorsement rule; undefined: no policies (the genesis block of snapshots taken before there were any). */
  endorsementRule: keyof typeof IMPLICIT_META_RULES | undefined,
): Buffer {
  const withCapabilities = (names: readonly string[]) => ({ Capabilities: configValue(capabilities(names)) });
  const application = configGroup(
    Object.fromEntries(organizations.map((o) => [o, configGroup({}, {})])),
    withCapabilities(caps.application),
    endorsementRule === undefined
      ? {}
      : {
          Endorsement: implicitMetaPolicy(endorsementRule, "Endorsement"),
          LifecycleEndorsement: implicitMetaPolicy("majority", "Endorsement"),
        },
  );
  const orderer = configGroup({}, withCapabilities(caps.orderer));
  const channelGroup = configGroup({ Application: application, Orderer: orderer }, withCapabilities(caps.channel));
  const config = lengthDelimitedField(2, channelGroup); // Config {sequence = 1 (0), channel_group = 2}
  const data = lengthDelimitedField(1, config); // ConfigEnvelope {config = 1}
  // ChannelHeader {type = 1 CONFIG, channel_id = 4}; configtxgen's genesis envelope has no signature header.
  const channelHeader = Buffer.concat([varintField(1, HeaderType.CONFIG), lengthDelimitedField(4, utf8(channel))]);
  const payload = Buffer.concat([
    lengthDelimitedField(1, lengthDelimitedField(1, channelHeader)),
    lengthDelimitedField(2, data),
  ]);
  return lengthDelimitedField(1, payload); // Envelope {payload = 1}, unsigned
}

/** BlockMetadata's SIGNATURES entry: Metadata {value = 1: OrdererBlockMetadata {last_config = 1: {index = 1}}}. */
export function signaturesMetadata(lastConfig: number): Buffer {
  const lastConfigMessage = varintField(1, lastConfig);
  const obm = lengthDelimitedField(1, lastConfigMessage);
  return lengthDelimitedField(1, obm);
}
