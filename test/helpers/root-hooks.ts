/**
 * Mocha root hooks, loaded by .mocharc.json in every test process (each parallel worker): the egress guard
 * (egress-guard.ts) is installed before any test file loads, and after each test any connection refused in this
 * process, or reported by a program or provider process the test started, fails that test with the destinations and
 * where they were asked for.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import {
  EGRESS_LOG_ENV,
  describeViolations,
  installEgressGuard,
  takeLoggedViolations,
  takeViolations,
} from "./egress-guard";

installEgressGuard();
const logDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-egress-"));
const logFile = path.join(logDir, "refused.jsonl");
fs.writeFileSync(logFile, "");
// Inherited by the processes a test starts (project-stack.ts adds the preload to their NODE_OPTIONS).
process.env[EGRESS_LOG_ENV] = logFile;
process.on("exit", () => {
  fs.rmSync(logDir, { recursive: true, force: true });
});

// OPSLEDGER_TEST_TIMINGS names a file that gets one JSON line per spec file: its wall time in this worker, hooks
// (network starts, stack set-ups) included. scripts/run-tests.ts sets it and prints the slowest files after the run.
const timingsFile = process.env.OPSLEDGER_TEST_TIMINGS;
let fileStartedAt = 0;

export const mochaHooks = {
  // In parallel mode each worker runs one spec file per root suite: these run once per file.
  beforeAll(): void {
    fileStartedAt = Date.now();
  },
  afterAll(this: Mocha.Context): void {
    if (timingsFile === undefined || timingsFile === "") return;
    const files = new Set<string>();
    for (const suite of this.test?.parent?.suites ?? []) if (suite.file !== undefined) files.add(suite.file);
    const line = {
      file: [...files].map((f) => path.relative(process.cwd(), f)).join(","),
      startedAt: fileStartedAt,
      ms: Date.now() - fileStartedAt,
    };
    fs.appendFileSync(timingsFile, JSON.stringify(line) + "\n");
  },
  afterEach(): void {
    const found = [...takeViolations(), ...takeLoggedViolations(logFile)];
    if (found.length > 0) throw new Error(describeViolations(found));
  },
};
