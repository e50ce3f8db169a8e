import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { ResourceOptions } from "../provider";

export const INVENTORY_SOURCE_GROUP_DELETION_TYPE: string = RESOURCES.inventorySourceGroupDeletion.dynamicType;

export interface InventorySourceGroupDeletionArgs {
  /** The group's id, an int64 as a decimal string. */
  inventorySourceGroupId: pulumi.Input<string>;
  /** The owning partner (exactly one of partnerId / advertiserId). Only the owning partner may delete a partner-owned group. */
  partnerId?: pulumi.Input<string>;
  /** The owning advertiser (exactly one of partnerId / advertiserId). A parent partner has no access to an advertiser-owned group. */
  advertiserId?: pulumi.Input<string>;
  /** Display & Video 360 API version. @default opsledger:displayVideoApiVersion, else "v1" (deprecated: prefer "v4") */
  apiVersion?: pulumi.Input<string>;
}

/**
 * Deletes a Display & Video 360 inventory source group. A 404 counts as already deleted; destroying this resource
 * does nothing (a deletion cannot be undone); a refresh that finds the group again shows drift and the next update
 * deletes it again.
 */
export class InventorySourceGroupDeletion extends OpsLedgerDynamicResource {
  /** The type string of this class's resources (what `validateResourceOfType` of @pulumi/policy matches). */
  static readonly __pulumiType: string = INVENTORY_SOURCE_GROUP_DELETION_TYPE;
  /** "deleted", or "alreadyAbsent" when the group was gone before this resource ran. */
  declare readonly outcome: pulumi.Output<string>;
  /** partners/<id> or advertisers/<id>. */
  declare readonly owner: pulumi.Output<string>;

  constructor(name: string, args: InventorySourceGroupDeletionArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.inventorySourceGroupDeletion,
      name,
      {
        ...args,
        outcome: undefined,
        owner: undefined,
      },
      opts,
    );
  }
}
