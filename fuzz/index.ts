/**
 * `npm run fuzz -- <target>|all [--seconds N] [--max-len BYTES]`: coverage-guided fuzzing of the decoders, a
 * benchmark-style command (never part of `npm test`). Targets: wire-decode, unwrap, gateway, cli-decode, cli-verify
 * (fuzz/targets/). Each runs in a worker thread for N seconds (default 60) from the seeds captured from a real
 * Fabric network (test/fixtures/fuzz/seeds/<target>/) plus the regression inputs (test/fixtures/fuzz/<target>/).
 * An input that ends in anything but success or a typed, readable error, that takes over 100 ms (three more times)
 * or that never returns (10 s) is written to test/fixtures/fuzz/<target>/, where `npm test` runs it
 * (test/unit/ledger/fuzz-regressions.test.ts). Exit code 1 when a run found something.
 *
 * Jazzer.js cannot run here (its prebuilt addon needs glibc 2.38; docs/testing.md#fuzzing): the feedback is V8's
 * own block coverage (fuzz/coverage.ts) and the mutations are libFuzzer-style plus protobuf-aware (fuzz/mutate.ts).
 */
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import * as os from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { printTable } from "../bench/table";
import { FUZZ_TARGETS } from "./targets";
import type { Finding, WorkerInput, WorkerReport } from "./worker";

/** An input slower than this is a finding (the goal: none slower than 100 ms). */
export const SLOW_INPUT_MS = 100;
/** An execution still running after this long is a hang: the worker is stopped and the input saved. */
export const HANG_MS = 10_000;
export const DEFAULT_FUZZ_SECONDS = 60;
export const DEFAULT_MAX_LENGTH = 64 * 1024;

const FIXTURES = join(__dirname, "..", "..", "test", "fixtures", "fuzz");

function flag(name: string): string | undefined {
  const args = process.argv.slice(2);
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
}

function runTarget(target: string, seconds: number, maxLength: number): Promise<WorkerReport> {
  const shared = new SharedArrayBuffer(8 + maxLength);
  const header = new Int32Array(shared, 0, 2);
  const workerInput: WorkerInput = { target, seconds, maxLength, slowMs: SLOW_INPUT_MS, fixtures: FIXTURES, shared };
  const worker = new Worker(join(__dirname, "worker.js"), { workerData: workerInput });
  const origin = performance.now();
  return new Promise<WorkerReport>((resolve, reject) => {
    let hang: Finding | undefined;
    const watchdog = setInterval(() => {
      const started = Atomics.load(header, 0);
      if (started === 0 || performance.now() - origin - started < HANG_MS) return;
      const bytes = new Uint8Array(shared, 8, Atomics.load(header, 1)).slice();
      const file = `hang-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.bin`;
      mkdirSync(join(FIXTURES, target), { recursive: true });
      writeFileSync(join(FIXTURES, target, file), bytes);
      hang = {
        kind: "hang",
        signature: "no return",
        message: `still running after ${String(HANG_MS)} ms`,
        file,
        count: 1,
      };
      void worker.terminate();
    }, 250);
    worker.once("message", (report: WorkerReport) => {
      resolve(report);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => {
      clearInterval(watchdog);
      if (hang !== undefined)
        resolve({
          target,
          seeds: 0,
          executions: 0,
          seconds: (performance.now() - origin) / 1000,
          corpus: 0,
          features: 0,
          covered: 0,
          known: 0,
          p50Ms: 0,
          p99Ms: 0,
          maxMs: HANG_MS,
          findings: [hang],
        });
      else if (code !== 0) reject(new Error(`the ${target} worker exited with ${String(code)}`));
    });
  });
}

async function main(): Promise<number> {
  const name = process.argv[2];
  const names = FUZZ_TARGETS.map((t) => t.name);
  if (name === undefined || (name !== "all" && !names.includes(name))) {
    process.stderr.write(`usage: npm run fuzz -- <${names.join("|")}|all> [--seconds N] [--max-len BYTES]\n`);
    return 2;
  }
  const seconds = Number(flag("seconds") ?? DEFAULT_FUZZ_SECONDS);
  const maxLength = Number(flag("max-len") ?? DEFAULT_MAX_LENGTH);
  if (!(seconds > 0) || !(maxLength > 0)) {
    process.stderr.write("--seconds and --max-len take positive numbers\n");
    return 2;
  }
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ");
  process.stdout.write(
    `fuzz: ${new Date().toISOString()}, ${String(os.cpus().length)} CPUs, load average ${load}, ${String(seconds)} s per target\n`,
  );
  const reports: WorkerReport[] = [];
  for (const target of name === "all" ? names : [name]) reports.push(await runTarget(target, seconds, maxLength));
  printTable(
    "Fuzzing (V8 block coverage feedback; covered = source characters of the target's modules in blocks that ran)",
    [
      "target",
      "seeds",
      "executions",
      "exec/s",
      "corpus",
      "features",
      "covered",
      "p50 ms",
      "p99 ms",
      "max ms",
      "findings",
    ],
    reports.map((r) => [
      r.target,
      r.seeds,
      r.executions,
      r.executions / r.seconds,
      r.corpus,
      r.features,
      `${(r.known === 0 ? 0 : (100 * r.covered) / r.known).toFixed(1)}% of ${String(r.known)}`,
      r.p50Ms,
      r.p99Ms,
      r.maxMs,
      r.findings.length,
    ]),
  );
  for (const r of reports)
    for (const f of r.findings)
      process.stdout.write(
        `  ${r.target}: ${f.kind} ${f.signature} (x${String(f.count)}): ${f.message} -> test/fixtures/fuzz/${r.target}/${f.file}\n`,
      );
  return reports.some((r) => r.findings.length > 0) ? 1 : 0;
}

main().then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
