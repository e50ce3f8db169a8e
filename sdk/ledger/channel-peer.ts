import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type { ChannelPeerCredentials, ChannelPeerShape } from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { nodeInputs } from "./channel-args";
import type { ChannelNodeArgs } from "./channel-args";
import type { Inputs } from "./inputs";
import { identityInputs } from "./ledger-transaction";
import type { LedgerIdentityArgs } from "./ledger-transaction";

/** The dynamic resource's type (module "ledger", type "ChannelPeer"). Frozen: state names it. */
export const CHANNEL_PEER_TYPE: string = RESOURCES.channelPeer.dynamicType;

/** A ChannelPeer's inputs (channel-shapes.ts's ChannelPeerShape): `peer`, `identity`, `orderer` plain objects. */
export type ChannelPeerArgs = Inputs<
  ChannelPeerShape,
  "peer" | "identity" | "orderer",
  { peer: ChannelNodeArgs; identity: LedgerIdentityArgs; orderer?: ChannelNodeArgs }
>;

/**
 * A peer joined to a channel (cscc JoinChain, signed by the peer's admin), with the channel's genesis block given (a
 * Channel's `genesisBlock`) or read from an orderer. A peer that has the channel already is adopted; destroying the
 * resource sends nothing (docs/channels.md).
 */
export class ChannelPeer extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channelPeer);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChannelPeer {
    return hasFaceType(ChannelPeer.faceTypes, obj);
  }
  /** Whether the peer had the channel already when this resource was created (adopted, not joined). */
  declare readonly alreadyJoined: pulumi.Output<boolean>;
  /**
   * The keys and PINs given as values. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelPeerCredentials>;

  constructor(name: string, args: ChannelPeerArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.channelPeer,
      name,
      {
        channel: args.channel,
        peer: nodeInputs(args.peer),
        identity: identityInputs(args.identity),
        ...(args.genesisBlock === undefined ? {} : { genesisBlock: args.genesisBlock }),
        ...(args.orderer === undefined ? {} : { orderer: nodeInputs(args.orderer) }),
        alreadyJoined: undefined,
        credentials: undefined,
      },
      opts,
    );
  }
}
