import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChannelAnchorPeer,
  ChannelAnchorPeersShape,
} from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { updateInputs } from "./channel-args";
import type { ChannelPartCredentials, ChannelUpdateArgs } from "./channel-args";

/** The dynamic resource's type (module "ledger", type "ChannelAnchorPeers"). Frozen: state names it. */
export const CHANNEL_ANCHOR_PEERS_TYPE: string = RESOURCES.channelAnchorPeers.dynamicType;

/** A ChannelAnchorPeers' inputs (channel-shapes.ts's ChannelAnchorPeersShape). */
export type ChannelAnchorPeersArgs = ChannelUpdateArgs<ChannelAnchorPeersShape>;

/**
 * One application organization's anchor peers in a running channel (the whole list), which that organization's own
 * admin may set alone. An organization the channel does not have is refused, with those it has, before anything is
 * sent (docs/channels.md).
 */
export class ChannelAnchorPeers extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channelAnchorPeers);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChannelAnchorPeers {
    return hasFaceType(ChannelAnchorPeers.faceTypes, obj);
  }
  /** The anchor peers as the channel had them when last applied or refreshed. */
  declare readonly anchorPeers: pulumi.Output<ChannelAnchorPeer[]>;
  /** The channel's configuration sequence when this part was last applied or refreshed. */
  declare readonly configSequence: pulumi.Output<number>;
  /** The configuration block (a decimal string) holding it. */
  declare readonly configBlock: pulumi.Output<string>;
  /**
   * The keys and PINs given as values, which refresh reads the channel with. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelPartCredentials>;

  constructor(name: string, args: ChannelAnchorPeersArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.channelAnchorPeers,
      name,
      { ...updateInputs(args), mspId: args.mspId, anchorPeers: args.anchorPeers },
      opts,
    );
  }
}
