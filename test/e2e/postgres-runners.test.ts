/**
 * Stack state in PostgreSQL shared by two CI runners (docs/multi-runner.md): a private cluster
 * (test/helpers/postgres.ts) reached by the plain CLI through Pulumi's `postgres://` backend; runners with their own
 * HOME, PULUMI_HOME, TMPDIR and checkout (test/helpers/postgres-runners.ts); the Google sandbox and the Fabric sandbox.
 *
 * - Runner A's `pulumi up` of 50 moves and 10 LedgerTransactions is killed -9 (its whole process tree) once a
 *   transaction was submitted and committed but its commit status is held at the gateway proxy, at the moment the
 *   Google sandbox answers a move's POST (the operation then runs): both points proven by the events. Runner B does
 *   what docs/multi-runner.md tells a team: `pulumi cancel`, `pulumi refresh --clear-pending-creates`, `pulumi up`.
 *   Through the TypeScript SDK and through the plugin from a YAML program.
 * - Runner B's `up` while runner A's runs is refused with Pulumi's lock message and sends nothing.
 */
import { strict as assert } from "node:assert";
import type { GoogleSandbox } from "../../sandbox/google";
import { gateway as gatewayProtos } from "@hyperledger/fabric-protos";
import { GATEWAY } from "../helpers/gateway-proxy";
import type { ProxiedCall } from "../helpers/gateway-proxy";
import { killCommand, waitGoneBlocking } from "../helpers/kill-stack";
import type { Killed } from "../helpers/kill-stack";
import type { ComponentTarget } from "../helpers/ledger-component";
import { submits, submittedTxId } from "../helpers/ledger-component";
import { startPostgres } from "../helpers/postgres";
import type { PostgresCluster } from "../helpers/postgres";
import { startRunner } from "../helpers/postgres-runners";
import type { Runner, TeamProgram } from "../helpers/postgres-runners";
import { TYPESCRIPT, YAML } from "../helpers/faces";
import type { Face } from "../helpers/faces";
import {
  LOCKED,
  MOVE,
  pausableClock,
  assertMovesOnce,
  assertPreviewEmpty,
  assertStateComplete,
  assertTransactionsOnce,
  startTeamGoogle,
  startTeamLedger,
  teamConfig,
  uniqueName,
} from "../helpers/postgres-team";

const FIRST = 840_000_000_000;
function movePosts(google: GoogleSandbox): number {
  return google.requests().filter((r) => r.route === MOVE).length;
}

/** The txId a CommitStatus call asks about. */
function commitStatusTxId(call: ProxiedCall): string {
  const signed = gatewayProtos.SignedCommitStatusRequest.deserializeBinary(call.requests[0] ?? new Uint8Array(0));
  return gatewayProtos.CommitStatusRequest.deserializeBinary(signed.getRequest_asU8()).getTransactionId();
}

const MOVES = 50;
const TRANSACTIONS = 10;
/** Policies per scenario: each takes its own range. */
const RANGE = 100;
/**
 * The CLI's --parallel in the kill scenarios: every step at once. The sandbox's clock stands still from the first move
 * POST answered to the kill, so running moves hold their slots; with fewer slots than moves, a transaction's submission
 * (registered after its component) could wait behind them for good.
 */
const PARALLEL = 2 * TRANSACTIONS + MOVES + 10;

describe("stack state in PostgreSQL, two runners (pulumi CLI, postgres:// backend, sandboxes)", function () {
  this.timeout(600_000);
  let pg: PostgresCluster;
  let google: GoogleSandbox;
  let ledger: ComponentTarget;
  let ranges = 0;
  const clock = pausableClock();
  const runners: Runner[] = [];

  before(async () => {
    pg = await startPostgres();
    google = await startTeamGoogle(FIRST, 4 * RANGE, { moveDurationMs: 500, clock });
    ledger = await startTeamLedger();
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.dispose();
  });
  after(async () => {
    await ledger.close();
    await google.close();
    const postmaster = pg.postmaster();
    await pg.close();
    assert.ok(postmaster !== undefined && pg.postmaster() === undefined, "the cluster ran until close() stopped it");
  });

  async function runnerPair(face: Face, moves: number, transactions: number, parallel?: number) {
    const program: TeamProgram & { prefix: string } = {
      face,
      moves,
      transactions,
      firstPolicy: FIRST + RANGE * ranges++,
      prefix: uniqueName("asset-"),
    };
    const stackName = uniqueName("team");
    const a = await startRunner({
      label: "a",
      program,
      backend: pg,
      stackName,
      config: teamConfig(google, ledger, program),
      ...(parallel === undefined ? {} : { parallel }),
    });
    runners.push(a);
    const b = await startRunner({
      label: "b",
      program,
      backend: pg,
      stackName,
      settingsFrom: a,
      ...(parallel === undefined ? {} : { parallel }),
    });
    runners.push(b);
    return { program, a, b };
  }

  for (const face of [TYPESCRIPT, YAML]) {
    it(`runner B finishes runner A's killed up: every move and transaction once (${face === YAML ? "yaml" : "typescript"})`, async () => {
      const { program, a, b } = await runnerPair(face, MOVES, TRANSACTIONS, PARALLEL);
      assert.notEqual(a.env["HOME"], b.env["HOME"]);
      assert.notEqual(a.env["PULUMI_HOME"], b.env["PULUMI_HOME"]);
      assert.notEqual(a.checkout, b.checkout);
      const fromBlock = await ledger.reader.height();
      const writesBefore = pg.writes().length;

      // The kill, at the later of two events: a transaction committed whose commit status the provider has not heard
      // (held at the proxy), and a move's POST answered (the sandbox's clock then stands still, so that operation is
      // still running whichever event comes second).
      const held = ledger.proxy.hold(GATEWAY.commitStatus);
      let committed = false;
      let moveRunning = false;
      let cliPid: number | undefined;
      let kill: Killed | undefined;
      let movePostsAtKill = 0;
      let runningRequestId: string | undefined;
      let runningDoneAtKill: boolean | undefined;
      const killNow = (): void => {
        if (kill !== undefined || cliPid === undefined) return;
        kill = killCommand(cliPid, "tree");
        waitGoneBlocking(kill.killed);
        movePostsAtKill = movePosts(google);
        runningDoneAtKill = google.audit().some((e) => e.details.requestId === runningRequestId);
      };
      void held.reached.then(() => {
        committed = true;
        if (moveRunning) killNow();
      });
      const stop = google.onRequest((e) => {
        if (moveRunning || e.phase !== "answered" || e.entry.route !== MOVE || e.entry.status !== 200) return;
        clock.pause();
        moveRunning = true;
        runningRequestId = e.entry.query["requestId"];
        if (committed) killNow();
      });
      let heldTxId: string;
      try {
        const interrupted = await a.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) });
        assert.ok(
          kill,
          `the kill points were reached (pulumi up ended with ${String(interrupted.code)}):\n${interrupted.output}`,
        );
        assert.equal(interrupted.signal, "SIGKILL");
        await kill.gone();
        heldTxId = commitStatusTxId(await held.reached);
        assert.ok(
          submits(ledger.proxy).map(submittedTxId).includes(heldTxId),
          "the held transaction was submitted before its commit status",
        );
        assert.ok(runningRequestId !== undefined && runningRequestId !== "");
        assert.equal(runningDoneAtKill, false, "the answered move's operation was still running at the kill");
      } finally {
        stop();
        clock.resume();
        held.release(); // its client is gone: nothing to answer
      }
      assert.ok(movePostsAtKill >= 1);
      const pending = (await b.exportState()).pending_operations ?? [];
      assert.ok(
        pending.length >= 2,
        `the held transaction and the running move are pending: ${String(pending.length)}`,
      );
      assert.ok(pg.writes(writesBefore).length > 0, "runner A wrote its steps to PostgreSQL");

      // Runner B: what the docs tell a team.
      const calls = ledger.proxy.calls.length;
      const requests = google.requests().length;
      const locked = await b.up({ allowFailure: true });
      assert.notEqual(locked.code, 0);
      assert.match(locked.output, LOCKED);
      assert.ok(!locked.output.includes(pg.clientEnv["PGPASSWORD"] ?? "?"), "the lock message holds no password");
      assert.equal(ledger.proxy.calls.length, calls, "the refused up called no gateway");
      assert.equal(google.requests().length, requests, "the refused up called no Google API");
      await b.run(["cancel", "--yes"]);
      await b.run(["refresh", "--yes", "--skip-preview", "--clear-pending-creates"]);
      assert.deepEqual((await b.exportState()).pending_operations ?? [], []);
      const finished = ledger.proxy.calls.length;
      await b.up();

      assertMovesOnce(google, program);
      const txIds = await assertTransactionsOnce(ledger, fromBlock, program);
      assert.ok([...txIds.values()].includes(heldTxId), "the held transaction is on the ledger");
      assert.ok(
        !submits(ledger.proxy, finished).map(submittedTxId).includes(heldTxId),
        "runner B adopted the held transaction instead of submitting it again",
      );
      await assertStateComplete(b, program, txIds);
      await assertPreviewEmpty(b);
    });
  }

  it("refuses runner B's up while runner A updates the stack, and B applies nothing", async () => {
    const { program, a, b } = await runnerPair(TYPESCRIPT, 2, 1);
    const fromBlock = await ledger.reader.height();
    const held = ledger.proxy.hold(GATEWAY.commitStatus);
    const running = a.up();
    try {
      await held.reached; // runner A holds the lock and waits for the commit status
      const calls = ledger.proxy.calls.length;
      const posts = movePosts(google);
      const raced = await b.up({ allowFailure: true });
      assert.notEqual(raced.code, 0);
      assert.match(raced.output, LOCKED);
      assert.deepEqual(
        raced.events.filter((e) => e.resourcePreEvent !== undefined),
        [],
        "runner B's up started no step",
      );
      assert.equal(ledger.proxy.calls.length, calls, "no gateway call while runner A waits");
      assert.equal(movePosts(google), posts, "runner B sent no move");
    } finally {
      held.release();
    }
    await running;
    assertMovesOnce(google, program);
    const txIds = await assertTransactionsOnce(ledger, fromBlock, program);
    await assertStateComplete(b, program, txIds);
    await assertPreviewEmpty(b);
  });
});
