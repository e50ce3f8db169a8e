/**
 * The watchdog of a non-persistent network: a small detached Node process whose stdin is a pipe from the process
 * that started the network. The kernel closes that pipe whenever the owner ends — normally, on an uncaught error,
 * on Ctrl+C, or by kill -9 — and the watchdog then stops every process network.json records (checking each
 * command line first) and removes the folder. close() stops the watchdog before it stops the network itself.
 *
 *   node watchdog.js <network folder>     (started by startFabricNetwork; not meant to be run by hand)
 */
import { spawn } from "node:child_process";
import { closeSync, existsSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Socket } from "node:net";
import { NETWORK_FILE, stopNetwork } from "./network-file";
import type { FabricProcessRecord } from "./types";

/** Starts the watchdog for the network in `dir`; its output goes to `log`. */
export function startWatchdog(dir: string, log: string): FabricProcessRecord {
  const command = [process.execPath, join(__dirname, "watchdog.js"), dir];
  const fd = openSync(log, "a");
  try {
    const child = spawn(command[0] ?? "", command.slice(1), { detached: true, stdio: ["pipe", fd, fd] });
    if (child.pid === undefined) throw new Error("could not start the network's watchdog");
    // Neither the child nor our end of the pipe keeps this process alive; the pipe stays open until we exit.
    child.unref();
    (child.stdin as Socket | null)?.unref();
    return {
      name: "watchdog",
      role: "watchdog",
      mspId: "",
      pid: child.pid,
      ports: {},
      log,
      command,
      cwd: process.cwd(),
      env: {},
    };
  } finally {
    closeSync(fd);
  }
}

async function main(dir: string): Promise<void> {
  process.stdin.resume();
  await new Promise<void>((resolve) => {
    process.stdin.once("close", resolve);
    process.stdin.once("end", resolve);
  });
  if (!existsSync(join(dir, NETWORK_FILE))) return;
  process.stdout.write(`the network's owner has ended: stopping the network in ${dir}\n`);
  const result = await stopNetwork(dir);
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  const dir = process.argv[2];
  if (dir === undefined) {
    process.stderr.write("usage: node watchdog.js <network folder>\n");
    process.exitCode = 2;
  } else {
    main(dir).catch((e: unknown) => {
      process.stderr.write(`watchdog: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    });
  }
}
