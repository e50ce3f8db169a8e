/**
 * The fuzz loop of one target, in a worker thread (fuzz/index.ts watches it for hangs): the seed corpus and the
 * regression inputs first, then mutants of the corpus until the time is up. Before each execution the input is
 * copied into shared memory with its start time, so the main thread can save it if it never returns.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parentPort, workerData } from "node:worker_threads";
import { BlockCoverage } from "./coverage";
import { newMutator } from "./mutate";
import { FUZZ_TARGETS, runInput, UntypedFailure } from "./targets";

/** What the main thread passes. */
export interface WorkerInput {
  readonly target: string;
  readonly seconds: number;
  readonly maxLength: number;
  readonly slowMs: number;
  readonly fixtures: string;
  readonly shared: SharedArrayBuffer;
}

/** A distinct failure: one saved input per signature (the error's class and where it was thrown). */
export interface Finding {
  readonly kind: "untyped" | "slow" | "hang";
  readonly signature: string;
  readonly message: string;
  readonly file: string;
  readonly count: number;
  readonly ms?: number;
}

/** What the worker posts when its time is up. */
export interface WorkerReport {
  readonly target: string;
  readonly seeds: number;
  readonly executions: number;
  readonly seconds: number;
  readonly corpus: number;
  readonly features: number;
  readonly covered: number;
  readonly known: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly findings: readonly Finding[];
}

/** Inputs run between two coverage reads. */
const BATCH = 16;

function files(dir: string): Uint8Array[] {
  let names: string[];
  try {
    names = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.endsWith(".json") && !d.name.endsWith(".md"))
      .map((d) => d.name)
      .sort();
  } catch {
    return [];
  }
  return names.map((name) => new Uint8Array(readFileSync(join(dir, name))));
}

function signatureOf(error: UntypedFailure): string {
  const original = error.original;
  const stack = original instanceof Error ? (original.stack ?? "") : "";
  const frame = stack.split("\n").find((line) => line.includes("/provider/")) ?? "";
  const where = /\/provider\/(\S+?):(\d+)/.exec(frame);
  const name = original instanceof Error ? original.constructor.name : typeof original;
  return `${name} at ${where === null ? "?" : `${where[1] ?? ""}:${where[2] ?? ""}`}`;
}

async function fuzz(input: WorkerInput): Promise<WorkerReport> {
  const target = FUZZ_TARGETS.find((t) => t.name === input.target);
  if (target === undefined) throw new Error(`no target ${input.target}`);
  const header = new Int32Array(input.shared, 0, 2);
  const body = new Uint8Array(input.shared, 8);
  const origin = performance.now();
  const seeds = [...files(join(input.fixtures, "seeds", target.name)), ...files(join(input.fixtures, target.name))];
  const regressionDir = join(input.fixtures, target.name);
  const coverage = new BlockCoverage("/dist/provider/");
  const mutator = newMutator(input.maxLength);
  const corpus: Uint8Array[] = [];
  const findings = new Map<string, Finding>();
  const times: number[] = [];
  let executions = 0;

  const save = (kind: Finding["kind"], signature: string, message: string, bytes: Uint8Array, ms?: number) => {
    const known = findings.get(`${kind} ${signature}`);
    if (known !== undefined) {
      findings.set(`${kind} ${signature}`, { ...known, count: known.count + 1 });
      return;
    }
    const name = `${kind}-${createHash("sha256").update(bytes).digest("hex").slice(0, 16)}.bin`;
    mkdirSync(regressionDir, { recursive: true });
    writeFileSync(join(regressionDir, name), bytes);
    findings.set(`${kind} ${signature}`, {
      kind,
      signature,
      message,
      file: name,
      count: 1,
      ...(ms === undefined ? {} : { ms }),
    });
  };

  const execute = async (bytes: Uint8Array): Promise<number> => {
    body.set(bytes.subarray(0, body.length));
    Atomics.store(header, 1, bytes.length);
    Atomics.store(header, 0, Math.max(1, Math.round(performance.now() - origin)));
    const start = performance.now();
    try {
      await runInput(target, bytes);
    } catch (error) {
      if (!(error instanceof UntypedFailure)) throw error;
      save("untyped", signatureOf(error), error.message.slice(0, 300), bytes);
    } finally {
      Atomics.store(header, 0, 0);
    }
    executions++;
    return performance.now() - start;
  };

  const runOne = async (bytes: Uint8Array) => {
    const ms = await execute(bytes);
    times.push(ms);
    if (ms > input.slowMs) {
      // The machine is shared: count an input slow only if it is slow three times more.
      let best = ms;
      for (let i = 0; i < 3 && best > input.slowMs; i++) best = Math.min(best, await execute(bytes));
      if (best > input.slowMs)
        save("slow", `over ${String(input.slowMs)} ms`, `${best.toFixed(1)} ms at best of 4 runs`, bytes, best);
    }
  };

  for (const seed of seeds) {
    await runOne(seed);
    coverage.collect(true);
    corpus.push(seed);
  }
  if (corpus.length === 0) corpus.push(new Uint8Array(0));
  const deadline = origin + input.seconds * 1000;
  while (performance.now() < deadline) {
    // Reading coverage costs more than most executions: run a batch, read once, and only when the batch shows
    // something new run its inputs again one by one to find which (the targets are deterministic).
    const batch = Array.from({ length: BATCH }, () =>
      mutator.mutate(corpus[Math.floor(Math.random() * corpus.length)] as Uint8Array, corpus),
    );
    for (const bytes of batch) await runOne(bytes);
    if (!coverage.collect(false)) continue;
    for (const bytes of batch) {
      await runOne(bytes);
      if (coverage.collect(true)) corpus.push(bytes);
    }
  }
  const { covered, known } = coverage.summary(target.modules);
  coverage.close();
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0;
  return {
    target: target.name,
    seeds: seeds.length,
    executions,
    seconds: (performance.now() - origin) / 1000,
    corpus: corpus.length,
    features: coverage.features,
    covered,
    known,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: times.at(-1) ?? 0,
    findings: [...findings.values()],
  };
}

if (parentPort !== null) {
  const port = parentPort;
  fuzz(workerData as WorkerInput).then(
    (report) => {
      port.postMessage(report);
    },
    (error: unknown) => {
      throw error;
    },
  );
}
