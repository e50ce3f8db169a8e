/**
 * The processes of the refresh benchmark (bench/ledger-refresh.ts), each run on its own as a user would run a script,
 * looking up the same recorded txIds at the same concurrency:
 * - `official`: the baseline, @hyperledger/fabric-gateway (Org1's client over TLS, sandbox/fabric-network's
 *   connectGateway) calling qscc GetTransactionByID for each txId, each answer decoded with @hyperledger/fabric-protos
 *   for its validation code;
 * - `provider`: the provider's own refresh (ledgerTransactionsProvider.read) on the stack's exported outputs, in a
 *   plain process: what our process costs without the engine.
 *
 * Usage: node dist/bench/ledger-refresh-script.js '<json RefreshScriptJob>' — prints one JSON line, RefreshScriptResult.
 */
import * as fs from "node:fs";
import { peer } from "@hyperledger/fabric-protos";
import { mapBounded } from "../provider/ledger/bounded-map";
import { ledgerTransactionsProvider } from "../provider/resources/ledger/ledger-transactions";
import type { LedgerTransactionsOutputs } from "../provider/resources/ledger/ledger-transactions-inputs";
import { connectGateway, openFabricNetwork } from "../sandbox/fabric-network";

export interface RefreshScriptJob {
  readonly mode: "official" | "provider";
  /** network.json of the running network. */
  readonly networkFile: string;
  /** Lookups in flight at once (`official`; `provider` takes the outputs' maxInFlight). */
  readonly parallel: number;
  /** A JSON file: `{ id, props }`, the resource's id and its outputs as the state holds them (secrets in the clear). */
  readonly stateFile: string;
}

export interface RefreshScriptResult {
  /** From connecting to the last answer (the process's start-up is measured by the caller). */
  readonly workMs: number;
  /** The txIds found VALID on the ledger. */
  readonly found: number;
  /** The process's CPU time (user + system) from its start to its end, start-up included. */
  readonly cpuMs: number;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? "{}") as RefreshScriptJob;
  const { id, props } = JSON.parse(fs.readFileSync(job.stateFile, "utf8")) as {
    id: string;
    props: LedgerTransactionsOutputs;
  };
  const started = performance.now();
  let found: number;
  if (job.mode === "provider") {
    const read = await ledgerTransactionsProvider.read(id, props);
    found = read.props?.committed.length ?? 0;
  } else {
    const network = openFabricNetwork(job.networkFile);
    const connection = connectGateway(network.organization("Org1MSP"));
    try {
      const qscc = connection.gateway.getNetwork(network.channel).getContract("qscc");
      const { outcomes } = await mapBounded(props.committed, job.parallel, async (c) => {
        const answer = await qscc.evaluateTransaction("GetTransactionByID", network.channel, c.txId);
        return peer.ProcessedTransaction.deserializeBinary(answer).getValidationcode() === 0;
      });
      const failed = outcomes.find((o) => o?.ok === false);
      if (failed !== undefined) throw failed.error;
      found = outcomes.filter((o) => o?.ok === true && o.value).length;
    } finally {
      connection.close();
    }
  }
  const workMs = Math.round(performance.now() - started);
  const cpu = process.cpuUsage();
  const result: RefreshScriptResult = { workMs, found, cpuMs: Math.round((cpu.user + cpu.system) / 1000) };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
