/**
 * Stack state in PostgreSQL (docs/multi-runner.md), with the plain CLI through Pulumi's `postgres://` backend:
 * - two stacks of one organization, on two runners at once, under one compute write quota of the Google sandbox
 *   (10 writes per 2 s: the rate of 300 a minute, at a scale where 2 x 20 moves meet it): both finish, nothing
 *   failed, every move made once;
 * - the backend goes away: PostgreSQL is stopped (immediate shutdown, as a crash or a network cut) the moment the
 *   Google sandbox answers a move's POST; the engine reports the failed state write naming the backend's key and
 *   address, without the password; the server comes back, the up ends failed, and the next `pulumi up` finishes with
 *   no second move and no second transaction.
 */
import { strict as assert } from "node:assert";
import type { ComponentTarget } from "../helpers/ledger-component";
import * as fs from "node:fs";
import * as path from "node:path";
import { waitFor } from "../helpers/wait-for";
import { diagnostics } from "../helpers/project-stack";
import type { CommandResult } from "../helpers/project-stack";
import { startPostgres } from "../helpers/postgres";
import type { PostgresCluster } from "../helpers/postgres";
import { startRunner } from "../helpers/postgres-runners";
import type { Runner, TeamProgram } from "../helpers/postgres-runners";
import { TYPESCRIPT } from "../helpers/faces";
import {
  MOVE,
  assertMovesOnce,
  assertPreviewEmpty,
  assertStateComplete,
  assertTransactionsOnce,
  startTeamGoogle,
  startTeamLedger,
  teamConfig,
  uniqueName,
} from "../helpers/postgres-team";

const FIRST = 850_000_000_000;

/**
 * Waits, bounded, for the running command's engine event log (the newest events-N.jsonl beside the stack's PULUMI_HOME)
 * to hold a line `matches` takes; fails if the command ends first. Resolves with that line.
 */
async function waitForEvent(
  runner: Runner,
  command: Promise<CommandResult>,
  matches: (line: string) => boolean,
): Promise<string> {
  const dir = path.dirname(runner.stack.home);
  let ended: CommandResult | undefined;
  void command.then((r) => (ended = r));
  const found = await waitFor({
    what: "the engine to report the failed state write",
    read: () => {
      if (ended !== undefined) throw new Error(`the command ended (${String(ended.code)}) first:\n${ended.output}`);
      const logs = fs.readdirSync(dir).filter((f) => /^events-\d+\.jsonl$/.test(f));
      const newest = logs.sort((a, b) => Number(/\d+/.exec(a)?.[0]) - Number(/\d+/.exec(b)?.[0])).at(-1);
      return newest && fs.readFileSync(path.join(dir, newest), "utf8").split("\n").find(matches);
    },
    until: (line) => line !== undefined,
    show: () => "no such line in the newest events-N.jsonl",
    timeoutMs: 120_000,
  });
  return found ?? "";
}

describe("stack state in PostgreSQL: a shared quota, and the backend gone (pulumi CLI, postgres:// backend)", function () {
  this.timeout(600_000);
  let pg: PostgresCluster;
  const runners: Runner[] = [];

  before(async () => {
    pg = await startPostgres();
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.dispose();
  });
  after(async () => {
    await pg.close();
    assert.equal(pg.postmaster(), undefined, "no server process left");
  });

  it("finishes two stacks of one organization on two runners under one shared write quota, nothing twice", async () => {
    const moves = 20;
    const google = await startTeamGoogle(FIRST, 2 * moves, {
      moveDurationMs: 300,
      rateQuotas: [{ group: "computeWrites", limit: 10, windowMs: 2000 }],
    });
    try {
      const programs: (TeamProgram & { prefix: string })[] = [0, 1].map((i) => ({
        face: TYPESCRIPT,
        moves,
        transactions: 0,
        firstPolicy: FIRST + i * moves,
        prefix: "",
      }));
      // The stacks are made one after the other: two CLIs opening a database the backend has not used yet race in
      // Pulumi's `CREATE TABLE IF NOT EXISTS pulumi_state` (seen here: `failed to create table pulumi_state: pq:
      // duplicate key value violates unique constraint "pg_type_typname_nsp_index"`, docs/multi-runner.md).
      const team: Runner[] = [];
      for (const [i, program] of programs.entries()) {
        const runner = await startRunner({
          label: `r${String(i)}`,
          program,
          backend: pg,
          stackName: uniqueName(`quota${String(i)}`),
          config: teamConfig(google, undefined, program),
          parallel: moves,
        });
        runners.push(runner);
        team.push(runner);
      }
      const ups = await Promise.all(team.map((r) => r.up()));
      for (const up of ups) {
        assert.equal(up.code, 0);
        assert.deepEqual(
          diagnostics(up.events).filter((d) => d.severity === "error"),
          [],
          "nothing failed",
        );
      }
      const rejected = google.requests().filter((r) => r.route === MOVE && r.status === 429);
      assert.ok(rejected.length > 0, "the shared quota was met");
      for (const [i, program] of programs.entries()) {
        assertMovesOnce(google, program);
        const runner = team[i];
        assert.ok(runner !== undefined);
        await assertStateComplete(runner, program, new Map());
        await assertPreviewEmpty(runner);
      }
    } finally {
      await google.close();
    }
  });

  it("fails readably when PostgreSQL goes away after a move's POST, and the next up makes nothing twice", async () => {
    const google = await startTeamGoogle(FIRST + 100, 4, { moveDurationMs: 500 });
    let ledger: ComponentTarget | undefined;
    try {
      ledger = await startTeamLedger();
      const program = { face: TYPESCRIPT, moves: 4, transactions: 2, firstPolicy: FIRST + 100 };
      const withPrefix = { ...program, prefix: uniqueName("gone-") };
      const runner = await startRunner({
        label: "a",
        program,
        backend: pg,
        stackName: uniqueName("gone"),
        config: teamConfig(google, ledger, withPrefix),
      });
      runners.push(runner);
      const fromBlock = await ledger.reader.height();
      let stopped = false;
      const stop = google.onRequest((e) => {
        if (stopped || e.phase !== "answered" || e.entry.route !== MOVE || e.entry.status !== 200) return;
        stopped = true;
        void pg.stop(); // pg_ctl stop runs synchronously here: the sandbox answers nothing until the server is down
      });
      const up = runner.up({ allowFailure: true });
      let failed: CommandResult;
      try {
        // The engine retries a failed state write for about 30 s before it fails the step: the server comes back once
        // the running up has reported one (its event log, as it is written), so the up goes on with the server back.
        const reported = await waitForEvent(runner, up, (line) => line.includes("failed to save snapshot"));
        assert.ok(stopped, "the server was stopped after a move's POST");
        assert.equal(pg.postmaster(), undefined, "the server was down when the engine reported the failed write");
        assert.match(reported, /connect: connection refused/);
        pg.start();
        failed = await up;
      } finally {
        stop();
      }
      assert.notEqual(failed.code, 0);
      assert.match(
        failed.output,
        /failed to save snapshot: An IO error occurred while writing the new snapshot file: blob \(key "\.pulumi\/stacks\/opsledger-team\/gone[0-9a-f]+\.json"\) \(code=Unknown\): dial tcp 127\.0\.0\.1:\d+: connect: connection refused/,
      );
      assert.ok(!failed.output.includes(pg.clientEnv["PGPASSWORD"] ?? "?"), "the password is not in the output");

      await runner.up();
      assertMovesOnce(google, program);
      const txIds = await assertTransactionsOnce(ledger, fromBlock, withPrefix);
      // A step whose completion could not be written stays a pending create, and an up carries pending operations
      // over (the engine cannot know whether they happened); the refresh the docs give for an interrupted update
      // clears them: the up created those resources again, adopting the move or transaction already made.
      await runner.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
      await assertStateComplete(runner, program, txIds);
      await assertPreviewEmpty(runner);
    } finally {
      await ledger?.close();
      await google.close();
    }
  });
});
