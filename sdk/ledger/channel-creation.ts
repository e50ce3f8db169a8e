import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChannelNode,
  ChannelOrdererCredentials,
  ChannelOrdererStatus,
  ChannelShape,
} from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { nodeInputs } from "./channel-args";
import type { ChannelNodeArgs } from "./channel-args";
import type { Inputs } from "./inputs";

/** The dynamic resource's type (module "ledger", type "Channel"). Frozen: state names it. */
export const CHANNEL_TYPE: string = RESOURCES.channel.dynamicType;

/** A Channel's inputs (channel-shapes.ts's ChannelShape): each of `orderers` a plain object of Inputs. */
export type ChannelArgs = Inputs<ChannelShape, "orderers", { orderers: ChannelNodeArgs[] }>;

/**
 * A channel created from a declared configuration: its genesis block built as configtxgen builds one and joined to
 * each orderer through its channel participation API over mutual TLS (`osnadmin channel join`), an orderer that has
 * the channel already adopted. The declaration is the genesis; afterwards the channel changes through
 * ChannelOrganization, ChannelAnchorPeers, ChannelCapabilities and ChannelBatchSettings. Peers join with ChannelPeer
 * (`genesisBlock`). Destroying it sends nothing (docs/channels.md).
 */
export class Channel extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channel);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is Channel {
    return hasFaceType(Channel.faceTypes, obj);
  }
  /** The channel id. */
  declare readonly channel: pulumi.Output<string>;
  /** The orderers' admin endpoints, by reference (client TLS keys given as values only under `credentials`). */
  declare readonly orderers: pulumi.Output<Omit<ChannelNode, "clientKeyPem">[]>;
  /** The genesis block every orderer has, base64: what a ChannelPeer joins a peer with. */
  declare readonly genesisBlock: pulumi.Output<string>;
  /** Each orderer's view of the channel, and whether it had it already. */
  declare readonly joined: pulumi.Output<ChannelOrdererStatus[]>;
  /**
   * The orderers' client TLS keys given as values. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelOrdererCredentials>;

  constructor(name: string, args: ChannelArgs, opts?: ResourceOptions) {
    const { orderers, ...declaration } = args;
    super(
      RESOURCES.channel,
      name,
      {
        ...declaration,
        orderers: orderers.map(nodeInputs),
        genesisBlock: undefined,
        joined: undefined,
        credentials: undefined,
      },
      opts,
    );
  }
}
