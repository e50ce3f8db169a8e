import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type { ChannelMsp, ChannelOrganizationShape } from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { updateInputs } from "./channel-args";
import type { ChannelPartCredentials, ChannelUpdateArgs } from "./channel-args";

/** The dynamic resource's type (module "ledger", type "ChannelOrganization"). Frozen: state names it. */
export const CHANNEL_ORGANIZATION_TYPE: string = RESOURCES.channelOrganization.dynamicType;

/** A ChannelOrganization's inputs (channel-shapes.ts's ChannelOrganizationShape). */
export type ChannelOrganizationArgs = ChannelUpdateArgs<ChannelOrganizationShape>;

/**
 * An application organization's membership of a running channel: its MSP (certificates, node OUs) and policies, as
 * configtxgen writes them from its MSP folder. Adding it needs the Application group's Admins (by default a majority
 * of the channel's organizations' admins, each a signer by reference: key file, environment variable, HSM, Cloud KMS);
 * preview shows the organization before (absent) and after, and names the organizations whose admins are still
 * missing. Its anchor peers are a ChannelAnchorPeers' (docs/channels.md).
 */
export class ChannelOrganization extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channelOrganization);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChannelOrganization {
    return hasFaceType(ChannelOrganization.faceTypes, obj);
  }
  /** The organization's MSP and policies as the channel had them when last applied or refreshed. */
  declare readonly organization: pulumi.Output<ChannelMsp>;
  /** The channel's configuration sequence when this part was last applied or refreshed. */
  declare readonly configSequence: pulumi.Output<number>;
  /** The configuration block (a decimal string) holding it. */
  declare readonly configBlock: pulumi.Output<string>;
  /**
   * The keys and PINs given as values, which refresh reads the channel with. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelPartCredentials>;

  constructor(name: string, args: ChannelOrganizationArgs, opts?: ResourceOptions) {
    super(RESOURCES.channelOrganization, name, { ...updateInputs(args), organization: args.organization }, opts);
  }
}
