import * as pulumi from "@pulumi/pulumi";
import type { InventorySourceGroupDeletionShape } from "../../provider/resources/inventory-source-group-deletion";
import { RESOURCES } from "../../provider/registry";
import type { Inputs } from "../inputs";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { ResourceOptions } from "../provider";

export const INVENTORY_SOURCE_GROUP_DELETION_TYPE: string = RESOURCES.inventorySourceGroupDeletion.dynamicType;

/** An InventorySourceGroupDeletion's inputs (inventory-source-group-deletion.ts's shape, each an Input). */
export type InventorySourceGroupDeletionArgs = Inputs<InventorySourceGroupDeletionShape>;

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
