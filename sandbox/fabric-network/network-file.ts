/**
 * network.json: read, written atomically (a reader in another process never sees half a file), and the stop of a
 * whole network from it — what `npm run fabric:down`, the watchdog and close() share. A folder is removed only when
 * it holds a network.json of this schema, so a wrong --dir never deletes anything else.
 */
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { stopRecorded } from "./processes";
import type { FabricNetworkDescription, FabricProcessRecord, FabricProcessRole } from "./types";

export const NETWORK_FILE = "network.json";

/** The network.json path for a folder or a network.json path. */
export function networkFilePath(dirOrFile: string): string {
  return basename(dirOrFile) === NETWORK_FILE ? dirOrFile : join(dirOrFile, NETWORK_FILE);
}

export function readNetworkFile(dirOrFile: string): FabricNetworkDescription {
  const file = networkFilePath(dirOrFile);
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file} is not a network description: ${e instanceof Error ? e.message : String(e)}`, {
      cause: e,
    });
  }
  const d = parsed as Partial<FabricNetworkDescription> | null;
  if (d?.schema !== 1 || !Array.isArray(d.processes) || typeof d.dir !== "string")
    throw new Error(`${file} is not a network description of schema 1 (written by sandbox/fabric-network)`);
  return d as FabricNetworkDescription;
}

export function writeNetworkFile(description: FabricNetworkDescription): void {
  const file = join(description.dir, NETWORK_FILE);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(description, null, 2) + "\n");
  renameSync(tmp, file);
}

/** Rewrites one process's record in network.json (a read-modify-write of the current file). */
export function updateProcess(
  dirOrFile: string,
  name: string,
  change: (record: FabricProcessRecord) => FabricProcessRecord,
): FabricNetworkDescription {
  const description = readNetworkFile(dirOrFile);
  const updated = {
    ...description,
    processes: description.processes.map((p) => (p.name === name ? change(p) : p)),
  };
  writeNetworkFile(updated);
  return updated;
}

/** Appends a process record to network.json. */
export function addProcess(dirOrFile: string, record: FabricProcessRecord): void {
  const description = readNetworkFile(dirOrFile);
  writeNetworkFile({ ...description, processes: [...description.processes, record] });
}

/** Stop order: clients of a role go before the role they use. */
const STOP_ORDER: readonly FabricProcessRole[] = ["chaincode", "peer", "orderer"];

export interface StopNetworkResult {
  /** Per process: "stopped", "not running" or "pid reused" (then it was left alone). */
  readonly processes: Readonly<Record<string, string>>;
  readonly removed: boolean;
}

/**
 * Stops every process network.json records (chaincode servers, then peers, then orderers; a role's processes in
 * parallel) and removes the folder. `remove: false` keeps the folder (for post-mortems).
 */
export async function stopNetwork(
  dirOrFile: string,
  options: { readonly remove?: boolean; readonly signal?: NodeJS.Signals } = {},
): Promise<StopNetworkResult> {
  const description = readNetworkFile(dirOrFile);
  const outcome: Record<string, string> = {};
  for (const role of STOP_ORDER) {
    const group = description.processes.filter((p) => p.role === role);
    const results = await Promise.all(group.map((p) => stopRecorded(p, options.signal ?? "SIGTERM")));
    group.forEach((p, i) => (outcome[p.name] = results[i] ?? "not running"));
  }
  const remove = options.remove ?? true;
  const dir = description.dir;
  if (remove && existsSync(join(dir, NETWORK_FILE)) && resolve(dirname(networkFilePath(dirOrFile))) === resolve(dir)) {
    rmSync(dir, { recursive: true, force: true });
  }
  return { processes: outcome, removed: remove && !existsSync(dir) };
}
