import { LedgerError } from "./ledger-error";

/** What the ledger's checks need of a channel's capabilities: V3_0 (Ed25519 identities accepted) or not. */
export type ChannelCapabilityLevel = "V2_0" | "V3_0";

/** The capabilities of a channel, as its newest configuration block has them. */
export interface ChannelCapabilities {
  readonly channel: string;
  /** The Channel group's capabilities, e.g. ["V3_0"]. */
  readonly channelGroup: readonly string[];
  readonly application: readonly string[];
  readonly orderer: readonly string[];
  /** The number of the configuration block they were read from. */
  readonly configBlock: bigint;
  /** "V3_0" when the Channel group has V3_0 (MSPv3_0: Ed25519 identities), else "V2_0". */
  readonly level: ChannelCapabilityLevel;
}

/** Why resolveChannelCapabilities refused. */
export type ChannelCapabilityProblem =
  "KEY_TYPE_NOT_ACCEPTED" | "ASSERTION_DISAGREES" | "IDENTITY_REFUSED" | "NOT_A_READER" | "UNREADABLE";

/**
 * The identity cannot be used on the channel, or the channel's capabilities disagree with the `channelCapability`
 * assertion, or they could not be read and nothing was asserted. Nothing was endorsed or submitted. `field` is the
 * input to fix (`identity.certificatePem` or `channelCapability`); `capabilities` what the channel has, when read.
 */
export class ChannelCapabilityError extends LedgerError {
  static override readonly kind: string = "ChannelCapabilityError";
  readonly problem: ChannelCapabilityProblem;
  readonly field: "identity.certificatePem" | "channelCapability";
  readonly capabilities: ChannelCapabilities | undefined;

  constructor(
    properties: Readonly<{
      problem: ChannelCapabilityProblem;
      field: "identity.certificatePem" | "channelCapability";
      message: string;
      capabilities?: ChannelCapabilities | undefined;
      cause?: unknown;
    }>,
  ) {
    super({ message: properties.message, cause: properties.cause });
    this.problem = properties.problem;
    this.field = properties.field;
    this.capabilities = properties.capabilities;
  }
}
