/**
 * kill -9 of `pulumi up` while a firewall policy move is in flight, at several points, then recovery the way the CLI
 * tells a user to: `pulumi cancel` (it reports the stack lock left behind), `pulumi refresh --clear-pending-creates`
 * (it reports the pending operations), `pulumi up`. Every scenario ends with exactly one move in the audit log.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { FirewallPolicyMove } from "../../sdk/compute";
import { createThrowawayStack, dynamicResources } from "../helpers/pulumi-harness";
import type { ThrowawayStack } from "../helpers/pulumi-harness";
import { deployerConfig, parentOf } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";
import { isRunning, killPulumiUp, waitFor } from "../helpers/kill-stack";

const { policy: POLICY, folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;
const MOVE_MS = 4000;

async function program(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const move = new FirewallPolicyMove("edge", { firewallPolicy: POLICY, parentId: config.require("parentId") });
  return Promise.resolve({ parent: move.parent, requestId: move.requestId });
}

/** Moves that took effect (the sandbox audits a move when its operation completes successfully). */
function moves(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === "api");
}

/** A condition that holds once a move POST made after now has been accepted (its operation is then running). */
function moveAccepted(sandbox: GoogleSandbox): () => boolean {
  const from = sandbox.requests().length;
  return () =>
    sandbox
      .requests()
      .slice(from)
      .some((r) => r.route === "compute.firewallPolicies.move" && r.status === 200);
}

/** Starts `pulumi up`, kills it when `when` holds, and returns the rejected run's message. */
async function upAndKill(
  stack: ThrowawayStack,
  when: () => boolean | Promise<boolean>,
  mode: "tree" | "cliOnly",
): Promise<string> {
  const run = stack.up().then(
    () => "completed",
    (e: unknown) => (e instanceof Error ? e.message : String(e)),
  );
  await waitFor(when, 60_000, "the kill point");
  const { orphaned } = killPulumiUp(stack.stack.name, mode);
  const message = await run;
  // The orphaned provider processes must not outlive their CLI for long (dispatch's orphan guard): an orphan of
  // @pulumi/pulumi's dynamic provider would otherwise spin at 100% CPU on its closed stderr, growing without bound.
  await waitFor(
    () => !orphaned.some(isRunning),
    60_000,
    `the orphaned provider processes ${orphaned.join(", ")} to exit`,
  );
  return message;
}

/** What the CLI tells a user after an interrupted update, done non-interactively. */
async function recover(stack: ThrowawayStack): Promise<void> {
  const cancel = await stack.cli(["cancel", "--yes"]);
  assert.equal(cancel.code, 0, cancel.stderr);
  await stack.refresh({ clearPendingCreates: true });
  const state = await stack.exportState();
  assert.deepEqual(state.pending_operations ?? [], []);
}

describe("FirewallPolicyMove after kill -9 of pulumi up (real engine, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: MOVE_MS });
  });
  beforeEach(() => {
    sandbox.reset();
  });
  after(async () => {
    await sandbox.close();
  });

  async function scenario(
    name: string,
    step: "create" | "update",
    kill: (stack: ThrowawayStack) => Promise<string>,
  ): Promise<void> {
    const stack = await createThrowawayStack({
      projectName: name,
      program,
      config: { ...deployerConfig(sandbox), [`${name}:parentId`]: { value: A } },
    });
    try {
      if (step === "update") {
        await stack.up();
        await stack.setConfig({ [`${name}:parentId`]: { value: B } });
      }
      const target = step === "update" ? B : A;
      const before = moves(sandbox).length;
      const requestsBefore = sandbox.requests().length;
      const message = await kill(stack);
      assert.notEqual(message, "completed", "the kill interrupted the update");
      const pending = (await stack.exportState()).pending_operations ?? [];
      assert.equal(pending.length, 1, "the interrupted step is recorded as pending");
      await recover(stack);
      const { outputs } = await stack.up();
      assert.equal(outputs["parent"]?.value, target);
      assert.equal(await parentOf(sandbox, POLICY), target);
      const made = moves(sandbox).slice(before);
      assert.deepEqual(
        made.map((m) => m.details.to),
        [target],
        "exactly one move for the interrupted change",
      );
      const posts = sandbox
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.route === "compute.firewallPolicies.move" && r.status === 200);
      assert.ok(
        posts.every((r) => r.query["requestId"] === made[0]?.details.requestId),
        "every move POST repeated one requestId",
      );
      // After a refresh of an interrupted update the state's inputs are re-read, so only a create keeps the label.
      if (step === "create") assert.equal(made[0]?.details.requestId, outputs["requestId"]?.value);
      assert.equal(dynamicResources(await stack.exportState()).length, 1);
    } finally {
      await stack.dispose();
    }
  }

  it("finishes with one move after the whole process tree dies while the operation runs (create)", async () => {
    await scenario("crash-running", "create", (stack) => upAndKill(stack, moveAccepted(sandbox), "tree"));
  });

  it("adopts the finished move when the tree dies after DONE but before the state is written", async () => {
    await scenario("crash-done", "create", async (stack) => {
      const start = moves(sandbox).length;
      const run = stack.up().then(
        () => "completed",
        (e: unknown) => (e instanceof Error ? e.message : String(e)),
      );
      await waitFor(moveAccepted(sandbox), 60_000, "the move to be accepted");
      // The provider's read after the operation is DONE hangs, so the kill lands between DONE and the state write.
      sandbox.setFaults([{ route: "compute.firewallPolicies.get", kind: "latency", latencyMs: 60_000, times: 1 }]);
      await waitFor(() => moves(sandbox).length > start, 60_000, "the operation to finish");
      const afterDone = sandbox.requests().length;
      await waitFor(
        () =>
          sandbox
            .requests()
            .slice(afterDone - 1)
            .some((r) => r.route === "compute.globalOrganizationOperations.get"),
        60_000,
        "the provider to see DONE",
      );
      await new Promise((r) => setTimeout(r, 500));
      killPulumiUp(stack.stack.name, "tree");
      sandbox.clearFaults();
      return run;
    });
  });

  it("finishes with one move when only the CLI is killed and its orphaned provider completes the call", async () => {
    await scenario("crash-cli", "create", (stack) => upAndKill(stack, moveAccepted(sandbox), "cliOnly"));
  });

  it("finishes an interrupted update with one move (tree killed while the operation runs)", async () => {
    await scenario("crash-update", "update", (stack) => upAndKill(stack, moveAccepted(sandbox), "tree"));
  });
});
