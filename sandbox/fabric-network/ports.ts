/**
 * Free TCP ports on 127.0.0.1 for the nodes. Fabric takes its ports from its configuration (and the channel's
 * genesis block names the orderers' and anchor peers' ports), so they are chosen before any process starts, then
 * handed over. They are drawn below the kernel's ephemeral range (/proc/sys/net/ipv4/ip_local_port_range): the kernel
 * never gives those to port-0 listeners or outgoing connections, so nothing on this machine takes one between our
 * check and the node's bind unless it asks for that very port (another network drawing at the same moment could).
 * Each is checked by binding it.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The lowest port drawn. */
export const PORT_RANGE_LOW = 20000;

/** [low, high): the range ports are drawn from (high = the start of the kernel's ephemeral range). */
export function portRange(): readonly [number, number] {
  return [PORT_RANGE_LOW, ephemeralLow()];
}

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > PORT_RANGE_LOW + 1000 ? low : 32768;
  } catch {
    return 32768;
  }
}

function canBind(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => {
      resolve(false);
    });
    server.listen({ port, host: "127.0.0.1", exclusive: true }, () => {
      server.close(() => {
        resolve(true);
      });
    });
  });
}

/** Ports this process has handed out: never handed out twice (two networks may start at once in one process). */
const handedOut = new Set<number>();

/**
 * Where processes record the ports they handed out: a file per port holding the claiming process's pid. A port whose
 * node was killed is free to bind until the node is started again, so another process's network (a parallel mocha
 * worker) drew a killed orderer's port and the restarted orderer failed with "address already in use". A claim holds
 * while its process lives; a dead process's claim is taken over.
 */
export const PORT_CLAIMS_DIR = join(tmpdir(), "opsledger-port-claims");

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Claims `port` for this process; false when a living process holds it. */
export function claimPort(port: number, dir: string = PORT_CLAIMS_DIR): boolean {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, String(port));
  const write = (): boolean => {
    try {
      writeFileSync(file, String(process.pid), { flag: "wx" });
      return true;
    } catch {
      return false;
    }
  };
  if (write()) return true;
  let holder: number;
  try {
    holder = Number(readFileSync(file, "utf8"));
  } catch {
    return write(); // released in between
  }
  if (holder === process.pid || (Number.isInteger(holder) && holder > 0 && isAlive(holder))) return false;
  try {
    unlinkSync(file); // a dead process's claim
  } catch {
    // another process took it over first
  }
  return write();
}

/**
 * `count` distinct free ports, drawn at random from [PORT_RANGE_LOW, ephemeral range), none claimed by another living
 * process of ours (claimPort). A program of someone else's can still bind one first: startFabricNetwork retries when a
 * node reports its port taken.
 */
export async function freePorts(count: number, random: () => number = Math.random): Promise<number[]> {
  const [low, high] = portRange();
  const chosen = new Set<number>();
  for (let attempts = 0; chosen.size < count; attempts++) {
    if (attempts > count * 50) throw new Error(`no ${count} free ports on 127.0.0.1 in [${low}, ${high})`);
    const port = low + Math.floor(random() * (high - low));
    if (chosen.has(port) || handedOut.has(port) || !claimPort(port)) continue;
    chosen.add(port);
    handedOut.add(port);
    if (!(await canBind(port))) chosen.delete(port);
  }
  return [...chosen];
}
