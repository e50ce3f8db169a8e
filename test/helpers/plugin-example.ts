/**
 * What the e2e tests of the plugin's example programs (examples/yaml, examples/go, examples/python) read from the Google
 * sandbox and a stack: the moves the API made, the requests that were not reads, the move's state and its block of a
 * printed diff; and the bodies they share (read-only preview, first up, the parent change, drift, destroy).
 */
import { strict as assert } from "node:assert";
import type { GoogleSandbox } from "../../sandbox/google";
import { changeSummary } from "./project-stack";
import type { ProjectStack } from "./project-stack";
import { FIXTURE } from "./fixture-ids";
import { READER, READ_ONLY_SCOPES, deployerConfig, parentOf, plainStrings, tokenConfig } from "./sandbox-config";
import type { ConfigMap } from "@pulumi/pulumi/automation";

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

/**
 * The read-only preview both examples show (the stack's config holds the reader's token): the four resources and the
 * default provider to create, every data source read through the plugin, no mutating request, nothing done; the
 * creative's name, as each program exports it. Returns the preview for the caller's own checks.
 */
export async function previewsReadOnly(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  options: { explicitProviders?: number } = {},
): Promise<Awaited<ReturnType<ProjectStack["preview"]>>> {
  // A program's explicit providers (examples/python's second organization) are resources of their own to create.
  const explicit = options.explicitProviders ?? 0;
  const preview = await stack.preview({ diff: true });
  assert.deepEqual(changeSummary(preview.events), { create: 4 + explicit });
  assert.deepEqual(preview.steps.map((s) => s.type).sort(), [
    "opsledger:compute:FirewallPolicyMove",
    "opsledger:displayvideo:InventorySourceGroupDeletion",
    "opsledger:operations:OperationWait",
    ...Array<string>(1 + explicit).fill("pulumi:providers:opsledger"),
    "pulumi:pulumi:Stack",
  ]);
  const routes = new Set(sandbox.requests().map((r) => r.route));
  assert.deepEqual(
    DATA_SOURCE_READS.filter((r) => !routes.has(r)),
    [],
  );
  assert.deepEqual(mutatingRequests(sandbox), []);
  assert.equal(sandbox.audit().length, 0);
  assert.match(preview.stdout, /creativeName\s*: "Spring launch 30s"/);
  return preview;
}

/**
 * The first up both examples make (the stack's config holds the deployer's token): the policy moved from its original
 * parent to folder A with one move under the state's requestId, group 5005 deleted, the operation DONE. Returns the
 * up and the move's URN and state for the caller's own checks.
 */
export async function movesDeletesAndWaits(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
): Promise<{
  up: Awaited<ReturnType<ProjectStack["up"]>>;
  urn: string;
  state: Record<string, unknown>;
}> {
  const { originalParent, folderA } = FIXTURE.firewallPolicyMove;
  const up = await stack.up();
  assert.equal(up.outputs["parent"], folderA);
  assert.equal(up.outputs["previousParent"], originalParent);
  assert.equal(up.outputs["groupOutcome"], "deleted");
  assert.equal(up.outputs["operationStatus"], "DONE");
  const { urn, outputs: state } = await moveState(stack);
  assert.equal(state["__generation"], 1);
  assert.deepEqual(
    apiMoves(sandbox).map((m) => m.details.requestId),
    [state["__requestId"]],
  );
  assert.deepEqual(
    sandbox
      .audit()
      .filter((e) => e.kind !== "firewallPolicies.move")
      .map((e) => [e.kind, e.target]),
    [["inventorySourceGroups.delete", "inventorySourceGroups/5005"]],
  );
  return { up, urn, state };
}

/**
 * A parent change previewed with a read-only token: one update, the move's block one changed line `parentId: from =>
 * to` without the `__` plumbing, no mutating request.
 */
export async function previewsParentChange(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  from: string,
  to: string,
): Promise<void> {
  await stack.setConfig({ ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), parentId: { value: to } });
  const posts = mutatingRequests(sandbox).length;
  const preview = await stack.preview({ diff: true });
  assert.equal(changeSummary(preview.events)["update"], 1);
  assert.deepEqual(moveChanges(preview.stdout), [`~ parentId: "${from}" => "${to}"`]);
  assert.doesNotMatch(preview.stdout, /generation|requestId|__urn/);
  assert.equal(mutatingRequests(sandbox).length, posts);
}

/**
 * The parent change applied with the deployer's token: one in-place update (the `same` other resources unchanged),
 * one more move to `to`, the same URN, generation 2. Returns the deployer's config the stack now holds.
 */
export async function appliesParentChange(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  options: { to: string; moveUrn: string; same: number },
): Promise<ConfigMap> {
  const deployer = deployerConfig(sandbox);
  await stack.setConfig(deployer);
  const before = apiMoves(sandbox).length;
  const { outputs, events } = await stack.up();
  assert.deepEqual(changeSummary(events), { update: 1, same: options.same });
  assert.equal(outputs["parent"], options.to);
  assert.equal(outputs["previousParent"], FIXTURE.firewallPolicyMove.originalParent);
  assert.deepEqual(
    apiMoves(sandbox)
      .slice(before)
      .map((m) => m.details.to),
    [options.to],
  );
  const { urn, outputs: state } = await moveState(stack);
  assert.equal(urn, options.moveUrn);
  assert.equal(state["__generation"], 2);
  return deployer;
}

/**
 * An out-of-band move to `drifted` shown by refresh as `~ parentId: parent => drifted`; the next up moves the policy
 * back to `parent`; the deployer's access token in no plain state and in no command's output. Returns the refresh's and
 * the up's output for the caller's own checks.
 */
export async function showsDriftAndKeepsTheToken(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  deployer: ConfigMap,
  parent: string,
  drifted: string,
): Promise<string> {
  sandbox.setParent(FIXTURE.firewallPolicyMove.policy, drifted);
  const refreshed = await stack.run(["refresh", "--yes", "--skip-preview", "--diff"]);
  assert.match(refreshed.stdout, new RegExp(`^\\s+~ parentId\\s*: "${parent}" => "${drifted}"$`, "m"));
  assert.equal((await moveState(stack)).outputs["parent"], drifted);
  const { outputs, output } = await stack.up();
  assert.equal(outputs["parent"], parent);
  assert.equal(apiMoves(sandbox).at(-1)?.details.to, parent);
  const token = deployer["opsledger:accessToken"]?.value ?? "";
  assert.ok(token.length > 10);
  const state = await stack.exportState();
  assert.ok(!plainStrings(state).join("\n").includes(token), "the access token is in state outside a Pulumi secret");
  assert.ok(!`${refreshed.output}${output}`.includes(token), "the access token is in the CLI's output");
  return `${refreshed.output}${output}`;
}

/** Destroy leaves the policy under `parent` (restoreOnDelete is false): no move. */
export async function leavesThePolicyOnDestroy(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  parent: string,
): Promise<void> {
  const { policy } = FIXTURE.firewallPolicyMove;
  const count = apiMoves(sandbox).length;
  const { stdout } = await stack.destroy();
  assert.match(stdout, new RegExp(`firewall policy ${policy} stays under ${parent} \\(restoreOnDelete is false\\)`));
  assert.equal(apiMoves(sandbox).length, count);
  assert.equal(await parentOf(sandbox, policy), parent);
}
