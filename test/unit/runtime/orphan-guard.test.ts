import { strict as assert } from "node:assert";
import { spawn, type ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ORPHAN_EXIT_CODE } from "../../../provider/runtime/orphan-guard";

/**
 * A child shaped like @pulumi/pulumi's dynamic-provider process: its uncaught-error handler prints with console.error
 * and keeps every error in a Set. `guard` decides whether it installs exitWhenOutputIsGone (as dispatch does). A
 * listener installed after it only watches: on the first failed write to the closed stderr pipe it reports over the
 * IPC channel (which stays open), one turn of the event loop later — so a report means the child outlived that write.
 */
const CHILD = `
const guard = process.argv[2] === "guard";
if (guard) require(process.argv[3]).exitWhenOutputIsGone();
let reported = false;
process.stderr.on("error", (err) => {
  if (reported || err.code !== "EPIPE") return;
  reported = true;
  setImmediate(() => process.send({ outlived: err.code }));
});
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

function startOrphan(guard: boolean): ChildProcess {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-orphan-"));
  const script = path.join(dir, "provider.js");
  fs.writeFileSync(script, CHILD);
  const guardModule = require.resolve("../../../provider/runtime/orphan-guard");
  const child = spawn(process.execPath, [script, guard ? "guard" : "no-guard", guardModule], {
    stdio: ["ignore", "pipe", "pipe", "ipc"],
  });
  // The CLI is gone: nobody reads the provider's output any more.
  assert.ok(child.stdout !== null && child.stderr !== null);
  child.stdout.destroy();
  child.stderr.destroy();
  return child;
}

/** What the child did first: exited (with its code), or reported that it survived writes to its closed pipes. */
function firstOf(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`the child neither exited nor reported within ${String(timeoutMs)} ms`));
    }, timeoutMs);
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      resolve(`exited ${String(code ?? signal)}`);
    });
    child.once("message", (message) => {
      clearTimeout(timer);
      resolve(`reported ${JSON.stringify(message)}`);
    });
  });
}

/** SIGKILLs the child and resolves once it has exited (Node has reaped it). */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

describe("orphan guard (provider process whose CLI was killed)", function () {
  this.timeout(30_000);

  it("without it, the orphan lives on after writing to its closed pipes (the real one spins: test/e2e)", async () => {
    const child = startOrphan(false);
    try {
      // The event, not a time: its write to the closed pipe failed, and it was still running a turn later.
      assert.equal(await firstOf(child, 20_000), 'reported {"outlived":"EPIPE"}');
      assert.equal(child.exitCode, null);
    } finally {
      await stop(child);
    }
  });

  it("with it, the orphan exits with ORPHAN_EXIT_CODE at its first write to a closed pipe", async () => {
    const child = startOrphan(true);
    try {
      assert.equal(await firstOf(child, 20_000), `exited ${String(ORPHAN_EXIT_CODE)}`);
    } finally {
      await stop(child);
    }
  });
});
