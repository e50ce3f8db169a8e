/**
 * The resource hierarchy behind the sandbox's permission checks: an object's ancestors (folders up to its
 * organization), grants inherited down that chain, and which principals have their reads checked.
 *
 * Google checks every read. The sandbox checks the reads of organization objects (firewall policies, workforce pools,
 * IAM folder operations) only for a principal bound to the hierarchy: one the seed grants anything on an
 * `organizations/<id>` or `folders/<id>` resource. Such a principal sees what its grants cover and gets Google's
 * refusal for the rest; the fixture's principals hold unscoped grants and read everything, as they always did.
 */
import { principalMatches, type SandboxState } from "./state";

const HIERARCHY_RESOURCE = /^(organizations|folders)\/[0-9]{1,19}$/;
/** Deeper than any real folder tree (Google allows 10 levels): stops a cycle in a hand-written seed. */
const MAX_DEPTH = 32;

/** Permissions of the reads the sandbox scopes by organization. */
export const READ_PERMISSIONS = {
  firewallPolicy: "compute.firewallPolicies.get",
  workforcePoolPolicy: "iam.workforcePools.getIamPolicy",
  iamOperation: "iam.operations.get",
} as const;

/**
 * `parent` ("folders/<id>" or "organizations/<id>") and its ancestors, nearest first, ending at the organization.
 * Empty for no parent; a folder the seed does not know ends the chain.
 */
export function ancestry(state: SandboxState, parent: string | undefined): string[] {
  const chain: string[] = [];
  let current = parent;
  while (current !== undefined && chain.length < MAX_DEPTH && !chain.includes(current)) {
    chain.push(current);
    if (!current.startsWith("folders/")) break;
    const id = current.slice("folders/".length);
    current = state.seedData.folders.find((f) => f.id === id)?.parent;
  }
  return chain;
}

/** Whether the seed grants `principal` anything on an organization or a folder (so its reads are checked). */
export function boundToHierarchy(state: SandboxState, principal: string): boolean {
  return state.seedData.grants.some(
    (g) => g.resource !== undefined && HIERARCHY_RESOURCE.test(g.resource) && principalMatches(g.principal, principal),
  );
}

/** Whether `principal` holds `permission` on `resource` itself, on one of `ancestors`, or everywhere. */
export function holds(
  state: SandboxState,
  principal: string,
  permission: string,
  resource: string,
  ancestors: readonly string[],
): boolean {
  return [resource, ...ancestors].some((r) => state.hasPermission(principal, permission, r));
}

/**
 * Whether `principal` may read `resource` (under `parent`) with `permission`: always for a principal not bound to
 * the hierarchy, else only when a grant on the object or an ancestor covers it. An object that does not exist has no
 * ancestors, so a bound principal is refused for it as Google refuses ("or it may not exist").
 */
export function mayRead(
  state: SandboxState,
  principal: string,
  permission: string,
  resource: string,
  parent: string | undefined,
): boolean {
  if (!boundToHierarchy(state, principal)) return true;
  return holds(state, principal, permission, resource, ancestry(state, parent));
}
