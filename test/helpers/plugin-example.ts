/**
 * What the e2e tests of the plugin's example programs (test/e2e/plugin-examples.test.ts, plugin-python, plugin-import)
 * read from the Google sandbox and a stack: the moves the API made, the requests that were not reads, the move's state
 * and its block of a printed diff.
 */
import { strict as assert } from "node:assert";
import type { GoogleSandbox } from "../../sandbox/google";
import type { ProjectStack } from "./project-stack";

/** The move's type token. */
export const MOVE = "opsledger:compute:FirewallPolicyMove";

/** The sandbox routes of the five data sources the examples read. */
export const DATA_SOURCE_READS = [
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
  "deploymentmanager.deployments.get",
  "workspaceevents.subscriptions.get",
  "displayvideo.advertisers.creatives.get",
] as const;

/** The firewall policy moves the API made (the audit's entries from API calls, not from the control plane). */
export function apiMoves(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === "api");
}

/** Every request but a read (`getIamPolicy` is a POST that reads). */
export function mutatingRequests(sandbox: GoogleSandbox) {
  return sandbox.requests().filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
}

/** The move's URN and outputs in the stack's state. */
export async function moveState(stack: ProjectStack): Promise<{ urn: string; outputs: Record<string, unknown> }> {
  const resource = ((await stack.exportState()).resources ?? []).find((r) => r.type === MOVE);
  assert.ok(resource, "the move is in state under its type token");
  return { urn: resource.urn, outputs: resource.outputs ?? {} };
}

/** The lines of the printed diff that belong to the move's block (from its header to the next resource). */
export function moveBlock(output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.includes(`${MOVE}:`));
  assert.ok(start >= 0, output);
  const end = lines.findIndex(
    (l, i) => i > start && /^\s*(Resources:|Outputs:|[+~-] opsledger|[+~-]? ?pulumi:|opsledger:)/.test(l),
  );
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The changed lines of the move's block, trimmed, `key: old => new` (what a reviewer reads). */
export function moveChanges(output: string): string[] {
  return moveBlock(output)
    .filter((l) => /^\s*[~+-] /.test(l))
    .map((l) => l.trim().replace(/\s+:/, ":"));
}
