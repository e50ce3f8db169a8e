/**
 * kill -9 during `pulumi up` of examples/firewall-policy-move (plain CLI), through both faces (test/helpers/faces.ts:
 * the TypeScript program's dynamic provider, and its YAML twin through the resource plugin), at points the sandbox reports as they are
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
import { createManualClock, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { deployerConfig, parentOf } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";
import { killCommand, roleOf, stateOf, waitGone } from "../helpers/kill-stack";
import type { KillTarget } from "../helpers/kill-stack";
import {
  MOVE,
  afterDoneBeforeStateWrite,
  beforeTheMovePost,
  upAndKill,
  whileItPollsTheOperation,
  whileTheOperationRuns,
} from "../helpers/kill-during-up";
import type { Interrupted, KillPoint } from "../helpers/kill-during-up";
import { GOOGLE_FACES, TYPESCRIPT, isProvider, projectOf, resourcesOf } from "../helpers/faces";
import type { Face } from "../helpers/faces";

const { policy: POLICY, folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;
const MOVE_MS = 4000;

/** Moves that took effect (the sandbox audits a move when its operation completes successfully). */
function moves(sandbox: GoogleSandbox) {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === "api");
}

/** Asserts that `processes` are as many of `role` as a `pulumi up` through the face runs. */
function assertProcessCount(face: Face, role: "program" | "provider", processes: readonly unknown[]): void {
  const counts = face.processes;
  if (counts === undefined) throw new Error(`the ${face.name} runs no move's project`);
  const expected = role === "program" ? { min: counts.program, max: counts.program } : counts.provider;
  assert.ok(
    processes.length >= expected.min && processes.length <= expected.max,
    `${String(processes.length)} ${role} processes through the ${face.name}, expected ${String(expected.min)} to ${String(expected.max)}`,
  );
}

/** Asserts that a tree kill took every process of the face's `pulumi up`: the CLI, the program's, the provider's. */
function assertTreeKilled(face: Face, k: Interrupted): void {
  const role = (r: string) => k.killed.filter((p) => (roleOf(p, k.cliPid) ?? `unknown: ${p.args}`) === r);
  assert.deepEqual(
    k.killed
      .map((p) => roleOf(p, k.cliPid) ?? `unknown: ${p.args}`)
      .filter((r) => !["cli", "program", "provider"].includes(r)),
    [],
    "every killed process has a role",
  );
  assert.equal(role("cli").length, 1);
  assertProcessCount(face, "program", role("program"));
  assertProcessCount(face, "provider", role("provider"));
  assert.equal(k.killed[0]?.pid, k.cliPid, "the CLI first");
  assert.deepEqual(k.survivors, [], "nothing of the command was left out of the tree kill");
  assert.deepEqual(
    k.killed.map((p) => [p.pid, stateOf(p)]).filter(([, state]) => state !== "gone" && state !== "Z"),
    [],
    "every killed process has exited",
  );
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

for (const face of GOOGLE_FACES) {
  describe(`examples/firewall-policy-move after kill -9 during pulumi up through the ${face.name} (pulumi CLI, sandbox)`, function () {
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
      // With the CLI alive (only its program or its provider died), the engine ends the update itself, the step in
      // flight finished or failed, and releases the lock: nothing is pending and the user just runs `pulumi up` again.
      const cliDies = target !== "program" && target !== "provider";
      const stack = await initProjectStack({
        projectDir: await projectOf(face, "move"),
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
        if (target === "tree") assertTreeKilled(face, interrupted);
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
        const requestId = made[0]?.details.requestId;
        assert.ok(typeof requestId === "string" && requestId !== "", "the move carried a requestId");
        assert.ok(posts.length >= 1, "a move POST was answered");
        assert.deepEqual(
          posts.map((r) => r.query["requestId"]),
          posts.map(() => requestId),
          "every move POST repeated one requestId",
        );
        const resources = resourcesOf(face, await stack.exportState());
        assert.equal(resources.length, 1);
        // A refresh of an interrupted update re-reads the inputs (the policy is already where the update put it, so the
        // next up has nothing to move): only a create keeps the requestId of the move in state.
        if (step === "create") assert.equal(resources[0]?.outputs?.["__requestId"], made[0]?.details.requestId);
      } finally {
        await stack.dispose();
      }
    }

    // The tree killed while the create's operation runs, on this sandbox's real clock, is the manual-clock test below:
    // there the operation is certainly still running at the re-run (here the recovery usually outlasted the 4 s move,
    // so the re-run took the "after DONE" path of the next test), and the re-POST's answer is asserted too.
    it("adopts the finished move when the tree dies after DONE but before the state is written", async () => {
      await scenario("create", afterDoneBeforeStateWrite, "tree", () => {
        assert.equal(moves(sandbox).length, 1, "the move had taken effect when the tree died");
        return Promise.resolve();
      });
    });

    // Through the dynamic face only: nothing was sent, so the re-run is a first create, whose requestId the module's
    // check derives from the URN, policy and parent on either face (test/unit/plugin/adapter.test.ts "checks through the
    // module the dynamic face runs"); the plugin's re-run after a tree kill is the "after DONE" test above and the
    // manual-clock test below.
    if (face === TYPESCRIPT) {
      it("finishes with one move when the tree dies before the move POST reaches the server", async () => {
        await scenario("create", beforeTheMovePost, "tree", (k) => {
          assert.equal(k.postsAtKill, 0);
          assert.equal(moves(sandbox).length, 0);
          return Promise.resolve();
        });
      });
    }

    it("finishes with one move when only the CLI dies, its orphaned provider exiting instead of spinning", async () => {
      await scenario("create", whileItPollsTheOperation, "cli", async (k) => {
        assert.deepEqual(
          k.killed.map((p) => p.pid),
          [k.cliPid],
        );
        const providers = k.survivors.filter((p) => roleOf(p, k.cliPid) === "provider");
        assertProcessCount(face, "provider", providers);
        if (face === TYPESCRIPT) {
          // Read once the CLI was gone, while the provider still waited for its poll's answer: both were left
          // running. (Not read for the plugin: its engine watch may, rarely, have seen the engine gone already.)
          assert.deepEqual(
            providers.map((p) => [
              p.pid,
              ["gone", "Z", "X"].includes(k.survivorStates[k.survivors.indexOf(p)] ?? "gone"),
            ]),
            providers.map((p) => [p.pid, false]),
            "the provider plugin was left running after the CLI was gone",
          );
        }
        // An orphaned provider exits instead of living on. The dynamic provider's orphan guard
        // (provider/runtime/orphan-guard.ts) fires at its first write to the closed pipes (its next progress report,
        // once the engine no longer answers) instead of spinning on them as @pulumi/pulumi's own error handler would;
        // the plugin, which writes nothing there, exits when its engine watch (provider/plugin/engine-watch.ts) finds
        // the engine's address closed (without it, it stayed alive for good). The operation it started finishes on
        // Google's side; the recovery adopts it.
        await waitGone(providers, 60_000);
        // Pulumi's Go language hosts outlive a killed CLI (their own behaviour, outside this package): end it here.
        for (const p of k.survivors.filter((s) => face.languageHost.test(s.args))) {
          await killCommand(p.pid, "tree").gone();
        }
      });
    });

    it("finishes with one move when the language host and the program die while the operation runs", async () => {
      await scenario("create", whileTheOperationRuns, "program", (k) => {
        // A YAML program runs inside its language host: one process.
        assert.deepEqual(
          k.killed.map((p) => (face.languageHost.test(p.args) ? "language host" : "program")).sort(),
          face === TYPESCRIPT ? ["language host", "program"] : ["language host"],
        );
        return Promise.resolve();
      });
    });

    it("finishes with one move when only the provider dies while the operation runs", async () => {
      await scenario("create", whileTheOperationRuns, "provider", (k) => {
        assert.deepEqual(
          k.killed.filter((p) => roleOf(p, k.cliPid) !== "provider"),
          [],
          "the provider's processes, and only those",
        );
        assertProcessCount(face, "provider", k.killed);
        assert.ok(
          k.killed.some((p) => (face === TYPESCRIPT ? /dynamic-provider/.test(p.args) : isProvider(face, p))),
          `the process serving the move was killed: ${k.killed.map((p) => p.args).join("; ")}`,
        );
        assert.equal(k.postsAtKill, 1);
        // The engine reports the provider's death on the move's row, and ends the update.
        assert.match(k.output, /^\s+error: error reading from server: EOF$/m);
        return Promise.resolve();
      });
    });

    it("finishes an interrupted update with one move (tree killed while the operation runs)", async () => {
      await scenario("update", whileTheOperationRuns, "tree");
    });
  });

  /**
   * The crash lands before Google finishes: the sandbox's clock stands still (a manual clock), so the operation the first
   * `pulumi up` started stays RUNNING however long the kill, the wait and the recovery take. The re-run's create then
   * sends the move again with the same requestId, and Google answers with the original operation: the test lets the
   * clock run only once that second POST is answered, and the policy moves once.
   */
  describe(`examples/firewall-policy-move after kill -9 before the move's operation finishes through the ${face.name} (pulumi CLI, sandbox)`, function () {
    this.timeout(600_000);
    const clock = createManualClock(Date.now());
    let sandbox: GoogleSandbox;

    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: MOVE_MS, clock });
    });
    after(async () => {
      await sandbox.close();
    });

    it("re-POSTs the move with the same requestId and gets the original operation back: one move", async () => {
      const stack = await initProjectStack({
        projectDir: await projectOf(face, "move"),
        config: { ...deployerConfig(sandbox), parentId: { value: A } },
      });
      const answers: { requestId: string | undefined; name: string | undefined; status: string | undefined }[] = [];
      let released = false;
      const stop = sandbox.onRequest((e) => {
        if (e.phase !== "answered" || e.entry.route !== MOVE || e.entry.status !== 200) return;
        const op = JSON.parse(e.body) as { name?: string; status?: string };
        answers.push({ requestId: e.entry.query["requestId"], name: op.name, status: op.status });
        // The re-run's POST has its answer: now let the operation finish (4 s of sandbox time).
        if (answers.length === 2 && !released) {
          released = true;
          clock.advance(MOVE_MS);
        }
      });
      try {
        const start = sandbox.requests().length;
        const interrupted = await upAndKill(stack, sandbox, whileTheOperationRuns, "tree");
        assertTreeKilled(face, interrupted);
        assert.equal(interrupted.postsAtKill, 1);
        assert.equal(answers.length, 1);
        assert.notEqual(answers[0]?.status, "DONE", "the operation was running when the tree died");
        assert.deepEqual(moves(sandbox), [], "nothing had moved when the tree died");
        assert.equal((await stack.exportState()).pending_operations?.length, 1);

        await recover(stack);
        assert.deepEqual(moves(sandbox), [], "the operation still runs after the recovery");
        const { outputs } = await stack.up();
        assert.ok(released, "the re-run sent the move again");
        assert.equal(outputs["parent"], A);
        assert.equal(await parentOf(sandbox, POLICY), A);

        const [first, second] = answers;
        assert.equal(answers.length, 2, "two move POSTs: the interrupted run's and the re-run's");
        assert.ok(first?.requestId !== undefined && first.requestId !== "", "the first POST carried a requestId");
        assert.equal(second?.requestId, first.requestId, "the re-run repeated the requestId");
        assert.ok(first.name !== undefined && first.name !== "");
        assert.equal(second.name, first.name, "Google answered the repeated requestId with the original operation");
        assert.notEqual(second.status, "DONE", "the original operation was still running");
        const posts = sandbox
          .requests()
          .slice(start)
          .filter((r) => r.route === MOVE);
        assert.deepEqual(
          posts.map((r) => [r.status, r.query["requestId"]]),
          [
            [200, first.requestId],
            [200, first.requestId],
          ],
        );
        assert.deepEqual(
          moves(sandbox).map((m) => [m.details.to, m.details.requestId, m.details.operation]),
          [[A, first.requestId, first.name]],
          "exactly one effective move, by the original operation",
        );
        const resources = resourcesOf(face, await stack.exportState());
        assert.equal(resources.length, 1);
        assert.equal(resources[0]?.outputs?.["__requestId"], first.requestId);
      } finally {
        stop();
        await stack.dispose();
      }
    });
  });
}
