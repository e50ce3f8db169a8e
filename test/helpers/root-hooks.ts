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

export const mochaHooks = {
  afterEach(): void {
    const found = [...takeViolations(), ...takeLoggedViolations(logFile)];
    if (found.length > 0) throw new Error(describeViolations(found));
  },
};
