/**
 * Input checks of the dynamic resources, built on the Google client's validators so that a resource and a direct
 * client call reject the same input with the same words. Each returns failures (property + reason) for `check`.
 */
import type { FieldFailure } from "../errors";
import { ValidationError } from "../errors";
import {
  checkEndpointParams,
  checkFirewallPolicy,
  checkIamOperationName,
  checkParentId,
  checkRequestId,
  parseComputeOperationRef,
} from "../google/validation";
import { getEndpoint } from "../google/endpoints";
import type { CheckResult } from "../google/endpoint-types";

function failure(property: string, result: CheckResult): FieldFailure[] {
  return "reason" in result ? [{ property: result.property ?? property, reason: result.reason }] : [];
}

export function moveInputFailures(news: {
  firewallPolicy?: unknown;
  parentId?: unknown;
  requestId?: unknown;
}): FieldFailure[] {
  return [
    ...(news.firewallPolicy === undefined
      ? [
          {
            property: "firewallPolicy",
            reason: "is required: a numeric firewall policy id or 'locations/global/firewallPolicies/<id>'",
          },
        ]
      : failure("firewallPolicy", checkFirewallPolicy(news.firewallPolicy))),
    ...(news.parentId === undefined
      ? [{ property: "parentId", reason: "is required: 'folders/<digits>' or 'organizations/<digits>'" }]
      : failure("parentId", checkParentId(news.parentId))),
    ...(news.requestId === undefined ? [] : failure("requestId", checkRequestId(news.requestId))),
  ];
}

/** The numeric id of a firewall policy reference (the input itself when it is not a valid reference). */
export function normalizeFirewallPolicy(value: string): string {
  const result = checkFirewallPolicy(value);
  return "value" in result ? String(result.value) : value;
}

export function inventorySourceGroupInputFailures(news: {
  inventorySourceGroupId?: unknown;
  partnerId?: unknown;
  advertiserId?: unknown;
  apiVersion?: unknown;
}): FieldFailure[] {
  const params: Record<string, unknown> = { inventorySourceGroupId: news.inventorySourceGroupId };
  for (const key of ["partnerId", "advertiserId", "apiVersion"] as const)
    if (news[key] !== undefined) params[key] = news[key];
  return checkEndpointParams(getEndpoint("displayvideo.inventorySourceGroups.delete"), params).failures;
}

export type OperationRef = { kind: "compute"; name: string } | { kind: "longrunning"; name: string };

/** An IAM long-running operation name (folders/…/operations/…) or a compute operation selfLink / name. */
export function operationRef(operation: string): OperationRef {
  if (operation.startsWith("folders/")) return { kind: "longrunning", name: operation };
  return { kind: "compute", name: parseComputeOperationRef(operation).operation };
}

export function operationInputFailures(operation: unknown): FieldFailure[] {
  if (typeof operation !== "string" || operation === "") {
    return [
      {
        property: "operation",
        reason:
          "is required: a compute operation selfLink or name, or 'folders/<folder>/locations/<location>/operations/<operation>'",
      },
    ];
  }
  if (operation.startsWith("folders/")) return failure("operation", checkIamOperationName(operation));
  try {
    parseComputeOperationRef(operation);
    return [];
  } catch (e) {
    if (e instanceof ValidationError) return e.failures.map((f) => ({ property: "operation", reason: f.reason }));
    throw e;
  }
}
