/**
 * `npm test [-- <spec files or folders>]`, after scripts/run.sh built the project (scripts/run.ts calls it):
 *   1. the lint: its examples part first, then the rest beside the tests (OPSLEDGER_SKIP_LINT=1 skips both, never
 *      under CI=true);
 *   2. the Pulumi CLI, pkcs11js and SoftHSM2 the tests need;
 *   3. mocha over the named spec files, or every tier in test/slowest-first.txt's order (scripts/test-order.ts);
 *   4. where the time went (scripts/test-timings.ts), the lint's output and result, and the closing line CI reads:
 *      `mocha: N passed, N failed, N skipped`. The exit code is mocha's, else the lint's.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import {
  cacheDir,
  lintExamples,
  lintRest,
  log,
  pulumiEnv,
  rcodesignReady,
  requirePkcs11js,
  run,
  softhsmEnv,
} from "./lib/run-steps";
import { compiledPath, compiledSpecs, orderSpecs, parseSlowestFirst } from "./test-order";

/** What mocha is given: the spec files in order, then the other arguments as they were. */
export interface MochaArguments {
  readonly specs: readonly string[];
  readonly args: readonly string[];
}

/** A spec file or folder named on the command line that does not exist or holds no spec file. */
export class SelectionError extends Error {}

/**
 * Mocha's arguments for `npm test -- <args>`. Every tier in `order` unless the arguments name spec files (mocha would
 * add a config file's `spec` to named files): test/…/x.test.ts runs as its compiled file; a folder of the tree (test/e2e,
 * test/integration/ledger/) runs the spec files under it, not the whole suite; *.test.js and dist/… are taken as they
 * are; anything else (a mocha option) is passed on.
 */
export function mochaArguments(
  argv: readonly string[],
  order: readonly string[],
  specsUnder: (dir: string) => string[],
  isDirectory: (p: string) => boolean,
): MochaArguments {
  let specs: readonly string[] = order;
  const args: string[] = [];
  for (const arg of argv) {
    if (/^test\/.*\.test\.ts$/.test(arg)) {
      args.push(compiledPath(arg));
      specs = [];
    } else if (arg === "test" || arg.startsWith("test/")) {
      if (!isDirectory(arg)) {
        throw new SelectionError(
          `${arg}: no such spec file or folder (name test/.../x.test.ts files or a folder under test/)`,
        );
      }
      const found = specsUnder(`dist/${arg.replace(/\/$/, "")}`);
      if (found.length === 0) throw new SelectionError(`${arg}: no spec files under it`);
      args.push(...found);
      specs = [];
    } else if (arg.endsWith(".test.js") || arg.startsWith("dist/")) {
      args.push(arg);
      specs = [];
    } else {
      args.push(arg);
    }
  }
  return { specs, args };
}

/** The counts of mocha's own summary ("N passing" / "N failing" / "N pending"), the last of each; absent ones are 0. */
export function mochaCounts(output: string): {
  passed: number;
  failed: number;
  pending: number;
  failedCounted: boolean;
} {
  const last = (word: string): number | undefined => {
    const found = [...output.matchAll(new RegExp(`^ +(\\d+) ${word}`, "gm"))].at(-1);
    return found === undefined ? undefined : Number(found[1]);
  };
  const failed = last("failing");
  return {
    passed: last("passing") ?? 0,
    failed: failed ?? 0,
    pending: last("pending") ?? 0,
    failedCounted: failed !== undefined,
  };
}

/** The closing line CI reads. */
export function closingLine(counts: { passed: number; failed: number; pending: number }): string {
  return `mocha: ${String(counts.passed)} passed, ${String(counts.failed)} failed, ${String(counts.pending)} skipped`;
}

/** Every compiled spec file under `dir`, sorted. */
function specsUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = `${d}/${entry.name}`;
      if (entry.isDirectory()) walk(p);
      else if (entry.name.endsWith(".test.js")) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** Runs mocha, its output (stdout and stderr together) shown as it comes and kept; resolves to its code and output. */
function mocha(args: readonly string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("mocha", args, { stdio: ["inherit", "pipe", "pipe"] });
    let output = "";
    const show = (b: Buffer): void => {
      output += b.toString();
      process.stdout.write(b);
    };
    child.stdout.on("data", show);
    child.stderr.on("data", show);
    child.on("error", (e) => (output += `mocha: ${e.message}\n`));
    child.on("close", (code) => {
      resolve({ code: code ?? 1, output });
    });
  });
}

/** `npm test`: resolves to the exit code. */
export async function runTests(argv: readonly string[]): Promise<number> {
  // OPSLEDGER_SKIP_LINT=1 is for a developer re-running a few spec files after `npm run lint` passed: whole-repository
  // typed linting takes a minute of CPU and ~1.4 GB. CI never sets it.
  // The lint of all but the examples runs beside the tests: ESLint is single-threaded and would otherwise leave one of
  // the two cores idle for half a minute before the first test. Its output is shown, and its failure counted, after
  // mocha's summary (docs/testing.md#where-the-time-goes). Not at a lower priority: on a loaded machine a niced lint
  // was starved until the tests ended and then ran on alone (142 s after mocha's end, with two busy loops beside).
  let lint: Promise<number> | undefined;
  let lintOutput = "";
  if (process.env.OPSLEDGER_SKIP_LINT === "1" && process.env.CI !== "true") {
    log("lint skipped (OPSLEDGER_SKIP_LINT=1)");
  } else {
    lintExamples();
    log("lint of the rest (eslint, prettier) started beside the tests; its result follows mocha's");
    lint = lintRest((text) => (lintOutput += text));
  }
  pulumiEnv();
  requirePkcs11js();
  softhsmEnv();
  // Every pulumi command starts a program and a provider process that load @pulumi/pulumi (and TypeScript, for
  // ts-node): Node's on-disk compile cache halves the CPU of loading them, about 1 % of the suite's time
  // (docs/testing.md#where-the-time-goes).
  process.env.NODE_COMPILE_CACHE ??= path.join(cacheDir(), "node-compile-cache");
  log("mocha");
  const scratch = mkdtempSync(path.join(os.tmpdir(), "opsledger-test-"));
  const timings = path.join(scratch, "timings.jsonl");
  writeFileSync(timings, "");
  process.env.OPSLEDGER_TEST_TIMINGS = timings;
  try {
    // The longest files first (test/slowest-first.txt, then e2e, integration, unit): mocha's workers take the files in
    // this order, so none of the long ones starts last and runs on alone while the other workers have nothing left.
    let order: string[];
    let selected: MochaArguments;
    try {
      order = orderSpecs(compiledSpecs("."), parseSlowestFirst(readFileSync("test/slowest-first.txt", "utf8")));
      selected = mochaArguments(argv, order, specsUnder, (p) => existsSync(p) && statSync(p).isDirectory());
    } catch (e) {
      log(e instanceof Error ? e.message : String(e));
      return 1;
    }
    if (selected.specs.some((s) => s.endsWith("plugin-executables.test.js"))) {
      log("rcodesign for the darwin executables (built once into the cache; cargo prints its progress)");
      rcodesignReady();
    }
    // CI reads the plain closing line "N passed, N failed, N skipped"; mocha's own summary says "N passing" /
    // "N failing" / "N pending". .mocharc.json forbids .only and pending tests (they count as failed), so a skipped
    // test shows here only when a run is started with --no-forbid-pending.
    const { code, output } = await mocha([...selected.specs, ...selected.args]);
    const counts = mochaCounts(output);
    // Where the time went: the slowest spec files (wall time in their worker, hooks included) and the sum per tier.
    try {
      run(process.execPath, ["dist/scripts/test-timings.js", timings], ["ignore", process.stderr, "inherit"]);
    } catch {
      // The table is a help, never a reason to fail the run.
    }
    if (code !== 0 && !counts.failedCounted) {
      log(
        `mocha exited with ${String(code)} before counting any failure (a forbidden .only, a file that does not load: see above)`,
      );
    }
    let lintCode = 0;
    if (lint !== undefined) {
      log("waiting for the lint started beside the tests");
      lintCode = await lint;
      process.stderr.write(lintOutput);
      log(lintCode !== 0 ? `lint FAILED (exit ${String(lintCode)}): see its output above` : "lint passed");
    }
    process.stdout.write(`${closingLine(counts)}\n`);
    return code !== 0 ? code : lintCode;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
