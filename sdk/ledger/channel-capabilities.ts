import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChannelCapabilitiesShape,
  ChannelCapabilityLevels,
} from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { updateInputs } from "./channel-args";
import type { ChannelPartCredentials, ChannelUpdateArgs } from "./channel-args";

/** The dynamic resource's type (module "ledger", type "ChannelCapabilities"). Frozen: state names it. */
export const CHANNEL_CAPABILITIES_TYPE: string = RESOURCES.channelCapabilities.dynamicType;

/** A ChannelCapabilities' inputs (channel-shapes.ts's ChannelCapabilitiesShape). */
export type ChannelCapabilitiesArgs = ChannelUpdateArgs<ChannelCapabilitiesShape>;

/**
 * A running channel's capabilities at the levels given (Channel, Orderer, Application; each the whole set), checked
 * against what the network's Fabric release supports (`fabricVersion`) before anything is sent. Raising the Channel
 * group's needs its Admins (by default a majority of the orderer organizations' and the application organizations'),
 * which `signers` provide by reference; preview names any organization still missing (docs/channels.md).
 */
export class ChannelCapabilities extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channelCapabilities);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChannelCapabilities {
    return hasFaceType(ChannelCapabilities.faceTypes, obj);
  }
  /** The owned levels' capabilities as the channel had them when last applied or refreshed. */
  declare readonly capabilities: pulumi.Output<ChannelCapabilityLevels>;
  /** The channel's configuration sequence when this part was last applied or refreshed. */
  declare readonly configSequence: pulumi.Output<number>;
  /** The configuration block (a decimal string) holding it. */
  declare readonly configBlock: pulumi.Output<string>;
  /**
   * The keys and PINs given as values, which refresh reads the channel with. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelPartCredentials>;

  constructor(name: string, args: ChannelCapabilitiesArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.channelCapabilities,
      name,
      {
        ...updateInputs(args),
        capabilities: args.capabilities,
        ...(args.fabricVersion === undefined ? {} : { fabricVersion: args.fabricVersion }),
      },
      opts,
    );
  }
}
