/**
 * `npm run bench -- postgres`: `pulumi up` of 1,000 FirewallPolicyMoves and of 100
 * LedgerTransactions with Pulumi's `postgres://` backend (a private PostgreSQL cluster, test/helpers/postgres.ts), with
 * the file backend, and the plain script doing the same work, one run side by side. Per side: wall time, the stack's
 * state size as the backend stores it, and for PostgreSQL the backend's writes per resource step, by key (checkpoint,
 * backup, history, lock) from the server's statement log.
 *
 * The moves run against the Google sandbox (2 s operations, --parallel 16, as `npm run bench -- scale`); the
 * transactions against a real Fabric network (Raft, the LTS; as `npm run bench -- ledger-scale`), the key by
 * reference. OPSLEDGER_BENCH_POSTGRES_SIZES="moves,transactions" (default 1000,100) sizes it.
 */
import * as fs from "node:fs";
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { startFabricNetwork } from "../sandbox/fabric-network";
import { initProjectStack } from "../scripts/lib/pulumi-cli";
import type { ConfigValues } from "../scripts/lib/pulumi-cli";
import { startPostgres, writeKind } from "../test/helpers/postgres";
import type { BackendWrite, PostgresCluster } from "../test/helpers/postgres";
import { runBaselineScript } from "./baseline-script";
import { writeBenchProject } from "./generated-project";
import type { BenchProgram } from "./generated-project";
import { printTable, ratio } from "./table";
import { ledgerStackConfig } from "./ledger-scale";
import type { LedgerScriptJob } from "./ledger-scale-script";
import { SCRIPT_BASE, STACK_BASE, TO, measured, runScript, seedPolicies } from "./scale-moves";

export interface PostgresBenchOptions {
  readonly moves: number;
  readonly transactions: number;
  /** @default 16 */
  readonly parallel?: number;
  readonly onProgress?: (line: string) => void;
}

/** One `pulumi up` (or the script) on one side. */
export interface BackendSide {
  readonly ms: number;
  /** The stack's checkpoint as the backend stores it, bytes (0 for the script). */
  readonly stateBytes: number;
  /** The backend's writes during the up, by kind (PostgreSQL only). */
  readonly writes?: Readonly<Record<string, number>>;
}

export interface PostgresBenchRow {
  readonly work: string;
  /** Resource steps of the up: the resources plus the stack (and the components' submissions for the ledger). */
  readonly steps: number;
  readonly script: BackendSide;
  readonly file: BackendSide;
  readonly postgres: BackendSide;
}

const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

function countByKind(writes: readonly BackendWrite[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const w of writes) counts[writeKind(w.key)] = (counts[writeKind(w.key)] ?? 0) + 1;
  return counts;
}

/** `pulumi up` of `program` on a new stack of the file backend, or of PostgreSQL when `pg` is given. */
async function upOn(
  program: BenchProgram,
  config: ConfigValues,
  parallel: number,
  pg: PostgresCluster | undefined,
): Promise<BackendSide> {
  const project = writeBenchProject(program);
  try {
    const stack = await initProjectStack({
      projectDir: project.dir,
      transpileOnly: true,
      eventLog: false,
      config,
      ...(pg === undefined ? {} : { env: { PULUMI_BACKEND_URL: pg.url, ...pg.clientEnv } }),
    });
    try {
      const mark = pg?.writes().length ?? 0;
      const up = await measured(stack, ["up", "--yes", "--skip-preview", "--parallel", String(parallel)]);
      if (pg === undefined) return { ms: up.ms, stateBytes: fs.statSync(stack.stateFile).size };
      const writes = pg.writes(mark);
      const [[size] = ["0"]] = pg.query(
        `SELECT octet_length(data::text) FROM pulumi_state WHERE key LIKE '%.pulumi/stacks/%/${stack.name}.json'`,
      );
      const sizes = pg.query(`SELECT count(*) FROM pulumi_state WHERE key LIKE '%.pulumi/backups/%/${stack.name}/%'`);
      return {
        ms: up.ms,
        stateBytes: Number(size),
        writes: { ...countByKind(writes), "backups kept": Number(sizes[0]?.[0] ?? 0) },
      };
    } finally {
      await stack.dispose();
    }
  } finally {
    project.dispose();
  }
}

export async function benchPostgresBackend(options: PostgresBenchOptions): Promise<PostgresBenchRow[]> {
  const parallel = options.parallel ?? 16;
  const say = options.onProgress ?? ((): void => undefined);
  const rows: PostgresBenchRow[] = [];
  say("starting a private PostgreSQL cluster");
  const pg = await startPostgres();
  try {
    const sandbox = await startGoogleSandbox({ moveDurationMs: 2000 });
    try {
      // Index 0 for the script and the file backend, 1 for PostgreSQL (each index its own policy range).
      seedPolicies(sandbox, [options.moves, options.moves]);
      const token = sandbox.mintToken({ principal: fixture.DEPLOYER, scopes: SCOPES });
      const config = (first: number): ConfigValues => ({
        "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
        "opsledger:accessToken": { value: token, secret: true },
        count: { value: String(options.moves) },
        firstPolicy: { value: String(first) },
        parentId: { value: TO },
      });
      say(`${String(options.moves)} moves: plain script`);
      const script = await runScript(
        { mode: "up", count: options.moves, parentId: TO, parallel, firstPolicy: SCRIPT_BASE },
        { GOOGLE_COMPUTE_CUSTOM_ENDPOINT: sandbox.endpoints.compute, GOOGLE_OAUTH_ACCESS_TOKEN: token },
      );
      say(`${String(options.moves)} moves: pulumi up, file backend`);
      const file = await upOn("moves", config(STACK_BASE), parallel, undefined);
      say(`${String(options.moves)} moves: pulumi up, postgres:// backend`);
      const postgres = await upOn("moves", config(STACK_BASE + 10_000), parallel, pg);
      say(
        `${String(options.moves)} moves: script ${String(script.ms)} ms; file ${String(file.ms)} ms, ` +
          `${String(file.stateBytes)} B; postgres ${String(postgres.ms)} ms, ${String(postgres.stateBytes)} B, ` +
          `writes ${JSON.stringify(postgres.writes)}`,
      );
      rows.push({
        work: `${String(options.moves)} FirewallPolicyMoves`,
        steps: options.moves + 1,
        script: { ms: script.ms, stateBytes: 0 },
        file,
        postgres,
      });
    } finally {
      await sandbox.close();
    }

    say("starting Fabric 2.5.16 (Raft)");
    const network = await startFabricNetwork({ version: "2.5.16", consensus: "etcdraft" }).catch((error: unknown) => {
      say(`the ledger part did not run: ${String(error)}`); // the moves' row is still printed
      return undefined;
    });
    if (network !== undefined)
      try {
        const run = `${String(process.pid)}-${String(Date.now())}`;
        const script = async (label: string, count: number) => {
          const job: LedgerScriptJob = {
            mode: "submit",
            networkFile: network.networkFile,
            count,
            parallel,
            prefix: `pg-${label}-${run}`,
          };
          return (await runBaselineScript("ledger-scale-script.js", [JSON.stringify(job)], {})).ms;
        };
        await script("warm-up", 1);
        const config = (label: string): ConfigValues =>
          ledgerStackConfig(network, { count: options.transactions, prefix: `pg-${label}-${run}` });
        say(`${String(options.transactions)} transactions: plain script`);
        const scriptMs = await script("script", options.transactions);
        say(`${String(options.transactions)} transactions: pulumi up, file backend`);
        const file = await upOn("ledger", config("file"), parallel, undefined);
        say(`${String(options.transactions)} transactions: pulumi up, postgres:// backend`);
        const postgres = await upOn("ledger", config("postgres"), parallel, pg);
        say(
          `${String(options.transactions)} transactions: script ${String(scriptMs)} ms; file ${String(file.ms)} ms, ` +
            `${String(file.stateBytes)} B; postgres ${String(postgres.ms)} ms, ${String(postgres.stateBytes)} B, ` +
            `writes ${JSON.stringify(postgres.writes)}`,
        );
        rows.push({
          work: `${String(options.transactions)} LedgerTransactions`,
          steps: 2 * options.transactions + 1,
          script: { ms: scriptMs, stateBytes: 0 },
          file,
          postgres,
        });
      } finally {
        await network.close();
      }
  } finally {
    await pg.close();
  }
  return rows;
}

/** Prints one table per work: the plain script, the file backend and the postgres:// backend side by side. */
export function printPostgresBackend(rows: Awaited<ReturnType<typeof benchPostgresBackend>>): void {
  for (const row of rows) {
    const writes = row.postgres.writes ?? {};
    printTable(
      `pulumi up of ${row.work} (${String(row.steps)} resource steps), --parallel 16: the state in PostgreSQL ` +
        "(postgres://) vs the file backend vs the plain script",
      ["side", "s", "ratio vs script", "state KB", "backend writes: checkpoint / backup / history / lock", "per step"],
      [
        ["plain script (baseline)", (row.script.ms / 1000).toFixed(1), "1.00x", "-", "-", "-"],
        ...(["file", "postgres"] as const).map((side) => [
          side === "file" ? "pulumi up, file backend" : "pulumi up, postgres:// backend",
          (row[side].ms / 1000).toFixed(1),
          ratio(row[side].ms, row.script.ms),
          Math.round(row[side].stateBytes / 1024),
          side === "file"
            ? "(files)"
            : ["checkpoint", "backup", "history", "lock"].map((k) => String(writes[k] ?? 0)).join(" / "),
          side === "file" ? "-" : ((writes["checkpoint"] ?? 0) / row.steps).toFixed(2),
        ]),
      ],
    );
  }
}
