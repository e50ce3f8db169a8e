/**
 * `npm run bench`: every benchmark, each printed as a table with its baseline side by side and the ratio against the
 * target. Never part of `npm test`. A section that fails prints its error and the others still run.
 * `npm run bench -- <name> ...` runs only the named sections (client, waiter, scale, reads, quota, codec, signing,
 * plugin-scale, plugin-executables, python, key-types, ledger-scale, ledger-refresh, submit, fabric-start, postgres,
 * chaincode:
 * `--fabric 3.1.5` picks its release). OPSLEDGER_BENCH_SCALE_SIZES (default 10,100,1000) and
 * OPSLEDGER_BENCH_PARALLEL (default 16) size the scale benchmarks; OPSLEDGER_BENCH_MOVE_MS (default 2000) is how long
 * `python`'s moves take in the sandbox (0: every side's floor). `--real` makes `submit` run through a real Fabric
 * network instead of the sandbox (`--fabric 3.1.5` picks the release; default the LTS), with the time of one
 * LedgerTransaction `pulumi up` against it. `ledger-scale` runs on a real network too: Raft on the LTS by default,
 * `--consensus BFT` for SmartBFT on 3.1.5; OPSLEDGER_BENCH_LEDGER_SIZES (default 1,100) sizes it, and
 * OPSLEDGER_BENCH_LEDGER_SINGLES_UP_TO caps the sizes run as one LedgerTransaction each (1,000 of those take long).
 * `ledger-refresh` (the same networks and flags) refreshes one LedgerTransactions of OPSLEDGER_BENCH_REFRESH_SIZE items
 * (default 1000), OPSLEDGER_BENCH_PARALLEL at once.
 */
import * as os from "node:os";
import { benchChaincodeDeploy } from "./chaincode-deploy";
import { benchClientOverhead } from "./client-overhead";
import { benchFabricNetworkStart } from "./fabric-network-start";
import { benchLedgerCodec } from "./ledger-codec";
import { benchLedgerKeyTypes } from "./ledger-key-types";
import { benchLedgerScale } from "./ledger-scale";
import { printLedgerScale } from "./ledger-scale-report";
import { benchLedgerRefresh, printLedgerRefresh } from "./ledger-refresh";
import { benchPluginExecutables } from "./plugin-executables";
import { benchPluginScale } from "./plugin-scale";
import { benchPythonScale, printPythonScale } from "./python-scale";
import { benchPostgresBackend, printPostgresBackend } from "./postgres-backend";
import { benchHsmSubmit, benchSignerBackends } from "./ledger-signer-backends";
import { benchLedgerSigning } from "./ledger-signing";
import { benchLedgerSubmit } from "./ledger-submit";
import { benchScaleMoves } from "./scale-moves";
import { benchScaleQuota } from "./scale-quota";
import { benchScaleReads } from "./scale-reads";
import { printScaleMoves, printScaleQuota, printScaleReads } from "./scale-report";
import { benchRealLedgerSubmit } from "./ledger-submit-real";
import type { FabricConsensus, FabricVersion } from "../sandbox/fabric-network";
import { printTable, ratio } from "./table";
import { MAX_MEAN_DELAY_PCT, MAX_WORST_DELAY_PCT, benchWaiterSchedule } from "./waiter-schedule";

type Section = readonly [name: string, run: () => Promise<void>];

/** "10,100,1000" as numbers; undefined when unset. */
function numbers(text: string | undefined): number[] | undefined {
  return text === undefined || text.trim() === "" ? undefined : text.split(",").map(Number);
}

/** A line of progress on stderr (the scale benchmarks take minutes). */
function progress(line: string): void {
  process.stderr.write(`  .. ${line}\n`);
}

/** The value of `--<name> <value>` on the command line, else undefined. */
function flag(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
}
const REAL = process.argv.includes("--real");

/** The real network `--consensus` and `--fabric` ask for: Raft on the LTS by default, SmartBFT on 3.1.5. */
function realNetwork(): { version: FabricVersion; consensus: FabricConsensus } {
  const consensus = (flag("consensus") ?? "etcdraft") as FabricConsensus;
  return { consensus, version: (flag("fabric") ?? (consensus === "BFT" ? "3.1.5" : "2.5.16")) as FabricVersion };
}

async function realSubmit(): Promise<void> {
  const r = await benchRealLedgerSubmit({ version: (flag("fabric") ?? "2.5.16") as FabricVersion });
  printTable(
    `End-to-end submissions through a real Fabric ${r.version} network (3 Raft orderers, 2 organizations, TLS; ` +
      `${String(r.transactions)} per side and round, ${String(r.concurrency)} in flight; target >= 1x the official client)`,
    ["client", "submissions/s", "client CPU ms/tx", "ratio vs official"],
    r.rows.map((row) => [row.client, row.submissionsPerSec, row.cpuMsPerTx, `${row.ratioVsOfficial.toFixed(2)}x`]),
  );
  const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
  const seconds = (ms: readonly number[]): string =>
    `${(median(ms) / 1000).toFixed(2)} (${ms.map((x) => (x / 1000).toFixed(2)).join(", ")})`;
  printTable(
    `One ledger.LedgerTransaction through the plain pulumi CLI against the same network (examples/ledger, a fresh stack each run)`,
    ["run", "s, median (each run)", "ratio"],
    [
      ["the same transaction by a script with our client (baseline)", seconds(r.scriptMs), "1.00x"],
      ["pulumi up (real engine)", seconds(r.pulumiUpMs), `${(median(r.pulumiUpMs) / median(r.scriptMs)).toFixed(1)}x`],
    ],
  );
}

async function postgresBackend(): Promise<void> {
  const [moves = 1000, transactions = 100] = numbers(process.env["OPSLEDGER_BENCH_POSTGRES_SIZES"]) ?? [];
  printPostgresBackend(await benchPostgresBackend({ moves, transactions, onProgress: progress }));
}

const sections: readonly Section[] = [
  [
    "client",
    async () => {
      const r = await benchClientOverhead({ requests: 2000, concurrency: 16 });
      printTable(
        "Google client overhead: 2,000 firewallPolicies.get at concurrency 16 (target <= 1.15x)",
        ["path", "ms", "ratio vs bare axios"],
        [
          ["bare axios (baseline)", r.axiosMs, "1.00x"],
          ["GoogleClient", r.clientMs, `${r.ratio.toFixed(2)}x`],
        ],
      );
    },
  ],
  [
    "waiter",
    () => {
      const { rows, total } = benchWaiterSchedule();
      printTable(
        `Operation waiter vs Terraform's schedule: ${total.operations} durations log-uniform in 1 s - 1 h (simulated clock; target: mean delay <= ${MAX_MEAN_DELAY_PCT}%, worst <= ${MAX_WORST_DELAY_PCT}%, total polls <= Terraform's)`,
        [
          "durations",
          "ops",
          "mean delay",
          "worst delay",
          "Terraform mean",
          "polls/op ours",
          "polls/op Terraform",
          "poll ratio",
        ],
        [...rows, total].map((r) => [
          r.band,
          r.operations,
          `${r.meanDelayPct.toFixed(1)}%`,
          `${r.worstDelayPct.toFixed(1)}%`,
          `${r.terraformMeanDelayPct.toFixed(1)}%`,
          (r.polls / Math.max(1, r.operations)).toFixed(1),
          (r.terraformPolls / Math.max(1, r.operations)).toFixed(1),
          ratio(r.polls, r.terraformPolls),
        ]),
      );
      return Promise.resolve();
    },
  ],
  [
    "scale",
    async () => {
      const options = {
        sizes: numbers(process.env["OPSLEDGER_BENCH_SCALE_SIZES"]) ?? [10, 100, 1000],
        parallel: numbers(process.env["OPSLEDGER_BENCH_PARALLEL"])?.[0] ?? 16,
        moveDurationMs: 2000,
        onProgress: progress,
      };
      printScaleMoves(await benchScaleMoves(options), options);
    },
  ],
  [
    "reads",
    async () => {
      printScaleReads(await benchScaleReads({ count: 500, onProgress: progress }));
    },
  ],
  [
    "quota",
    async () => {
      const count = numbers(process.env["OPSLEDGER_BENCH_SCALE_SIZES"])?.at(-1) ?? 1000;
      printScaleQuota(await benchScaleQuota({ count, limitPerMinute: 300, onProgress: progress }));
    },
  ],
  [
    "codec",
    async () => {
      const rows = await benchLedgerCodec();
      printTable(
        "Ledger codec encode+decode vs @hyperledger/fabric-protos (target >= 2x)",
        ["message", "ours ops/s", "fabric-protos ops/s (baseline)", "ratio"],
        rows.map((r) => [
          r.message,
          Math.round(r.oursOpsPerSec),
          Math.round(r.fabricProtosOpsPerSec),
          `${r.ratio.toFixed(2)}x`,
        ]),
      );
    },
  ],
  [
    "signing",
    async () => {
      const rows = await benchLedgerSigning();
      printTable(
        "ECDSA P-256 low-S signing and verification",
        ["operation", "ours ops/s", "baseline ops/s", "baseline", "ratio"],
        rows.map((r) => [
          r.operation,
          Math.round(r.opsPerSec),
          Math.round(r.baselineOpsPerSec),
          r.baseline,
          `${(r.opsPerSec / r.baselineOpsPerSec).toFixed(2)}x`,
        ]),
      );
      const backends = await benchSignerBackends();
      printTable(
        "Signatures per second by signer backend, next to node:crypto signing the same messages in-process",
        ["backend", "in flight", "signatures/s", "node:crypto/s", "ratio"],
        backends.map((r) => [
          r.backend,
          r.concurrency,
          r.signaturesPerSec,
          r.nodeCryptoPerSec,
          `${(r.signaturesPerSec / r.nodeCryptoPerSec).toFixed(3)}x`,
        ]),
      );
      const submits = await benchHsmSubmit();
      printTable(
        "End-to-end submissions through the Fabric sandbox signed on a SoftHSM2 token",
        ["client and HSM signer", "submissions/s", "ratio vs official"],
        submits.map((r) => [r.client, Math.round(r.submissionsPerSec * 10) / 10, `${r.ratioVsOfficial.toFixed(2)}x`]),
      );
    },
  ],
  [
    "plugin-scale",
    async () => {
      const count = numbers(process.env["OPSLEDGER_BENCH_SCALE_SIZES"])?.at(-1) ?? 1000;
      const parallel = numbers(process.env["OPSLEDGER_BENCH_PARALLEL"])?.[0] ?? 16;
      const r = await benchPluginScale({ count, parallel, onProgress: progress });
      const s = (ms: number): string => (ms / 1000).toFixed(1);
      printTable(
        `pulumi up of ${String(r.count)} FirewallPolicyMoves: a YAML program through the plugin, the TypeScript dynamic ` +
          `path and a plain script making the same calls (--parallel ${String(r.parallel)}, ${String(r.moveDurationMs / 1000)} s ` +
          "operations; goal: the plugin within 1.1x of the script)",
        ["path", "s", "ratio vs script", "resource process peak MB", "CLI peak MB"],
        [
          ["plain script (baseline)", s(r.script.ms), "1.00x", r.script.providerMb, "-"],
          [
            "TypeScript, dynamic provider",
            s(r.typescript.ms),
            ratio(r.typescript.ms, r.script.ms),
            r.typescript.providerMb,
            r.typescript.cliMb,
          ],
          [
            "YAML, pulumi-resource-opsledger (Node.js script)",
            s(r.yaml.ms),
            ratio(r.yaml.ms, r.script.ms),
            r.yaml.providerMb,
            r.yaml.cliMb,
          ],
          [
            "YAML, pulumi-resource-opsledger (linux-amd64 executable)",
            s(r.yamlExecutable.ms),
            ratio(r.yamlExecutable.ms, r.script.ms),
            r.yamlExecutable.providerMb,
            r.yamlExecutable.cliMb,
          ],
        ],
      );
      const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
      const runs = (ms: readonly number[]): string => `${String(median(ms))} (${ms.join(", ")})`;
      printTable(
        "Provider process start-up: spawned with an engine address, to the port it prints when it serves (ms)",
        ["process", "median ms (each run)", "ratio"],
        [
          ["@pulumi/pulumi dynamic-provider host (baseline)", runs(r.dynamicProviderStartupMs), "1.00x"],
          [
            "pulumi-resource-opsledger (Node.js script)",
            runs(r.pluginStartupMs),
            ratio(median(r.pluginStartupMs), median(r.dynamicProviderStartupMs)),
          ],
          [
            "pulumi-resource-opsledger (linux-amd64 executable)",
            runs(r.executableStartupMs),
            ratio(median(r.executableStartupMs), median(r.dynamicProviderStartupMs)),
          ],
        ],
      );
    },
  ],
  [
    "plugin-executables",
    async () => {
      const rows = await benchPluginExecutables(progress);
      const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1);
      printTable(
        "pulumi-resource-opsledger per platform: the executable, its folder as a .tar.gz (gzip -9), the build's time",
        ["target", "Node.js", "executable MB", ".tar.gz MB", "build s"],
        rows.map((r) => [r.target, r.node, mb(r.executableBytes), mb(r.tarGzBytes), (r.buildMs / 1000).toFixed(1)]),
      );
    },
  ],
  [
    "python",
    async () => {
      const count = numbers(process.env["OPSLEDGER_BENCH_SCALE_SIZES"])?.at(-1) ?? 1000;
      const parallel = numbers(process.env["OPSLEDGER_BENCH_PARALLEL"])?.[0] ?? 16;
      // OPSLEDGER_BENCH_MOVE_MS=0: operations done at once, every side's floor (what it adds beyond the waits).
      const moveDurationMs = numbers(process.env["OPSLEDGER_BENCH_MOVE_MS"])?.[0];
      printPythonScale(
        await benchPythonScale({
          count,
          parallel,
          onProgress: progress,
          ...(moveDurationMs === undefined ? {} : { moveDurationMs }),
        }),
      );
    },
  ],
  [
    "key-types",
    async () => {
      const rows = await benchLedgerKeyTypes();
      printTable(
        "Signing and verification per key type, ours next to the official client's signer on the same inputs (one process, one at a time)",
        ["key type", "operation", "ours ops/s", "baseline ops/s", "baseline", "ratio"],
        rows.map((r) => [
          r.keyType,
          r.operation,
          r.opsPerSec,
          r.baselineOpsPerSec,
          r.baseline,
          `${(r.opsPerSec / r.baselineOpsPerSec).toFixed(2)}x`,
        ]),
      );
    },
  ],
  [
    "ledger-scale",
    async () => {
      const { version, consensus } = realNetwork();
      const sizes = numbers(process.env["OPSLEDGER_BENCH_LEDGER_SIZES"]) ?? [1, 100];
      const parallel = numbers(process.env["OPSLEDGER_BENCH_PARALLEL"])?.[0] ?? 16;
      const singlesUpTo = numbers(process.env["OPSLEDGER_BENCH_LEDGER_SINGLES_UP_TO"])?.[0];
      const r = await benchLedgerScale({
        version,
        consensus,
        sizes,
        parallel,
        ...(singlesUpTo === undefined ? {} : { singlesUpTo }),
        onProgress: progress,
      });
      printLedgerScale(r);
    },
  ],
  [
    "ledger-refresh",
    async () => {
      const { version, consensus } = realNetwork();
      const count = numbers(process.env["OPSLEDGER_BENCH_REFRESH_SIZE"])?.[0] ?? 1000;
      const parallel = numbers(process.env["OPSLEDGER_BENCH_PARALLEL"])?.[0] ?? 16;
      printLedgerRefresh(await benchLedgerRefresh({ version, consensus, count, parallel, onProgress: progress }));
    },
  ],
  [
    "submit",
    async () => {
      if (REAL) {
        await realSubmit();
        return;
      }
      const rows = await benchLedgerSubmit();
      printTable(
        "End-to-end submissions through the Fabric sandbox (target >= 1x the official client)",
        ["client", "submissions/s", "ratio vs official"],
        rows.map((r) => [r.client, r.submissionsPerSec, `${r.ratioVsOfficial.toFixed(2)}x`]),
      );
    },
  ],
  [
    "fabric-start",
    async () => {
      const rows = await benchFabricNetworkStart(3);
      const s = (ms: readonly number[]): string => {
        const sorted = [...ms].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
        return `${(median / 1000).toFixed(1)} (${((sorted[0] ?? 0) / 1000).toFixed(1)}-${((sorted.at(-1) ?? 0) / 1000).toFixed(1)})`;
      };
      printTable(
        "A real Fabric network (3 Raft orderers, 2 organizations, ccaas chaincode): release archive to a committed transaction, 3 runs",
        ["Fabric", "archive", "ready s, median (min-max)", "first tx committed s"],
        rows.map((r) => [
          r.version,
          r.cache === "cold" ? "unpacked now" : "already unpacked",
          s(r.readyMs),
          s(r.committedMs),
        ]),
      );
    },
  ],
  ["postgres", postgresBackend],
  [
    "chaincode",
    async () => {
      const r = await benchChaincodeDeploy({ version: (flag("fabric") ?? "2.5.16") as FabricVersion });
      const median = (ms: readonly number[]): number => [...ms].sort((a, b) => a - b)[Math.floor(ms.length / 2)] ?? 0;
      const seconds = (ms: readonly number[]): string =>
        `${(median(ms) / 1000).toFixed(1)} (${ms.map((x) => (x / 1000).toFixed(1)).join(", ")})`;
      printTable(
        `One chaincode deployed on two organizations of a real Fabric ${r.version} network (package, install, approve ` +
          "×2, commit, awaited on both peers; target pulumi up <= 1.5x the peer CLI script)",
        ["run", "s, median (each run)", "ratio"],
        [
          ["peer CLI script as each organization's admin (baseline)", seconds(r.scriptMs), "1.00x"],
          [
            "pulumi up of examples/chaincode (real engine)",
            seconds(r.pulumiUpMs),
            `${(median(r.pulumiUpMs) / median(r.scriptMs)).toFixed(2)}x`,
          ],
          [
            "the same stack's next pulumi up, nothing sent (engine, program, checks' reads)",
            seconds(r.unchangedUpMs),
            `${(median(r.unchangedUpMs) / median(r.scriptMs)).toFixed(2)}x`,
          ],
          [
            `Pulumi's floor: pulumi up of ${String(r.resources)} no-op dynamic resources, fresh stack`,
            seconds(r.floorUpMs),
            `${(median(r.floorUpMs) / median(r.scriptMs)).toFixed(2)}x`,
          ],
        ],
      );
      console.log(
        `(pulumi up - floor) ÷ script: ${((median(r.pulumiUpMs) - median(r.floorUpMs)) / median(r.scriptMs)).toFixed(2)}x`,
      );
    },
  ],
];

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  // Section names only: flags and their values are not sections.
  const only = args.filter(
    (a, i) => !a.startsWith("--") && args[i - 1] !== "--fabric" && args[i - 1] !== "--consensus",
  );
  process.stdout.write(
    `pulumi-opsledger benchmarks — ${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}\n`,
  );
  let failed = 0;
  for (const [name, run] of sections) {
    if (only.length > 0 && !only.includes(name)) continue;
    const start = Date.now();
    try {
      await run();
      process.stdout.write(`(${name}: ${((Date.now() - start) / 1000).toFixed(1)} s)\n`);
    } catch (e) {
      failed++;
      process.stdout.write(`\n${name}: FAILED: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  process.exitCode = failed === 0 ? 0 : 1;
}

void main();
