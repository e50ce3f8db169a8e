import * as pulumi from "@pulumi/pulumi";
import type { InventorySourceGroupDeletionShape } from "../../provider/resources/inventory-source-group-deletion";
import { RESOURCES } from "../../provider/registry";
import type { Inputs } from "../inputs";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { ResourceOptions } from "../provider";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

export const INVENTORY_SOURCE_GROUP_DELETION_TYPE: string = RESOURCES.inventorySourceGroupDeletion.dynamicType;

/** An InventorySourceGroupDeletion's inputs (inventory-source-group-deletion.ts's shape, each an Input). */
export type InventorySourceGroupDeletionArgs = Inputs<InventorySourceGroupDeletionShape>;

/**
 * Deletes a Display & Video 360 inventory source group. A 404 counts as already deleted; destroying this resource
 * does nothing (a deletion cannot be undone); a refresh that finds the group again shows drift and the next update
 * deletes it again.
 */
export class InventorySourceGroupDeletion extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.inventorySourceGroupDeletion);
  /**
   * Whether `obj` is one of this class's resources on any face: what @pulumi/policy's `validateResourceOfType` and
   * `remediateResourceOfType` ask, so that one policy guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is InventorySourceGroupDeletion {
    return hasFaceType(InventorySourceGroupDeletion.faceTypes, obj);
  }
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
