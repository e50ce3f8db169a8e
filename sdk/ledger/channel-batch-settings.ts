import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChannelBatchSettingsShape,
  ChannelBatchSize,
} from "../../provider/resources/ledger/channel/channel-shapes";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { ResourceOptions } from "../provider";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { updateInputs } from "./channel-args";
import type { ChannelPartCredentials, ChannelUpdateArgs } from "./channel-args";

/** The dynamic resource's type (module "ledger", type "ChannelBatchSettings"). Frozen: state names it. */
export const CHANNEL_BATCH_SETTINGS_TYPE: string = RESOURCES.channelBatchSettings.dynamicType;

/** A ChannelBatchSettings' inputs (channel-shapes.ts's ChannelBatchSettingsShape). */
export type ChannelBatchSettingsArgs = ChannelUpdateArgs<ChannelBatchSettingsShape>;

/**
 * How a running channel's orderers cut blocks: its batch timeout and any of its batch size's fields, each owned only
 * when given. Preview reads the channel and shows each owned field as the channel has it and as declared, the
 * update's elements and who approves them (the Orderer group's admins); `up` sends that update once, signed by the
 * identity and `signers` (any of the package's signers), and waits for its configuration block; a channel that
 * already has them is adopted. A field another admin changed since the stack recorded it is refused until `pulumi
 * refresh` shows and records it (docs/channels.md).
 */
export class ChannelBatchSettings extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.channelBatchSettings);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChannelBatchSettings {
    return hasFaceType(ChannelBatchSettings.faceTypes, obj);
  }
  /** The batch timeout as the channel had it when last applied or refreshed. */
  declare readonly batchTimeout: pulumi.Output<string | undefined>;
  /** The owned batch size fields as the channel had them when last applied or refreshed. */
  declare readonly batchSize: pulumi.Output<ChannelBatchSize | undefined>;
  /** The channel's configuration sequence when this part was last applied or refreshed. */
  declare readonly configSequence: pulumi.Output<number>;
  /** The configuration block (a decimal string) holding it. */
  declare readonly configBlock: pulumi.Output<string>;
  /**
   * The keys and PINs given as values, which refresh reads the channel with. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<ChannelPartCredentials>;

  constructor(name: string, args: ChannelBatchSettingsArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.channelBatchSettings,
      name,
      {
        ...updateInputs(args),
        ...(args.batchTimeout === undefined ? {} : { batchTimeout: args.batchTimeout }),
        ...(args.batchSize === undefined ? {} : { batchSize: args.batchSize }),
      },
      opts,
    );
  }
}
