/**
 * `npm run release`: every artifact of one version, into one folder (default dist/release, under the ignored dist/):
 *
 *   pulumi-resource-opsledger-v<version>-<os>-<arch>.tar.gz   the plugin's executable (and its side files) at the root
 *   pulumi-opsledger-<version>.tgz                           the npm package (`npm pack`)
 *   pulumi-opsledger-<version>.cdx.json                      its SBOM, CycloneDX (`npm sbom`, the runtime dependencies)
 *   pulumi_opsledger-<version>-py3-none-any.whl, pulumi_opsledger-<version>.tar.gz   the Python SDK, wheel and sdist
 *   go/<module path>/@v/{list,v<version>.info,.mod,.zip}      the Go SDK as a module proxy serves it (GOPROXY=file://)
 *   SHA256SUMS                                               `<sha256>  <path>` of every file above
 *
 * The archives are reproducible: the same executables give the same bytes (sorted names, owner 0, mtime at
 * SOURCE_DATE_EPOCH or the last commit's time, gzip without a name or time). .github/workflows/release.yml runs this
 * command on a version tag and publishes what it wrote (docs/decisions/0063-one-release-command.md).
 *
 *   node dist/scripts/release.js [--out <dir>] [--plugins <dir> | --target linux-amd64,...]
 *
 * `--plugins <dir>` takes executables already built, as `<os>-<arch>/pulumi-resource-opsledger[.exe]` with their side
 * files; without it the plugin's build (scripts/build-plugin-executables.ts) writes them into a temporary folder
 * first, for every platform or the `--target` ones.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { releaseLocation } from "./gen-schema";
import { PLUGIN_EXECUTABLE, PLUGIN_TARGETS } from "./lib/plugin-targets";

const ROOT = join(__dirname, "..", "..");

/** The script that builds one executable per platform into `<out>/<os>-<arch>/` (scripts/build-plugin-executables.ts). */
export const PLUGIN_BUILD_SCRIPT = join("dist", "scripts", "build-plugin-executables.js");

/** `pulumi-resource-opsledger-v<version>-<os>-<arch>.tar.gz`, the name the engine asks a download server for. */
export function archiveName(version: string, platform: string): string {
  return `${PLUGIN_EXECUTABLE}-v${version}-${platform}.tar.gz`;
}

export interface ReleaseOptions {
  readonly out: string;
  /** Executables already built (`<os>-<arch>/` folders); built into a temporary folder when undefined. */
  readonly plugins?: string | undefined;
  /** The platforms to build (`linux-amd64,darwin-arm64`); default: every platform the build knows. */
  readonly targets?: string | undefined;
}

function say(message: string): void {
  process.stderr.write(`[opsledger:release] ${message}\n`);
}

function exec(command: string, args: readonly string[], cwd = ROOT, env: NodeJS.ProcessEnv = process.env): string {
  return execFileSync(command, args, { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
}

/** The time every archive entry carries: SOURCE_DATE_EPOCH, else the last commit's. */
function sourceDateEpoch(): number {
  const given = process.env["SOURCE_DATE_EPOCH"];
  if (given !== undefined && /^\d+$/.test(given)) return Number(given);
  return Number(exec("git", ["log", "-1", "--format=%ct"]).trim());
}

/** One plugin archive: the platform folder's files at the archive's root, reproducibly. */
function writeArchive(platformDir: string, target: string, epoch: number): void {
  const files = readdirSync(platformDir).sort();
  if (!files.some((f) => f === PLUGIN_EXECUTABLE || f === `${PLUGIN_EXECUTABLE}.exe`)) {
    throw new Error(`${platformDir} holds no ${PLUGIN_EXECUTABLE}[.exe]: the plugin's build wrote nothing there`);
  }
  const tar = spawnSync(
    "tar",
    [
      "--create",
      "--format=gnu",
      "--sort=name",
      "--owner=0",
      "--group=0",
      "--numeric-owner",
      `--mtime=@${String(epoch)}`,
      "--directory",
      platformDir,
      ...files,
    ],
    { maxBuffer: 1 << 30 },
  );
  if (tar.status !== 0) throw new Error(`tar failed for ${platformDir}: ${tar.stderr.toString()}`);
  const gz = spawnSync("gzip", ["-n", "-9"], { input: tar.stdout, maxBuffer: 1 << 30 });
  if (gz.status !== 0) throw new Error(`gzip failed for ${target}: ${gz.stderr.toString()}`);
  writeFileSync(target, gz.stdout);
}

/** One archive per `<os>-<arch>` folder of `plugins`, written into `out`; returns their names. */
export function pluginArchives(version: string, plugins: string, out: string): string[] {
  const platforms = readdirSync(plugins).filter((p) => statSync(join(plugins, p)).isDirectory());
  const known = PLUGIN_TARGETS.map((t) => t.name);
  const unknown = platforms.filter((p) => !known.includes(p));
  if (unknown.length > 0) {
    throw new Error(`${plugins}: not a platform the plugin is built for (${known.join(", ")}): ${unknown.join(", ")}`);
  }
  if (platforms.length === 0) throw new Error(`${plugins} holds no <os>-<arch> folder of executables`);
  const epoch = sourceDateEpoch();
  return platforms.sort().map((platform) => {
    const name = archiveName(version, platform);
    writeArchive(join(plugins, platform), join(out, name), epoch);
    say(name);
    return name;
  });
}

/** The parts of a CycloneDX document `npm sbom` writes that runtimeSbom reads. */
interface CycloneDx {
  metadata: { component: { name: string; "bom-ref": string } };
  components: { "bom-ref": string; name: string }[];
  dependencies: { ref: string; dependsOn?: string[] }[];
}

/**
 * The package's SBOM: what a user installs with it, the runtime dependencies (dependencies, optional and peer) and
 * theirs. `npm sbom --omit dev` also drops runtime dependencies that a dev dependency shares (npm 11.19 left out
 * @grpc/grpc-js and google-auth-library), so the whole tree's document is cut to what the runtime edges reach.
 */
export function runtimeSbom(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
  } & Partial<Record<"dependencies" | "optionalDependencies" | "peerDependencies", Record<string, string>>>;
  const runtime = new Set(
    (["dependencies", "optionalDependencies", "peerDependencies"] as const).flatMap((k) => Object.keys(pkg[k] ?? {})),
  );
  const bom = JSON.parse(exec("npm", ["sbom", "--sbom-format", "cyclonedx"])) as CycloneDx;
  const root = bom.metadata.component["bom-ref"];
  const edges = new Map(bom.dependencies.map((d) => [d.ref, d.dependsOn ?? []]));
  const nameOf = new Map(bom.components.map((c) => [c["bom-ref"], c.name]));
  const reached = new Set<string>();
  const queue = (edges.get(root) ?? []).filter((ref) => runtime.has(nameOf.get(ref) ?? ""));
  for (let ref = queue.pop(); ref !== undefined; ref = queue.pop()) {
    if (reached.has(ref)) continue;
    reached.add(ref);
    queue.push(...(edges.get(ref) ?? []));
  }
  // npm names the root after its folder; the package's name is what users know.
  bom.metadata.component.name = pkg.name;
  bom.components = bom.components.filter((c) => reached.has(c["bom-ref"]));
  bom.dependencies = bom.dependencies
    .filter((d) => d.ref === root || reached.has(d.ref))
    .map((d) => (d.ref === root ? { ...d, dependsOn: (d.dependsOn ?? []).filter((r) => reached.has(r)) } : d));
  return `${JSON.stringify(bom, null, 2)}\n`;
}

function npmPackage(out: string): string[] {
  const packed = JSON.parse(exec("npm", ["pack", "--json", "--pack-destination", out])) as { filename: string }[];
  const tarball = packed[0]?.filename;
  if (tarball === undefined) throw new Error("npm pack reported no tarball");
  const sbom = tarball.replace(/\.tgz$/, ".cdx.json");
  writeFileSync(join(out, sbom), runtimeSbom());
  say(`${tarball}, ${sbom}`);
  return [tarball, sbom];
}

function pythonDists(version: string, out: string): string[] {
  exec("bash", [join(ROOT, "scripts", "build-python-wheel.sh"), out]);
  const names = [`pulumi_opsledger-${version}-py3-none-any.whl`, `pulumi_opsledger-${version}.tar.gz`];
  for (const n of names) if (!existsSync(join(out, n))) throw new Error(`the Python build wrote no ${n}`);
  say(names.join(", "));
  return names;
}

/** The Go SDK module (sdk/go) as a module proxy serves it, through golang.org/x/mod/zip (scripts/go-module-zip). */
function goModule(version: string, out: string): string[] {
  const { goModule: path } = releaseLocation(ROOT);
  const goBin = exec("bash", [join(ROOT, "scripts", "ensure-go.sh")]).trim();
  const env = { ...process.env, PATH: `${goBin}:${process.env["PATH"] ?? ""}`, GOFLAGS: "-mod=mod" };
  const when = new Date(sourceDateEpoch() * 1000).toISOString().replace(/\.000Z$/, "Z");
  const proxy = join(out, "go");
  exec(
    "go",
    ["run", ".", join(ROOT, "sdk", "go"), path, `v${version}`, when, proxy],
    join(ROOT, "scripts", "go-module-zip"),
    env,
  );
  const files = ["list", `v${version}.info`, `v${version}.mod`, `v${version}.zip`].map((f) =>
    relative(out, join(proxy, path, "@v", f)),
  );
  say(`${path}@v${version} (go/)`);
  return files;
}

/** `out`/SHA256SUMS: `<sha256>  <path>` of each of `files` (paths relative to `out`), sorted, as sha256sum writes. */
export function sha256sums(out: string, files: readonly string[]): void {
  const lines = [...files].sort().map(
    (f) =>
      `${createHash("sha256")
        .update(readFileSync(join(out, f)))
        .digest("hex")}  ${f}`,
  );
  writeFileSync(join(out, "SHA256SUMS"), `${lines.join("\n")}\n`);
}

/** Writes every artifact of package.json's version into `options.out` (emptied first); returns the files written. */
export function release(options: ReleaseOptions): string[] {
  const { version } = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string };
  const out = resolve(options.out);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  let plugins = options.plugins;
  let built: string | undefined;
  if (plugins === undefined) {
    built = mkdtempSync(join(tmpdir(), "opsledger-plugins-"));
    say(`building the plugin's executables (${PLUGIN_BUILD_SCRIPT})`);
    const targets = options.targets === undefined ? [] : ["--target", options.targets];
    exec(process.execPath, [join(ROOT, PLUGIN_BUILD_SCRIPT), "--out", built, ...targets]);
    plugins = built;
  }
  try {
    const files = [
      ...pluginArchives(version, resolve(plugins), out),
      ...npmPackage(out),
      ...pythonDists(version, out),
      ...goModule(version, out),
    ];
    sha256sums(out, files);
    say(`${String(files.length)} files and SHA256SUMS in ${out}`);
    return [...files, "SHA256SUMS"];
  } finally {
    if (built !== undefined) rmSync(built, { recursive: true, force: true });
  }
}

function flag(args: readonly string[], name: string): string | undefined {
  const at = args.indexOf(name);
  if (at < 0) return undefined;
  const value = args[at + 1];
  if (value === undefined) throw new Error(`${name} needs a value`);
  return value;
}

if (require.main === module) {
  const args = process.argv.slice(2);
  release({
    out: flag(args, "--out") ?? join(ROOT, "dist", "release"),
    plugins: flag(args, "--plugins"),
    targets: flag(args, "--target"),
  });
}
