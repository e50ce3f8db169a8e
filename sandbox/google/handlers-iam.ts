/**
 * IAM routes: v1 workforcePools.getIamPolicy and the v3beta folder operations (google.longrunning.Operations). A
 * principal bound to the hierarchy reads only the pools and folder operations its grants cover (hierarchy.ts).
 */
import { createHash } from "node:crypto";
import { iamPermissionDenied, invalidField, notFound } from "./google-errors";
import { mayRead, READ_PERMISSIONS } from "./hierarchy";
import { iamOperationView } from "./iam-operations";
import { checkKnownFields, parseJsonObject } from "./request-checks";
import { ok, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { IAM_SCOPES } from "./scopes";
import type { SeedWorkforcePool } from "./seed-types";
import type { Binding, Policy } from "./wire";

/** Workforce pool ids: 6-63 characters, lower-case letters, digits and hyphens, starting with a letter. */
const WORKFORCE_POOL_ID = /^[a-z][a-z0-9-]{4,61}[a-z0-9]$/;
const VALID_POLICY_VERSIONS: readonly number[] = [0, 1, 3];

function readRequestedVersion(value: unknown): number | "invalid" | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === "number") return Number.isInteger(value) ? value : "invalid";
  if (typeof value === "string" && /^-?[0-9]+$/.test(value)) return Number(value);
  return "invalid";
}

/**
 * The policy as returned for a requested version. Version 3 (or a policy without conditions) comes back as
 * stored. For versions 0/1 a conditional binding's role gets the `_withcond_<hash>` suffix and loses its
 * condition, which is what IAM does for clients that do not understand conditions.
 */
export function policyForVersion(pool: SeedWorkforcePool, requested: number): Policy {
  const stored = pool.policy;
  if (stored.bindings.length === 0) {
    return stored.auditConfigs === undefined
      ? { etag: stored.etag }
      : { auditConfigs: structuredClone([...stored.auditConfigs]), etag: stored.etag };
  }
  const hasConditions = stored.bindings.some((b) => b.condition !== undefined);
  const conditionsVisible = requested === 3 || !hasConditions;
  const bindings: Binding[] = stored.bindings.map((b) => {
    if (b.condition === undefined) return { role: b.role, members: [...b.members] };
    if (conditionsVisible) return { role: b.role, members: [...b.members], condition: { ...b.condition } };
    const hash = createHash("sha256").update(b.condition.expression).digest("hex").slice(0, 20);
    return { role: `${b.role}_withcond_${hash}`, members: [...b.members] };
  });
  const policy: Policy = { version: conditionsVisible ? stored.version : 1, bindings, etag: stored.etag };
  if (stored.auditConfigs !== undefined) policy.auditConfigs = structuredClone([...stored.auditConfigs]);
  return policy;
}

function getIamPolicy(context: RequestContext): RouteResult {
  const { location, pool } = context.params as { location: string; pool: string };
  const resource = `locations/${location}/workforcePools/${pool}`;
  if (location !== "global") {
    return invalidField(
      "resource",
      `Invalid resource name '${resource}': workforce pools exist only in location 'global'.`,
    );
  }
  if (!WORKFORCE_POOL_ID.test(pool)) {
    return invalidField(
      "resource",
      `Invalid resource name '${resource}': the workforce pool id must be 6 to 63 lower-case letters, digits or hyphens, start with a letter and not end with a hyphen.`,
    );
  }
  const parsed = parseJsonObject(context.body);
  if (!parsed.ok) return parsed.failure;
  const unknownTop = checkKnownFields(parsed.value, ["options"]);
  if (unknownTop !== undefined) return unknownTop;
  const options = parsed.value["options"];
  let requested = 0;
  if (options !== undefined && options !== null) {
    if (typeof options !== "object" || Array.isArray(options)) {
      return invalidField("options", `Invalid value at 'options': expected an object (GetPolicyOptions).`);
    }
    const optionsRecord = options as Record<string, unknown>;
    const unknownOption = checkKnownFields(optionsRecord, ["requestedPolicyVersion"], "options");
    if (unknownOption !== undefined) return unknownOption;
    const version = readRequestedVersion(optionsRecord["requestedPolicyVersion"]);
    if (version === "invalid" || (version !== undefined && !VALID_POLICY_VERSIONS.includes(version))) {
      return invalidField(
        "options.requested_policy_version",
        `Invalid requested policy version ${JSON.stringify(optionsRecord["requestedPolicyVersion"])}: valid values are 0, 1 and 3.`,
      );
    }
    requested = version ?? 0;
  }
  const { state, principal } = context;
  const stored = state.workforcePool(resource);
  const permission = READ_PERMISSIONS.workforcePoolPolicy;
  if (!mayRead(state, principal, permission, resource, stored?.parent)) {
    return iamPermissionDenied(permission, `//iam.googleapis.com/${resource}`);
  }
  if (stored === undefined) return notFound(`Resource '${resource}' was not found.`);
  return ok(policyForVersion(stored, requested));
}

function getOperation(context: RequestContext): RouteResult {
  const { folder, location, operation } = context.params as { folder: string; location: string; operation: string };
  const name = `folders/${folder}/locations/${location}/operations/${operation}`;
  if (!/^[0-9]{1,19}$/.test(folder)) {
    return invalidField("name", `Invalid resource name '${name}': the folder id must be a number.`);
  }
  const { state, principal } = context;
  const permission = READ_PERMISSIONS.iamOperation;
  if (!mayRead(state, principal, permission, name, `folders/${folder}`)) {
    return iamPermissionDenied(permission, `//iam.googleapis.com/${name}`);
  }
  const record = state.iamOperation(name);
  if (record === undefined) return notFound(`Resource '${name}' was not found.`);
  return ok(iamOperationView(record, context.nowMs));
}

export const IAM_ROUTES: readonly Route[] = [
  {
    id: "iam.workforcePools.getIamPolicy",
    service: "iam",
    method: "POST",
    template: "/v1/locations/{location}/workforcePools/{pool}:getIamPolicy",
    api: () => ({ service: "iam.googleapis.com", method: "google.iam.admin.v1.WorkforcePools.GetIamPolicy" }),
    scopes: IAM_SCOPES,
    body: "json",
    queryParams: [],
    invalidReason: "badRequest",
    handle: getIamPolicy,
  },
  {
    id: "iam.operations.get",
    service: "iam",
    method: "GET",
    template: "/v3beta/folders/{folder}/locations/{location}/operations/{operation}",
    api: () => ({ service: "iam.googleapis.com", method: "google.longrunning.Operations.GetOperation" }),
    scopes: IAM_SCOPES,
    body: "empty",
    queryParams: [],
    invalidReason: "badRequest",
    handle: getOperation,
  },
];
