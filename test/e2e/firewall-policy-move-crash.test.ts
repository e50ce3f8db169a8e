/**
 * kill -9 during `pulumi up` of examples/firewall-policy-move (plain CLI), at points the sandbox reports as they are
 * reached, then recovery the way the CLI tells a user to: the next `pulumi up` refuses with the stack lock and names
 * `pulumi cancel`; then `pulumi refresh --clear-pending-creates` (what the CLI's pending-operation note asks for,
 * non-interactively) and `pulumi up`. Every scenario ends with exactly one move in the audit log.
 *
 * The kill is synchronous inside the sandbox's request listener, so the point is exact: "while the operation runs" is
 * the moment the move POST is answered; "after DONE, before the state write" is the provider's read of the policy that
 * follows an operation served as DONE (held unanswered: the provider cannot return, so the engine cannot write);
 * "before the POST" is the provider's read that precedes the move.
 */
import { strict as assert } from "node:assert";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox, SandboxRequestEvent } from "../../sandbox/google";
import { dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { deployerConfig, parentOf } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";
import { isRunning, killCommand, waitFor } from "../helpers/kill-stack";
import type { KillTarget, Proc } from "../helpers/kill-stack";
import { roleOf } from "../helpers/kill-stack";

const PROJECT = exampleDir("firewall-policy-move");
const { policy: POLICY, folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;
const MOVE_MS = 4000;
const MOVE = "compute.firewallPolicies.move";
const GET_POLICY = "compute.firewallPolicies.get";
const GET_OPERATION = "compute.globalOrganizationOperations.get";

/** Moves that took effect (the sandbox audits a move when its operation completes successfully). */
function moves(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === "api");
}

/** A kill point: a predicate over the sandbox's request events, fed in order from the start of the `pulumi up`. */
type KillPoint = () => (event: SandboxRequestEvent) => boolean;

/** The move POST has been answered 200: the operation is running. */
const whileTheOperationRuns: KillPoint = () => (e) =>
  e.phase === "answered" && e.entry.route === MOVE && e.entry.status === 200;

/** The provider asks for the policy after it was served its operation as DONE. */
const afterDoneBeforeStateWrite: KillPoint = () => {
  let doneServed = false;
  return (e) => {
    if (e.phase === "answered" && e.entry.route === GET_OPERATION && e.entry.status === 200) {
      doneServed ||= (JSON.parse(e.body) as { status?: string }).status === "DONE";
    }
    return doneServed && e.phase === "received" && e.route === GET_POLICY;
  };
};

/** The provider asks for the policy's current parent, which it does before sending the move. */
const beforeTheMovePost: KillPoint = () => {
  let posts = 0;
  return (e) => {
    if (e.phase === "received" && e.route === MOVE) posts++;
    return posts === 0 && e.phase === "received" && e.route === GET_POLICY;
  };
};

interface Interrupted {
  readonly code: number | null;
  readonly killed: readonly Proc[];
  readonly survivors: readonly Proc[];
  /** Move POSTs the sandbox had received when the kill happened. */
  readonly postsAtKill: number;
}

/** Runs `pulumi up` and kills `target` processes synchronously the moment `point` is reached. */
async function upAndKill(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  point: KillPoint,
  target: KillTarget,
): Promise<Interrupted> {
  const reached = point();
  let cliPid: number | undefined;
  let kill: { killed: Proc[]; survivors: Proc[] } | undefined;
  let postsAtKill = 0;
  const start = sandbox.requests().length;
  const stop = sandbox.onRequest((event) => {
    if (kill !== undefined || cliPid === undefined || !reached(event)) return;
    kill = killCommand(cliPid, target);
    postsAtKill = sandbox
      .requests()
      .slice(start)
      .filter((r) => r.route === MOVE).length;
  });
  try {
    const result = await stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) });
    assert.ok(kill, `the kill point was reached (pulumi up ended with ${String(result.code)}):\n${result.output}`);
    assert.notEqual(result.code, 0, "the kill interrupted the update");
    return { code: result.code, ...kill, postsAtKill };
  } finally {
    stop();
  }
}

/** What the CLI tells a user after an interrupted update, done non-interactively. */
async function recover(stack: ProjectStack): Promise<void> {
  const locked = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
  assert.notEqual(locked.code, 0);
  assert.match(locked.output, /the stack is currently locked .* delete the lock file with `pulumi cancel`/s);
  await stack.run(["cancel", "--yes"]);
  await stack.refresh({ clearPendingCreates: true });
  assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
}

describe("examples/firewall-policy-move after kill -9 during pulumi up (pulumi CLI, sandbox)", function () {
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
    step: "create" | "update",
    point: KillPoint,
    target: KillTarget,
    check: (interrupted: Interrupted) => Promise<void> = () => Promise.resolve(),
  ): Promise<void> {
    // With the CLI alive (only its program died), the engine finishes the step in flight and releases the lock:
    // nothing is pending and the user just runs `pulumi up` again.
    const cliDies = target !== "program";
    const stack = await initProjectStack({
      projectDir: PROJECT,
      config: { ...deployerConfig(sandbox), parentId: { value: A } },
    });
    try {
      if (step === "update") {
        await stack.up();
        await stack.setConfig({ parentId: { value: B } });
      }
      const target_ = step === "update" ? B : A;
      const before = moves(sandbox).length;
      const requestsBefore = sandbox.requests().length;
      const interrupted = await upAndKill(stack, sandbox, point, target);
      assert.equal(
        (await stack.exportState()).pending_operations?.length ?? 0,
        cliDies ? 1 : 0,
        "the interrupted step is pending exactly when the CLI died",
      );
      await check(interrupted);
      if (cliDies) await recover(stack);
      const { outputs } = await stack.up();
      assert.equal(outputs["parent"], target_);
      assert.equal(await parentOf(sandbox, POLICY), target_);
      const made = moves(sandbox).slice(before);
      assert.deepEqual(
        made.map((m) => m.details.to),
        [target_],
        "exactly one move for the interrupted change",
      );
      const posts = sandbox
        .requests()
        .slice(requestsBefore)
        .filter((r) => r.route === MOVE && r.status === 200);
      assert.ok(
        posts.every((r) => r.query["requestId"] === made[0]?.details.requestId),
        "every move POST repeated one requestId",
      );
      const resources = dynamicResources(await stack.exportState());
      assert.equal(resources.length, 1);
      // A refresh of an interrupted update re-reads the inputs (the policy is already where the update put it, so the
      // next up has nothing to move): only a create keeps the requestId of the move in state.
      if (step === "create") assert.equal(resources[0]?.outputs?.["__requestId"], made[0]?.details.requestId);
    } finally {
      await stack.dispose();
    }
  }

  it("finishes with one move after the whole process tree dies while the operation runs (create)", async () => {
    await scenario("create", whileTheOperationRuns, "tree", (k) => {
      assert.equal(k.postsAtKill, 1);
      return Promise.resolve();
    });
  });

  it("adopts the finished move when the tree dies after DONE but before the state is written", async () => {
    await scenario("create", afterDoneBeforeStateWrite, "tree", () => {
      assert.equal(moves(sandbox).length, 1, "the move had taken effect when the tree died");
      return Promise.resolve();
    });
  });

  it("finishes with one move when the tree dies before the move POST reaches the server", async () => {
    await scenario("create", beforeTheMovePost, "tree", (k) => {
      assert.equal(k.postsAtKill, 0);
      assert.equal(moves(sandbox).length, 0);
      return Promise.resolve();
    });
  });

  it("finishes with one move when only the CLI dies, its orphaned provider exiting instead of spinning", async () => {
    await scenario("create", whileTheOperationRuns, "cli", async (k) => {
      const cli = k.killed[0]?.pid ?? 0;
      const providers = k.survivors.filter((p) => roleOf(p, cli) === "provider").map((p) => p.pid);
      assert.equal(providers.length, 2, "the provider plugin (launcher script and node) was left running");
      // dispatch's orphan guard: an orphaned dynamic provider exits at its first write to the closed pipes (its next
      // progress report, once the engine no longer answers) instead of spinning on them as @pulumi/pulumi's own error
      // handler would. The operation it started finishes on Google's side; the recovery adopts it.
      await waitFor(() => !providers.some(isRunning), 60_000, `the orphaned provider ${providers.join(", ")} to exit`);
      // Pulumi's Go language host outlives a killed CLI (its own behaviour, outside this package): end it here.
      for (const p of k.survivors.filter((s) => /pulumi-language-nodejs/.test(s.args))) killCommand(p.pid, "tree");
    });
  });

  it("finishes with one move when the language host and the program die while the operation runs", async () => {
    await scenario("create", whileTheOperationRuns, "program", (k) => {
      assert.deepEqual(
        k.killed.map((p) => (/pulumi-language-nodejs/.test(p.args) ? "language host" : "program")).sort(),
        ["language host", "program"],
      );
      return Promise.resolve();
    });
  });

  it("finishes an interrupted update with one move (tree killed while the operation runs)", async () => {
    await scenario("update", whileTheOperationRuns, "tree");
  });
});
