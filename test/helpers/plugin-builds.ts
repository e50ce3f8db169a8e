/**
 * The builds of pulumi-resource-opsledger the plugin tests run against, one table row each: the npm package's Node.js
 * script (bin/, run by the `node` on PATH) and the linux-amd64 executable carrying its own Node.js
 * (scripts/build-plugin-executables.ts). The executable is built once per set of inputs (the compiled provider, the
 * .proto files, the lock file, the build script) into the project's cache, and shared by the test workers: the build
 * runs under flock(1), so a second worker waits and then finds it built.
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { cacheDir } from "../../scripts/lib/run-steps";
import { executableFileName, pluginTarget } from "../../scripts/lib/plugin-targets";
import { REPO_ROOT } from "./project-stack";

/** One build of the plugin, as a folder that holds `pulumi-resource-opsledger` (Pulumi.yaml's `plugins.providers`). */
export interface PluginBuild {
  readonly name: "script" | "executable";
  /** The folder, built first if need be. */
  readonly dir: () => Promise<string>;
}

/** util-linux's flock(1), on every Debian and Ubuntu machine. */
const FLOCK = "/usr/bin/flock";
/** Built folders of other inputs older than this are removed when a new one is built (other checkouts share the cache). */
const STALE_MS = 24 * 3600 * 1000;

function filesUnder(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => fs.statSync(path.join(dir, f)).isFile())
    .sort()
    .map((f) => path.join(dir, f));
}

/** A digest of everything the executable is built from. */
function inputsKey(): string {
  const hash = createHash("sha256");
  const inputs = [
    path.join(REPO_ROOT, "package.json"),
    path.join(REPO_ROOT, "package-lock.json"),
    ...filesUnder(path.join(REPO_ROOT, "dist", "provider")).filter((f) => /\.(js|json)$/.test(f)),
    ...filesUnder(path.join(REPO_ROOT, "provider", "ledger", "protos")),
    ...filesUnder(path.join(REPO_ROOT, "dist", "scripts")).filter((f) => /plugin-[a-z-]+\.js$/.test(f)),
  ];
  for (const file of inputs) hash.update(path.relative(REPO_ROOT, file)).update("\0").update(fs.readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

const built = new Map<string, Promise<string>>();

/**
 * The folder of the executable for `target` (default linux-amd64), built if this set of inputs has none yet; the build's
 * progress goes to this process's stderr.
 */
export function pluginExecutableDir(target = "linux-amd64"): Promise<string> {
  const known = built.get(target);
  if (known !== undefined) return known;
  const promise = (async () => {
    const root = path.join(cacheDir(), "plugin-exe");
    const key = inputsKey();
    const dir = path.join(root, key);
    const executable = path.join(dir, target, executableFileName(pluginTarget(target)));
    if (fs.existsSync(executable)) return path.dirname(executable);
    fs.mkdirSync(root, { recursive: true });
    for (const other of fs.readdirSync(root)) {
      const p = path.join(root, other);
      if (other !== key && !other.endsWith(".lock") && Date.now() - fs.statSync(p).mtimeMs > STALE_MS) {
        fs.rmSync(p, { recursive: true, force: true });
      }
    }
    const script = path.join(REPO_ROOT, "dist", "scripts", "build-plugin-executables.js");
    const partial = `${dir}.${target}.partial`;
    // Under the lock: build only if no other worker did meanwhile, into a partial folder moved into place whole.
    const build =
      `test -x "$4" || { rm -rf "$3" && "$0" "$1" --out "$3" --target "$2" >&2 && mkdir -p "$5" && ` +
      `rm -rf "$5/$2" && mv "$3/$2" "$5/$2" && rm -rf "$3"; }`;
    const args = ["-c", build, process.execPath, script, target, partial, executable, dir];
    const [command, ...rest] = fs.existsSync(FLOCK)
      ? [FLOCK, path.join(root, `${key}.lock`), "bash", ...args]
      : ["bash", ...args];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(command, rest, { stdio: ["ignore", "inherit", "inherit"] });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code === 0) resolve();
        else reject(new Error(`building the ${target} plugin executable failed (exit ${String(code)}): see above`));
      });
    });
    return path.dirname(executable);
  })();
  built.set(target, promise);
  return promise;
}

/** Every build, the script first. */
export const PLUGIN_BUILDS: readonly PluginBuild[] = [
  { name: "script", dir: () => Promise.resolve(path.join(REPO_ROOT, "bin")) },
  { name: "executable", dir: () => pluginExecutableDir() },
];

/**
 * The temp folder of a copy of `projectDir` whose Pulumi.yaml takes the plugin from `pluginDir`; a Go module's
 * `replace` of a relative folder (examples/go's `../../sdk/go`) names that folder absolutely, so the copy builds
 * against the checkout's SDK.
 */
export function projectWithPlugin(projectDir: string, pluginDir: string): string {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), `opsledger-${path.basename(projectDir)}-`));
  fs.cpSync(projectDir, copy, { recursive: true });
  const file = path.join(copy, "Pulumi.yaml");
  const text = fs.readFileSync(file, "utf8");
  const rewritten = text.replace(/^(\s*path:\s*)\S*bin\s*$/m, `$1${pluginDir}`);
  if (rewritten === text) throw new Error(`${projectDir}/Pulumi.yaml names no plugin path to rewrite`);
  fs.writeFileSync(file, rewritten);
  const goMod = path.join(copy, "go.mod");
  if (fs.existsSync(goMod)) {
    const mod = fs.readFileSync(goMod, "utf8");
    fs.writeFileSync(
      goMod,
      mod.replace(
        /^(replace \S+ => )(\.\.?\/\S*)$/gm,
        (_, head: string, rel: string) => head + path.resolve(projectDir, rel),
      ),
    );
  }
  return copy;
}
