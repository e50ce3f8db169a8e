import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpuTimeMs, sampleProcessTree } from "../../../bench/process-sampler";

/** Keeps this process on the CPU for `ms` of its own CPU time. */
function spin(ms: number): void {
  const start = process.cpuUsage();
  for (;;) {
    const used = process.cpuUsage(start);
    if ((used.user + used.system) / 1000 >= ms) return;
  }
}

describe("bench/process-sampler CPU time", () => {
  it("reads a process's user + system CPU time as Node's own accounting does", () => {
    const before = cpuTimeMs(process.pid);
    const own = process.cpuUsage();
    spin(300);
    const after = cpuTimeMs(process.pid);
    const used = process.cpuUsage(own);
    assert.ok(before !== undefined && after !== undefined);
    // /proc counts in clock ticks (10 ms at CLK_TCK 100): the two figures agree to a few ticks.
    const ownMs = (used.user + used.system) / 1000;
    assert.ok(Math.abs(after - before - ownMs) <= 40, `/proc ${String(after - before)} ms, Node ${String(ownMs)} ms`);
  });

  it("is undefined for a process that does not exist", () => {
    assert.equal(cpuTimeMs(2 ** 22 + 1), undefined); // above Linux's largest pid_max
  });

  it("keeps the CPU time of each process of the tree, the busy child apart from its idle parent", async () => {
    // An idle node parent whose node child spends 400 ms of CPU, says "done" and waits for its stdin to close.
    const busy =
      "for(;;){const u=process.cpuUsage();if(u.user+u.system>=400000)break}" +
      "process.stdout.write('done\\n');process.stdin.resume();process.stdin.on('end',()=>process.exit(0))";
    const parent = `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(busy)}], { stdio: "inherit" }).on("exit", (c) => process.exit(c ?? 1))`;
    const root = spawn(process.execPath, ["-e", parent], { stdio: ["pipe", "pipe", "inherit"] });
    const sampler = sampleProcessTree(root.pid ?? 0, 20);
    await new Promise<void>((resolve) =>
      root.stdout.on("data", () => {
        resolve();
      }),
    );
    const seen = sampler.stop(); // its last sample is taken now, while both processes still run
    root.stdin.end();
    await new Promise<void>((resolve) =>
      root.on("exit", () => {
        resolve();
      }),
    );
    const child = seen.find((p) => p.pid !== root.pid && p.command.includes("cpuUsage"));
    const idle = seen.find((p) => p.pid === root.pid);
    assert.ok(child !== undefined && idle !== undefined, JSON.stringify(seen));
    // At least the 400 ms the child counted itself (less a tick of rounding), and not much more.
    assert.ok(child.cpuMs >= 390 && child.cpuMs <= 700, `child ${String(child.cpuMs)} ms`);
    assert.ok(idle.cpuMs < child.cpuMs / 2, `parent ${String(idle.cpuMs)} ms`);
  });
});
