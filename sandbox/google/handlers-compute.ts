/**
 * Compute routes: firewallPolicies.move (asynchronous, idempotent by requestId), firewallPolicies.get and
 * globalOrganizationOperations.get. Move and get permissions are inherited from the policy's folders and
 * organization; a principal bound to the hierarchy reads only the policies its grants cover (hierarchy.ts).
 */
import { moveOperationView, newComputeOperationName } from "./compute-operations";
import { computePermissionDenied, iamPermissionDenied, invalidField, notFound } from "./google-errors";
import { ancestry, holds, mayRead, READ_PERMISSIONS } from "./hierarchy";
import { ok, type GoogleFailure, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { COMPUTE_READ_SCOPES, COMPUTE_WRITE_SCOPES } from "./scopes";
import { randomUint64Id, type FirewallPolicyRecord } from "./state";
import type { FirewallPolicy, FirewallPolicyRule } from "./wire";

export const MOVE_PERMISSION = "compute.firewallPolicies.move";
const FIREWALL_POLICY_PATTERN = "(firewallPolicies/)?[0-9]{0,20}";
const OPERATION_PATTERN = "[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?|[1-9][0-9]{0,19}";
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const ZERO_UUID = "00000000-0000-0000-0000-000000000000";
const PARENT = /^(folders|organizations)\/([0-9]{1,19})$/;

function computeInvalid(field: string, value: string, rule: string): GoogleFailure {
  return invalidField(field, `Invalid value for field '${field}': '${value}'. ${rule}`, "invalid");
}

/** The numeric id of a `firewallPolicy` path parameter, or a 400. */
function policyId(raw: string): string | GoogleFailure {
  const m = /^(?:firewallPolicies\/)?([0-9]{1,20})$/.exec(raw);
  return m?.[1] ?? computeInvalid("firewallPolicy", raw, `Must be a match of regex '${FIREWALL_POLICY_PATTERN}'`);
}

function policyNotFound(id: string): GoogleFailure {
  return notFound(`The resource 'locations/global/firewallPolicies/${id}' was not found`);
}

function defaultRules(): FirewallPolicyRule[] {
  const rule = (priority: number, direction: "INGRESS" | "EGRESS", range: string): FirewallPolicyRule => ({
    kind: "compute#firewallPolicyRule",
    description: `default ${direction.toLowerCase()} rule`,
    priority,
    match: {
      layer4Configs: [{ ipProtocol: "all" }],
      ...(direction === "INGRESS" ? { srcIpRanges: [range] } : { destIpRanges: [range] }),
    },
    action: "goto_next",
    direction,
    ruleTupleCount: 2,
  });
  return [
    rule(2147483644, "INGRESS", "::/0"),
    rule(2147483645, "EGRESS", "::/0"),
    rule(2147483646, "INGRESS", "0.0.0.0/0"),
    rule(2147483647, "EGRESS", "0.0.0.0/0"),
  ];
}

export function firewallPolicyView(policy: FirewallPolicyRecord, computeRoot: string): FirewallPolicy {
  const selfLink = `${computeRoot}/compute/v1/locations/global/firewallPolicies/${policy.id}`;
  const rules = defaultRules();
  return {
    kind: "compute#firewallPolicy",
    id: policy.id,
    creationTimestamp: policy.creationTimestamp,
    name: policy.id,
    shortName: policy.shortName,
    ...(policy.description === undefined ? {} : { description: policy.description }),
    rules,
    fingerprint: policy.fingerprint,
    selfLink,
    selfLinkWithId: selfLink,
    ruleTupleCount: rules.reduce((n, r) => n + r.ruleTupleCount, 0),
    parent: policy.parent,
  };
}

function move(context: RequestContext): RouteResult {
  const { state, env, query, nowMs, principal } = context;
  const id = policyId(context.params["firewallPolicy"] ?? "");
  if (typeof id !== "string") return id;
  const parentId = query.get("parentId");
  if (parentId === null || parentId === "") {
    return invalidField("parentId", "Required field 'parentId' not specified", "required");
  }
  const parent = PARENT.exec(parentId);
  if (parent === null) {
    return computeInvalid("parentId", parentId, "Must be 'folders/<folder_id>' or 'organizations/<organization_id>'.");
  }
  const requestId = query.get("requestId") ?? undefined;
  if (requestId !== undefined && (!UUID.test(requestId) || requestId === ZERO_UUID)) {
    return computeInvalid(
      "requestId",
      requestId,
      `The requestId must be a valid UUID with the exception that zero UUID is not supported (${ZERO_UUID}).`,
    );
  }
  const ancestors = ancestry(state, state.firewallPolicy(id)?.parent);
  if (!holds(state, principal, MOVE_PERMISSION, `firewallPolicies/${id}`, ancestors)) {
    return iamPermissionDenied(MOVE_PERMISSION, `locations/global/firewallPolicies/${id}`);
  }
  if (requestId !== undefined) {
    const original = state.moveOperationByRequestId(requestId);
    if (original !== undefined) return ok(moveOperationView(original, nowMs, env.endpoints.compute));
  }
  if (state.firewallPolicy(id) === undefined) return policyNotFound(id);
  const parentNumber = parent[2] ?? "";
  const parentExists =
    parent[1] === "folders" ? state.folderExists(parentNumber) : state.organizationExists(parentNumber);
  if (!parentExists) return notFound(`The resource '${parentId}' was not found`);
  const record = {
    id: randomUint64Id(),
    name: newComputeOperationName(nowMs),
    policyId: id,
    to: parentId,
    ...(requestId === undefined ? {} : { requestId }),
    principal,
    insertMs: nowMs,
    durationMs: env.moveDurationMs,
    outcome: env.moveOutcome(),
    settled: false,
  };
  state.addMoveOperation(record);
  state.settle(nowMs);
  return ok(moveOperationView(record, nowMs, env.endpoints.compute));
}

function getPolicy(context: RequestContext): RouteResult {
  const id = policyId(context.params["firewallPolicy"] ?? "");
  if (typeof id !== "string") return id;
  const { state, principal } = context;
  const policy = state.firewallPolicy(id);
  const permission = READ_PERMISSIONS.firewallPolicy;
  if (!mayRead(state, principal, permission, `firewallPolicies/${id}`, policy?.parent)) {
    return computePermissionDenied(permission, `locations/global/firewallPolicies/${id}`);
  }
  if (policy === undefined) return policyNotFound(id);
  return ok(firewallPolicyView(policy, context.env.endpoints.compute));
}

function getOperation(context: RequestContext): RouteResult {
  const name = context.params["operation"] ?? "";
  if (!new RegExp(`^(?:${OPERATION_PATTERN})$`).test(name)) {
    return computeInvalid("operation", name, `Must be a match of regex '${OPERATION_PATTERN}'`);
  }
  const op = context.state.moveOperationByNameOrId(name);
  if (op === undefined) return notFound(`The resource 'locations/global/operations/${name}' was not found`);
  return ok(moveOperationView(op, context.nowMs, context.env.endpoints.compute));
}

const COMPUTE_SERVICE = "compute.googleapis.com";

export const COMPUTE_ROUTES: readonly Route[] = [
  {
    id: "compute.firewallPolicies.move",
    service: "compute",
    method: "POST",
    template: "/compute/v1/locations/global/firewallPolicies/{firewallPolicy}/move",
    api: () => ({ service: COMPUTE_SERVICE, method: "compute.v1.FirewallPoliciesService.Move" }),
    scopes: COMPUTE_WRITE_SCOPES,
    body: "empty",
    queryParams: ["parentId", "requestId"],
    invalidReason: "invalid",
    handle: move,
  },
  {
    id: "compute.firewallPolicies.get",
    service: "compute",
    method: "GET",
    template: "/compute/v1/locations/global/firewallPolicies/{firewallPolicy}",
    api: () => ({ service: COMPUTE_SERVICE, method: "compute.v1.FirewallPoliciesService.Get" }),
    scopes: COMPUTE_READ_SCOPES,
    body: "empty",
    queryParams: [],
    invalidReason: "invalid",
    handle: getPolicy,
  },
  {
    id: "compute.globalOrganizationOperations.get",
    service: "compute",
    method: "GET",
    template: "/compute/v1/locations/global/operations/{operation}",
    api: () => ({ service: COMPUTE_SERVICE, method: "compute.v1.GlobalOrganizationOperationsService.Get" }),
    scopes: COMPUTE_READ_SCOPES,
    body: "empty",
    queryParams: ["parentId"],
    invalidReason: "invalid",
    handle: getOperation,
  },
];
