/**
 * A new user's machine for the release's install tests: a shell whose PATH holds only the tools that user has (no
 * Node.js, no npm for a Python, Go or YAML user: the machine's own `node` is in /usr/bin, so the PATH is a folder of
 * links to the named tools, not /usr/bin), the Pulumi CLI, an empty plugin cache (PULUMI_HOME in a temporary folder)
 * with automatic acquisition on, the engine's downloads redirected to the release's archives on 127.0.0.1, and the
 * settings `npm run sandbox` prints for the Google and Fabric sandboxes.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { releaseLocation } from "../../scripts/gen-schema";
import { exampleDir, pulumiBinDir, REPO_ROOT } from "./project-stack";
import { readmeCommands, runShell } from "./readme-commands";
import { releaseFolder } from "./release-folder";
import { startFileServer } from "./registries";
import type { StandIn } from "./registries";
import { startSandboxCli } from "./sandbox-cli";
import type { SandboxCli } from "./sandbox-cli";

/** What every user's shell has: a shell and the usual commands (the README blocks use `cat`, `mkdir`, ...). */
export const BASE_TOOLS = [
  "bash",
  "sh",
  "env",
  "cat",
  "ls",
  "mkdir",
  "rm",
  "cp",
  "mv",
  "ln",
  "grep",
  "sed",
  "head",
  "tail",
  "tr",
  "uname",
  "dirname",
  "basename",
  "readlink",
  "id",
  "sort",
  "mktemp",
  "chmod",
  "touch",
  "find",
  "tar",
  "gzip",
  "git",
  "sha256sum",
] as const;

/**
 * A folder of links to `tools` (names found on the machine's PATH, or absolute paths linked under their own name):
 * the only place a user's PATH finds them.
 */
export function toolbox(dir: string, tools: readonly string[]): string {
  mkdirSync(dir, { recursive: true });
  for (const tool of tools) {
    const target = path.isAbsolute(tool)
      ? tool
      : execFileSync("bash", ["-c", `command -v ${tool}`], {
          encoding: "utf8",
          env: { PATH: "/usr/local/bin:/usr/bin:/bin" },
        }).trim();
    assert.ok(target !== "", `${tool} is on this machine`);
    const link = path.join(dir, path.basename(tool));
    if (!existsSync(link)) symlinkSync(target, link);
  }
  return dir;
}

/** The user's PATH: their toolbox, then the folders they installed (the Pulumi CLI's first, as its installer puts it). */
export function userPath(toolboxDir: string, extra: readonly string[] = []): string {
  return [pulumiBinDir(), ...extra, toolboxDir].join(":");
}

/**
 * The engine's download of the plugin redirected to `server` (the release's archives under their standard names): the
 * engine matches the override's expression against the plugin's download URL, the one the SDKs carry.
 */
export function pluginDownloadOverride(server: StandIn): Record<string, string> {
  const from = releaseLocation().pluginDownloadURL.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return { PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES: `^${from}$=${server.url}/` };
}

/**
 * The environment of a user's shell in `home`: HOME, their PATH, an empty PULUMI_HOME, a local file backend, the
 * sandbox's settings (its PATH line left out: it names the project's Node) and the download override.
 */
export function userEnv(options: {
  readonly home: string;
  readonly path: string;
  readonly sandbox: SandboxCli;
  readonly plugins: StandIn;
}): Record<string, string> {
  const { home, sandbox, plugins } = options;
  const backend = path.join(home, ".pulumi-local");
  mkdirSync(backend, { recursive: true });
  const { PATH: _projectPath, ...settings } = sandbox.env;
  return {
    ...settings,
    HOME: home,
    PATH: options.path,
    PULUMI_HOME: path.join(home, ".pulumi"),
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "local",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    OPSLEDGER_DISPLAY_VIDEO_API_VERSION: "v4",
    ...pluginDownloadOverride(plugins),
  };
}

/** The plugins the engine installed into PULUMI_HOME (`resource-opsledger-v0.2.0`, ...). */
export function installedPlugins(env: Record<string, string>): string[] {
  const dir = path.join(env["PULUMI_HOME"] ?? "", "plugins");
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((p) => !/\.(lock|partial|lastused)$/.test(p))
        .sort()
    : [];
}

/** The archive request the engine sends for this machine's platform. */
export function archiveRequest(version: string): string {
  return `GET /pulumi-resource-opsledger-v${version}-linux-amd64.tar.gz`;
}

/** What an install test's user has: a temporary home, the release's archives on 127.0.0.1, the sandboxes. */
export interface InstallWorld {
  readonly tmp: string;
  readonly release: string;
  readonly plugins: StandIn;
  readonly sandbox: SandboxCli;
  /** The user's shell environment (userEnv) over their toolbox. */
  readonly env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * Starts a user's world: the release folder (release-folder.ts), its archives served on 127.0.0.1, `npm run sandbox`,
 * and a shell with BASE_TOOLS plus `tools` (and `path`, folders the user installed) on PATH.
 */
export async function startInstallWorld(
  name: string,
  options: { readonly tools?: readonly string[]; readonly path?: readonly string[] } = {},
): Promise<InstallWorld> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), `opsledger-release-${name}-`));
  const release = await releaseFolder();
  const plugins = await startFileServer(release);
  const sandbox = await startSandboxCli();
  const tools = toolbox(path.join(tmp, "toolbox"), [...BASE_TOOLS, ...(options.tools ?? [])]);
  const env = userEnv({ home: path.join(tmp, "home"), path: userPath(tools, options.path), sandbox, plugins });
  return {
    tmp,
    release,
    plugins,
    sandbox,
    env,
    close: async () => {
      sandbox.stop();
      await plugins.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** The `pulumi config set` lines of examples/ledger's keys for the Fabric sandbox `npm run sandbox` started. */
export function ledgerConfigCommands(sandbox: SandboxCli): string[] {
  const dir = sandbox.env["OPSLEDGER_SANDBOX_DIR"] ?? "";
  return [
    'pulumi config set ledgerGateway "$OPSLEDGER_FABRIC_GATEWAY"',
    "pulumi config set ledgerMspId Org1MSP",
    `pulumi config set ledgerCertificatePem -- "$(cat ${dir}/fabric-client-cert.pem)"`,
    "pulumi config set ledgerSigner keyFile",
    `pulumi config set ledgerKeyFile ${dir}/fabric-client-key.pem`,
    `pulumi config set ledgerTrustedRootCertificates -- "$(cat ${dir}/fabric-root-cas.json)"`,
  ];
}

/** A README's block marked `marker` (examples/<example>/README.md): its install commands by default. */
export function installBlock(example: string, marker = "readme-install"): string {
  const block = readmeCommands(readFileSync(path.join(exampleDir(example), "README.md"), "utf8"), marker);
  assert.ok(block, `examples/${example}/README.md marks its install commands (${marker})`);
  return block;
}

/** The package's version (package.json's: the plugin's, the SDKs'). */
export const VERSION = (JSON.parse(readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string })
  .version;

/**
 * `pulumi stack init dev`, the ledger's config, `pulumi up` and then `after` (more commands) in `project`, from an empty
 * plugin cache: asserts the engine downloaded this platform's archive once and installed the plugin, and resolves with
 * the commands' output and the stack's outputs.
 */
export async function upAcquiringThePlugin(
  world: InstallWorld,
  project: string,
  env: Record<string, string>,
  after: readonly string[] = [],
): Promise<{ output: string; outputs: Record<string, unknown> }> {
  assert.deepEqual(installedPlugins(env), [], "an empty plugin cache");
  const before = world.plugins.requests.length;
  const output = await runShell(
    ["pulumi stack init dev", ...ledgerConfigCommands(world.sandbox), "pulumi up --yes --skip-preview", ...after].join(
      "\n",
    ),
    project,
    env,
    "pulumi up",
  );
  assert.deepEqual(installedPlugins(env), [`resource-opsledger-v${VERSION}`]);
  assert.deepEqual(
    world.plugins.requests.slice(before).filter((r) => r.includes(".tar.gz")),
    [archiveRequest(VERSION)],
    "one download, of this platform's archive",
  );
  const outputs = JSON.parse(await runShell("pulumi stack output --json", project, env, "outputs")) as Record<
    string,
    unknown
  >;
  await runShell("pulumi destroy --yes --skip-preview && pulumi stack rm dev --yes", project, env, "destroy");
  return { output, outputs };
}

/**
 * The folder (under the project's sdks/) and file name of the declaration `pulumi package add` writes for the package
 * at `version`, the one the YAML host reads.
 */
export function packageDeclaration(version: string): string {
  return path.join("sdks", "opsledger", `opsledger-${version}.yaml`);
}

/**
 * A copy of the YAML project `project` (its Pulumi.yaml and its package declaration) as a project of its own (`name`)
 * asking for the plugin at `version`.
 */
export function yamlProjectAsking(project: string, dir: string, name: string, version: string): string {
  const asking = (text: string): string => text.replaceAll(`version: ${VERSION}`, `version: ${version}`);
  mkdirSync(path.join(dir, path.dirname(packageDeclaration(version))), { recursive: true });
  const program = readFileSync(path.join(project, "Pulumi.yaml"), "utf8").replace(/^name: .*$/m, `name: ${name}`);
  writeFileSync(path.join(dir, "Pulumi.yaml"), asking(program));
  const declaration = readFileSync(path.join(project, packageDeclaration(VERSION)), "utf8");
  assert.match(declaration, new RegExp(`^version: ${VERSION.replace(/\./g, "\\.")}$`, "m"));
  writeFileSync(path.join(dir, packageDeclaration(version)), asking(declaration));
  return dir;
}

/** A user's Pulumi.yaml in `dir`: the project's name, its runtime lines and the examples' `parentId`; no plugins. */
export function writePulumiYaml(dir: string, name: string, runtime: readonly string[]): void {
  const lines = [`name: ${name}`, ...runtime, "config:", "  parentId:", "    type: string"];
  writeFileSync(path.join(dir, "Pulumi.yaml"), [...lines, "    default: folders/200000000003", ""].join("\n"));
}
