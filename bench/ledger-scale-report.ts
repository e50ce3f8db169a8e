/** Prints the rows of the ledger scale benchmark (bench/ledger-scale.ts) as tables: the runs, then each step's time. */
import type { LedgerScaleResult } from "./ledger-scale";
import { printTable } from "./table";

/** The `ledger-scale` section's tables: pulumi up next to the script per size, and where the calls spend their time. */
export function printLedgerScale(r: LedgerScaleResult): void {
  const s = (ms: number): string => (ms / 1000).toFixed(2);
  printTable(
    `LedgerTransactions through the plain pulumi CLI against a real Fabric ${r.version} network (${r.consensus}, ` +
      `${String(r.orderers)} orderers, 2 organizations, TLS; --parallel ${String(r.parallel)}), next to a script ` +
      `with our client doing the same (goals: one transaction's up within the floor plus 1.2x the script; 100 in one up within 1.5x)`,
    [
      "transactions",
      "script s (baseline: process start to exit)",
      "the component's calls s (work only)",
      "pulumi up s",
      "Pulumi floor s",
      "up / script",
      "(up - floor) / script",
      "provider MB",
      "state KB",
      "up, checkpoints skipped s (diagnostic)",
      "one LedgerTransactions up s",
      "batch up / script",
      "one no-op resource up s (the batch's floor)",
      "(batch up - its floor) / script",
      "batch's create step s: before / create / after (engine events, +-1 s)",
      "script's 'request already processed' (BFT)",
      "batch provider MB",
      "batch state KB",
    ],
    r.rows.map((row) => [
      row.count,
      s(row.scriptMs),
      row.componentCallsMs === undefined ? "failed" : s(row.componentCallsMs),
      row.pulumiUpMs === undefined ? "not run" : s(row.pulumiUpMs),
      row.floorUpMs === undefined ? "not run" : s(row.floorUpMs),
      row.pulumiUpMs === undefined ? "-" : `${(row.pulumiUpMs / row.scriptMs).toFixed(2)}x`,
      row.pulumiUpMs === undefined || row.floorUpMs === undefined
        ? "-"
        : `${((row.pulumiUpMs - row.floorUpMs) / row.scriptMs).toFixed(2)}x`,
      row.providerMb ?? "-",
      row.stateKb ?? "-",
      row.upNoCheckpointsMs === undefined ? "not run" : s(row.upNoCheckpointsMs),
      s(row.batchUpMs),
      `${(row.batchUpMs / row.scriptMs).toFixed(2)}x`,
      s(row.batchFloorUpMs),
      `${((row.batchUpMs - row.batchFloorUpMs) / row.scriptMs).toFixed(2)}x`,
      row.batchCreateS === undefined
        ? "-"
        : `${String(row.batchCreateS.before)} / ${String(row.batchCreateS.step)} / ${String(row.batchCreateS.after)}`,
      row.scriptAlreadyOrdered,
      row.batchProviderMb,
      row.batchStateKb,
    ]),
  );
  const steps = Object.keys(r.rows[0]?.componentStepMs ?? {});
  printTable(
    "Where a LedgerTransaction's calls spend their time: ms per transaction in each step (the script's component mode)",
    ["transactions", ...steps],
    r.rows.map((row) => [row.count, ...steps.map((k) => row.componentStepMs[k] ?? 0)]),
  );
}
