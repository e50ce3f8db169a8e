import { strict as assert } from "node:assert";
import { spawn, type ChildProcess, type ChildProcessByStdio } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { Readable } from "node:stream";
import { ORPHAN_EXIT_CODE } from "../../../provider/resources/orphan-guard";

/**
 * A child shaped like @pulumi/pulumi's dynamic-provider process: its uncaught-error handler prints with console.error
 * and keeps every error in a Set. `guard` decides whether it installs exitWhenOutputIsGone (as dispatch does).
 */
const CHILD = `
const guard = process.argv[2] === "guard";
if (guard) require(process.argv[3]).exitWhenOutputIsGone();
const uncaughtErrors = new Set();
const uncaughtHandler = (err) => {
  if (!uncaughtErrors.has(err)) {
    uncaughtErrors.add(err);
    console.error(err.stack || err.message || "" + err);
  }
};
process.on("uncaughtException", uncaughtHandler);
process.on("unhandledRejection", uncaughtHandler);
setInterval(() => {}, 1000); // a provider's gRPC server keeps the process alive
setTimeout(() => { throw new Error("the engine went away"); }, 200);
`;

function startOrphan(guard: boolean): ChildProcessByStdio<null, Readable, Readable> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-orphan-"));
  const script = path.join(dir, "provider.js");
  fs.writeFileSync(script, CHILD);
  const guardModule = require.resolve("../../../provider/resources/orphan-guard");
  const child = spawn(process.execPath, [script, guard ? "guard" : "no-guard", guardModule], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  // The CLI is gone: nobody reads the provider's output any more.
  child.stdout.destroy();
  child.stderr.destroy();
  return child;
}

function exitOf(child: ChildProcess, timeoutMs: number): Promise<number | null | "still running"> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve("still running");
    }, timeoutMs);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

describe("orphan guard (provider process whose CLI was killed)", function () {
  this.timeout(30_000);

  it("without it, the orphan lives on after writing to its closed pipes (the real one spins: test/e2e)", async () => {
    const child = startOrphan(false);
    try {
      assert.equal(await exitOf(child, 2_000), "still running");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("with it, the orphan exits with ORPHAN_EXIT_CODE at its first write to a closed pipe", async () => {
    const child = startOrphan(true);
    try {
      assert.equal(await exitOf(child, 10_000), ORPHAN_EXIT_CODE);
    } finally {
      child.kill("SIGKILL");
    }
  });
});
