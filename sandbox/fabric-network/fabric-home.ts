/**
 * Where a Fabric release's binaries are: scripts/ensure-fabric.sh unpacks the release archive once into the cache
 * (from $OPSLEDGER_RELEASE_MIRROR or the official release, checksum-verified) and prints the folder. Its progress
 * goes to this process's stderr.
 */
import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { FABRIC_VERSIONS, type FabricVersion } from "./types";

/** The repository root (this file runs from dist/sandbox/fabric-network). */
export const REPOSITORY_ROOT = resolve(__dirname, "..", "..", "..");

export function isFabricVersion(value: string): value is FabricVersion {
  return (FABRIC_VERSIONS as readonly string[]).includes(value);
}

export function ensureFabric(version: FabricVersion): Promise<string> {
  const script = join(REPOSITORY_ROOT, "scripts", "ensure-fabric.sh");
  return new Promise((resolvePath, reject) => {
    const child = spawn("bash", [script, version], { stdio: ["ignore", "pipe", "inherit"] });
    let out = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => (out += chunk));
    child.once("error", reject);
    child.once("exit", (code) => {
      const dir = out.trim().split("\n").pop() ?? "";
      if (code === 0 && dir !== "") resolvePath(dir);
      else reject(new Error(`bash ${script} ${version} failed (exit ${String(code)}): see its messages above`));
    });
  });
}
