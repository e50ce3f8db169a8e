/**
 * kill -9 during `pulumi up` at a point the Google sandbox reports as it is reached (its request events), for the e2e
 * tests that interrupt a move through any face or program (test/e2e/firewall-policy-move-crash.test.ts,
 * test/e2e/plugin-python.test.ts). The kill is synchronous inside the sandbox's request listener, so the point is exact.
 */
import { strict as assert } from "node:assert";
import type { GoogleSandbox, SandboxRequestEvent } from "../../sandbox/google";
import type { ProjectStack } from "./project-stack";
import { killCommand, stateOf, waitGoneBlocking } from "./kill-stack";
import type { Killed, KillTarget, Proc } from "./kill-stack";

export const MOVE = "compute.firewallPolicies.move";
export const GET_POLICY = "compute.firewallPolicies.get";
export const GET_OPERATION = "compute.globalOrganizationOperations.get";

/** A kill point: a predicate over the sandbox's request events, fed in order from the start of the `pulumi up`. */
export type KillPoint = () => (event: SandboxRequestEvent) => boolean;

/** The move POST has been answered 200: the operation is running. */
export const whileTheOperationRuns: KillPoint = () => (e) =>
  e.phase === "answered" && e.entry.route === MOVE && e.entry.status === 200;

/** The provider asks for the policy after it was served its operation as DONE. */
export const afterDoneBeforeStateWrite: KillPoint = () => {
  let doneServed = false;
  return (e) => {
    if (e.phase === "answered" && e.entry.route === GET_OPERATION && e.entry.status === 200) {
      doneServed ||= (JSON.parse(e.body) as { status?: string }).status === "DONE";
    }
    return doneServed && e.phase === "received" && e.route === GET_POLICY;
  };
};

/**
 * The provider asks for the state of the running operation: it waits for this answer and writes nothing meanwhile (an
 * orphaned provider exits at its next write, so this is where one can be seen alive after its CLI is gone).
 */
export const whileItPollsTheOperation: KillPoint = () => (e) => e.phase === "received" && e.route === GET_OPERATION;

/** The provider asks for the policy's current parent, which it does before sending the move. */
export const beforeTheMovePost: KillPoint = () => {
  let posts = 0;
  return (e) => {
    if (e.phase === "received" && e.route === MOVE) posts++;
    return posts === 0 && e.phase === "received" && e.route === GET_POLICY;
  };
};

export interface Interrupted {
  readonly code: number | null;
  readonly cliPid: number;
  /** What was SIGKILLed; every one of them has exited (or is a zombie) by the time upAndKill returns. */
  readonly killed: readonly Proc[];
  /** The command's other processes as listed just before the kill. */
  readonly survivors: readonly Proc[];
  /** The state of each survivor read once every killed process was gone, before the sandbox answered anything more. */
  readonly survivorStates: readonly string[];
  /** Move POSTs the sandbox had received when the kill happened. */
  readonly postsAtKill: number;
  /** What the interrupted `pulumi up` printed (nothing after the kill when the CLI died). */
  readonly output: string;
}

/**
 * Runs `pulumi up` and kills `target` processes synchronously the moment `point` is reached; still inside the
 * sandbox's listener (so the sandbox answers nothing meanwhile), it waits, bounded, for every killed process to exit or
 * be a zombie, and only then reads the state of the others.
 */
export async function upAndKill(
  stack: ProjectStack,
  sandbox: GoogleSandbox,
  point: KillPoint,
  target: KillTarget,
): Promise<Interrupted> {
  const reached = point();
  let cliPid: number | undefined;
  let kill: Killed | undefined;
  let survivorStates: string[] = [];
  let postsAtKill = 0;
  const start = sandbox.requests().length;
  const stop = sandbox.onRequest((event) => {
    if (kill !== undefined || cliPid === undefined || !reached(event)) return;
    kill = killCommand(cliPid, target);
    waitGoneBlocking(kill.killed);
    survivorStates = kill.survivors.map(stateOf);
    postsAtKill = sandbox
      .requests()
      .slice(start)
      .filter((r) => r.route === MOVE).length;
  });
  try {
    const result = await stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) });
    assert.ok(kill, `the kill point was reached (pulumi up ended with ${String(result.code)}):\n${result.output}`);
    assert.notEqual(result.code, 0, "the kill interrupted the update");
    assert.ok(cliPid !== undefined);
    await kill.gone();
    return {
      code: result.code,
      cliPid,
      killed: kill.killed,
      survivors: kill.survivors,
      survivorStates,
      postsAtKill,
      output: result.output,
    };
  } finally {
    stop();
  }
}
