/**
 * Display & Video 360 routes (v1..v4, identical shapes): inventorySourceGroups.delete and .get with the
 * partnerId | advertiserId owner union, and advertisers.creatives.get.
 *
 * Ownership (Display & Video 360's inventory source group rules): only the owning partner may delete a partner-owned
 * group; an advertiser-owned group is reachable only with its advertiserId (its parent partner has no access). Reads
 * also allow an advertiser a partner-owned group explicitly shared with it.
 */
import { invalidArgument, notFound, permissionDenied } from "./google-errors";
import { checkInt64 } from "./request-checks";
import { ok, type GoogleFailure, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { DISPLAY_VIDEO_SCOPES } from "./scopes";
import type { InventorySourceGroupRecord } from "./state";
import type { InventorySourceGroup } from "./wire";

const VERSION = /^v[1-4]$/;

type Caller = { readonly kind: "partner"; readonly id: string } | { readonly kind: "advertiser"; readonly id: string };

function ownerViolation(message: string): GoogleFailure {
  return invalidArgument(message, [{ field: "owner", description: message }]);
}

/** The caller named by the owner union, or a 400. */
function readCaller(context: RequestContext, groupId: string): Caller | GoogleFailure {
  const partnerId = context.query.get("partnerId");
  const advertiserId = context.query.get("advertiserId");
  if (partnerId !== null && advertiserId !== null) {
    return ownerViolation(
      `Only one of 'partnerId' or 'advertiserId' may be set for inventory source group ${groupId}; both were set.`,
    );
  }
  if (partnerId === null && advertiserId === null) {
    return ownerViolation(
      `Exactly one of 'partnerId' or 'advertiserId' must be set to identify the owner of inventory source group ${groupId}.`,
    );
  }
  if (partnerId !== null) return checkInt64("partner_id", partnerId) ?? { kind: "partner", id: partnerId };
  const advertiser = advertiserId ?? "";
  return checkInt64("advertiser_id", advertiser) ?? { kind: "advertiser", id: advertiser };
}

function callerName(caller: Caller): string {
  return caller.kind === "partner" ? `Partner ${caller.id}` : `Advertiser ${caller.id}`;
}

/** undefined when `caller` may read (write = false) or delete (write = true) `group`, else the 403. */
function checkAccess(
  context: RequestContext,
  group: InventorySourceGroupRecord,
  caller: Caller,
  write: boolean,
): GoogleFailure | undefined {
  const { state } = context;
  const groupId = group.inventorySourceGroupId;
  const exists =
    caller.kind === "partner" ? state.partnerExists(caller.id) : state.advertiserPartner(caller.id) !== undefined;
  if (!exists) return permissionDenied(`${callerName(caller)} does not exist or the caller has no access to it.`);
  const owner = group.owner;
  if ("partnerId" in owner) {
    if (caller.kind === "partner" && caller.id === owner.partnerId) return undefined;
    if (caller.kind === "advertiser" && !write && group.sharedWithAdvertiserIds.includes(caller.id)) return undefined;
    const what = write ? "write access to" : "access to";
    return permissionDenied(
      `${callerName(caller)} has no ${what} inventory source group ${groupId}: only the owning partner can ${write ? "modify" : "read"} a partner-owned group${write ? "" : " unless it was shared with the advertiser"}.`,
    );
  }
  if (caller.kind === "advertiser" && caller.id === owner.advertiserId) return undefined;
  if (caller.kind === "partner" && state.advertiserPartner(owner.advertiserId) === caller.id) {
    return permissionDenied(
      `Partner ${caller.id} has no access to inventory source group ${groupId}: it is owned by an advertiser, and a parent partner has no access to advertiser-owned groups.`,
    );
  }
  return permissionDenied(
    `${callerName(caller)} has no access to inventory source group ${groupId}: only the owning advertiser can access an advertiser-owned group.`,
  );
}

export function inventorySourceGroupView(group: InventorySourceGroupRecord): InventorySourceGroup {
  return {
    name: `inventorySourceGroups/${group.inventorySourceGroupId}`,
    inventorySourceGroupId: group.inventorySourceGroupId,
    displayName: group.displayName,
  };
}

/** The group and caller of a group request, or the failure. */
function resolveGroup(
  context: RequestContext,
  write: boolean,
): { group: InventorySourceGroupRecord; caller: Caller } | GoogleFailure {
  const id = context.params["inventorySourceGroupId"] ?? "";
  const badId = checkInt64("inventory_source_group_id", id);
  if (badId !== undefined) return badId;
  const caller = readCaller(context, id);
  if (caller.kind === "googleError") return caller;
  const group = context.state.inventorySourceGroup(id);
  if (group === undefined) return notFound(`Resource 'inventorySourceGroups/${id}' was not found.`);
  return checkAccess(context, group, caller, write) ?? { group, caller };
}

function deleteGroup(context: RequestContext): RouteResult {
  const resolved = resolveGroup(context, true);
  if ("kind" in resolved) return resolved;
  const id = resolved.group.inventorySourceGroupId;
  context.state.deleteInventorySourceGroup(id);
  context.state.record({
    timeMs: context.nowMs,
    source: "api",
    kind: "inventorySourceGroups.delete",
    target: `inventorySourceGroups/${id}`,
    details: { principal: context.principal },
  });
  return ok({});
}

function getGroup(context: RequestContext): RouteResult {
  const resolved = resolveGroup(context, false);
  if ("kind" in resolved) return resolved;
  return ok(inventorySourceGroupView(resolved.group));
}

function getCreative(context: RequestContext): RouteResult {
  const { advertiserId, creativeId } = context.params as { advertiserId: string; creativeId: string };
  const bad = checkInt64("advertiser_id", advertiserId) ?? checkInt64("creative_id", creativeId);
  if (bad !== undefined) return bad;
  const creative = context.state.creative(advertiserId, creativeId);
  if (creative === undefined) {
    return notFound(`Resource 'advertisers/${advertiserId}/creatives/${creativeId}' was not found.`);
  }
  return ok(structuredClone(creative));
}

function displayVideoApi(service: string, method: string) {
  return (params: Readonly<Record<string, string>>) => ({
    service: "displayvideo.googleapis.com",
    method: `google.ads.displayvideo.${params["version"] ?? "v4"}.${service}.${method}`,
  });
}

const GROUP_TEMPLATE = "/{version}/inventorySourceGroups/{inventorySourceGroupId}";

export const DISPLAY_VIDEO_ROUTES: readonly Route[] = [
  {
    id: "displayvideo.inventorySourceGroups.delete",
    service: "displayVideo",
    method: "DELETE",
    template: GROUP_TEMPLATE,
    paramPatterns: { version: VERSION },
    api: displayVideoApi("InventorySourceGroupService", "DeleteInventorySourceGroup"),
    scopes: DISPLAY_VIDEO_SCOPES,
    body: "empty",
    queryParams: ["partnerId", "advertiserId"],
    invalidReason: "badRequest",
    handle: deleteGroup,
  },
  {
    id: "displayvideo.inventorySourceGroups.get",
    service: "displayVideo",
    method: "GET",
    template: GROUP_TEMPLATE,
    paramPatterns: { version: VERSION },
    api: displayVideoApi("InventorySourceGroupService", "GetInventorySourceGroup"),
    scopes: DISPLAY_VIDEO_SCOPES,
    body: "empty",
    queryParams: ["partnerId", "advertiserId"],
    invalidReason: "badRequest",
    handle: getGroup,
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    service: "displayVideo",
    method: "GET",
    template: "/{version}/advertisers/{advertiserId}/creatives/{creativeId}",
    paramPatterns: { version: VERSION },
    api: displayVideoApi("CreativeService", "GetCreative"),
    scopes: DISPLAY_VIDEO_SCOPES,
    body: "empty",
    queryParams: [],
    invalidReason: "badRequest",
    handle: getCreative,
  },
];
