/**
 * displayvideo.InventorySourceGroupDeletion: makes sure a Display & Video 360 inventory source group is deleted.
 * The resource exists exactly while the group is absent: a refresh that finds the group again drops the resource from
 * state (drift), and the next `pulumi up` deletes the group again. Destroying the resource is a no-op: a deletion
 * cannot be undone.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { isApiError } from "../errors";
import { log, providerClient } from "../runtime/context";
import { nameFromUrn } from "./common";
import { inventorySourceGroupInputFailures } from "./validate";

/**
 * What a program declares: the SDK's InventorySourceGroupDeletionArgs maps it to Inputs (sdk/inputs.ts), and the
 * schema reads its doc comments (scripts/gen-schema.ts).
 */
export interface InventorySourceGroupDeletionShape {
  /** The group's id, an int64 as a decimal string. */
  inventorySourceGroupId: string;
  /** The owning partner (exactly one of partnerId / advertiserId). Only the owning partner may delete a partner-owned group. */
  partnerId?: string;
  /** The owning advertiser (exactly one of partnerId / advertiserId). A parent partner has no access to an advertiser-owned group. */
  advertiserId?: string;
  /** Display & Video 360 API version. @default opsledger:displayVideoApiVersion, else "v1" (deprecated: prefer "v4") */
  apiVersion?: string;
}

export interface InventorySourceGroupDeletionInputs extends InventorySourceGroupDeletionShape {
  /** The resource's URN (dynamic providers are not told it): set by the SDK, kept out of previews. */
  __urn: string;
}

export interface InventorySourceGroupDeletionOutputs extends InventorySourceGroupDeletionInputs {
  /** "deleted" when this resource's DELETE removed the group, "alreadyAbsent" when it was gone already (404). */
  outcome: "deleted" | "alreadyAbsent";
  owner: string;
}

function owner(inputs: InventorySourceGroupDeletionInputs): string {
  return inputs.partnerId !== undefined ? `partners/${inputs.partnerId}` : `advertisers/${inputs.advertiserId ?? "?"}`;
}

function params(inputs: InventorySourceGroupDeletionInputs) {
  return {
    inventorySourceGroupId: inputs.inventorySourceGroupId,
    ...(inputs.partnerId !== undefined ? { partnerId: inputs.partnerId } : {}),
    ...(inputs.advertiserId !== undefined ? { advertiserId: inputs.advertiserId } : {}),
    ...(inputs.apiVersion !== undefined ? { apiVersion: inputs.apiVersion } : {}),
  };
}

export const inventorySourceGroupDeletionProvider = {
  check(_olds: unknown, news: InventorySourceGroupDeletionInputs): Promise<dynamic.CheckResult> {
    const failures = inventorySourceGroupInputFailures(news);
    return Promise.resolve(failures.length > 0 ? { failures } : { inputs: news });
  },
  diff(
    _id: string,
    olds: InventorySourceGroupDeletionOutputs,
    news: InventorySourceGroupDeletionInputs,
  ): Promise<dynamic.DiffResult> {
    const replaces = (["inventorySourceGroupId", "partnerId", "advertiserId"] as const).filter(
      (k) => olds[k] !== news[k],
    );
    const changes = replaces.length > 0 || olds.apiVersion !== news.apiVersion;
    return Promise.resolve({ changes, replaces, deleteBeforeReplace: true });
  },
  async create(inputs: InventorySourceGroupDeletionInputs): Promise<dynamic.CreateResult> {
    const name = nameFromUrn(inputs.__urn);
    let outcome: InventorySourceGroupDeletionOutputs["outcome"] = "deleted";
    try {
      await providerClient().call("displayvideo.inventorySourceGroups.delete", params(inputs));
      log(
        "info",
        `InventorySourceGroupDeletion ${name}: deleted inventory source group ${inputs.inventorySourceGroupId} (owner ${owner(inputs)})`,
        inputs.__urn,
      );
    } catch (e) {
      if (!(isApiError(e) && e.httpStatus === 404)) throw e;
      outcome = "alreadyAbsent";
      log(
        "info",
        `InventorySourceGroupDeletion ${name}: inventory source group ${inputs.inventorySourceGroupId} was already gone (404); recorded as deleted`,
        inputs.__urn,
      );
    }
    const outs: InventorySourceGroupDeletionOutputs = { ...inputs, outcome, owner: owner(inputs) };
    return { id: `inventorySourceGroups/${inputs.inventorySourceGroupId}`, outs };
  },
  update(
    _id: string,
    olds: InventorySourceGroupDeletionOutputs,
    news: InventorySourceGroupDeletionInputs,
  ): Promise<dynamic.UpdateResult> {
    // Only apiVersion can change in place; the group is already deleted.
    return Promise.resolve({ outs: { ...olds, ...news } });
  },
  async read(id: string, props: InventorySourceGroupDeletionOutputs): Promise<dynamic.ReadResult> {
    try {
      await providerClient().call("displayvideo.inventorySourceGroups.get", params(props));
    } catch (e) {
      if (isApiError(e) && e.httpStatus === 404) return { id, props };
      throw e;
    }
    log(
      "info",
      `InventorySourceGroupDeletion ${nameFromUrn(props.__urn)}: inventory source group ${props.inventorySourceGroupId} exists again; the next update deletes it again`,
      props.__urn,
    );
    return { id: "" };
  },
  delete(_id: string, props: InventorySourceGroupDeletionOutputs): Promise<void> {
    log(
      "info",
      `InventorySourceGroupDeletion ${nameFromUrn(props.__urn)}: nothing to undo; inventory source group ${props.inventorySourceGroupId} stays deleted`,
      props.__urn,
    );
    return Promise.resolve();
  },
};
