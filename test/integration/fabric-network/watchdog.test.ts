import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readNetworkFile } from "../../../sandbox/fabric-network";
import { isRunning } from "../../../sandbox/fabric-network/processes";
import { waitFor } from "../../helpers/wait-for";
import { NETWORK_START_TIMEOUT_MS } from "../../helpers/fabric-network-client";

const STARTER = join(__dirname, "../../fixtures/fabric-network/start-and-wait.js");

/** Starts the fixture process; resolves with it and the network.json path it prints once the network is up. */
async function startOwner(): Promise<{ owner: ReturnType<typeof spawn>; networkFile: string }> {
  const owner = spawn(process.execPath, [STARTER, "2.5.16"], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  owner.stdout.setEncoding("utf8");
  const networkFile = await new Promise<string>((resolve, reject) => {
    owner.stdout.on("data", (chunk: string) => {
      out += chunk;
      if (out.includes("\n")) resolve(out.trim());
    });
    owner.once("exit", (code) => {
      reject(new Error(`the process starting the network exited with ${String(code)} before it was up`));
    });
  });
  return { owner, networkFile };
}

describe("the watchdog of a real Fabric network", () => {
  it("stops every process and removes the folder when the process that started the network is killed -9", async function () {
    this.timeout(NETWORK_START_TIMEOUT_MS + 90_000);
    const { owner, networkFile } = await startOwner();
    const description = readNetworkFile(networkFile);
    const watchdog = description.owner?.watchdog;
    assert.ok(watchdog, "a non-persistent network has a watchdog");
    const processes = [...description.processes, watchdog];
    assert.equal(processes.filter((p) => isRunning(p)).length, 8, "7 network processes and the watchdog run");

    owner.kill("SIGKILL");
    await once(owner, "exit");
    await waitFor({
      what: "the watchdog to stop the network",
      read: () => ({
        running: processes.filter((p) => isRunning(p)).map((p) => p.name),
        present: existsSync(description.dir),
      }),
      until: (s) => s.running.length === 0 && !s.present,
      timeoutMs: 60_000,
    });
  });
});
