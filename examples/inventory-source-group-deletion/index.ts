/**
 * Makes sure a Display & Video 360 inventory source group is deleted. The resource exists while the group is absent:
 * `pulumi refresh` drops it from state when the group comes back, and the next `pulumi up` deletes it again;
 * `pulumi destroy` is a no-op (a deletion cannot be undone). Exactly one owner: partnerId or advertiserId.
 * Defaults are ids of the sandbox's fixture (`npm run sandbox`): group 5005, owned by partner 1001.
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const advertiserId = config.get("advertiserId");
const partnerId = config.get("partnerId") ?? (advertiserId === undefined ? "1001" : undefined);

const deletion = new opsledger.displayvideo.InventorySourceGroupDeletion("spare-group", {
  inventorySourceGroupId: config.get("inventorySourceGroupId") ?? "5005",
  ...(partnerId === undefined ? {} : { partnerId }),
  ...(advertiserId === undefined ? {} : { advertiserId }),
});

export const outcome = deletion.outcome;
export const owner = deletion.owner;
