/**
 * Records the upgrade fixtures of the package's current version (test/fixtures/upgrade/<version>/, read by
 * test/e2e/upgrade.test.ts): for a move, a deletion, a wait and a ledger transaction, on both faces (the TypeScript
 * SDK's dynamic resources and the plugin through a YAML program), one `pulumi up` against the sandboxes, then
 * `pulumi stack export` of what it wrote, with a copy of the program, the stack config that is not particular to the
 * run and what the Google sandbox must hold for a refresh to find the same world. Also the plugin's schema.json, the
 * release's contract that the next one is compared with.
 *
 * For the ledger cases it also writes fabric-sandbox.json, the Fabric sandbox's snapshot after the up (its CAs and
 * TLS keys, its port and its blocks), from which the upgrade test restores the same sandbox for `pulumi refresh`.
 *
 * Run it once per release, before the version changes: `npm run record-upgrade-fixtures` (scripts/run.sh).
 * `--release-tree=DIR --only=ledger` records only the ledger cases of the checkout at DIR (an older release, built):
 * its programs and its package, with this checkout's sandboxes, into DIR/test/fixtures/upgrade/<its version>/.
 * The sandboxes' endpoints and the access token reach the providers through environment variables (the GOOGLE_*
 * names the package reads), never stack config: the plugin's default provider keeps its config in state, and a new
 * sandbox's ports and token would otherwise show as a change of the provider.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_SEED, startGoogleSandbox } from "../sandbox/google";
import type { GoogleSandbox } from "../sandbox/google";
import { settingEnvNames } from "../provider/google/settings";
import { SCHEMA_PATH } from "./gen-schema";
import { REPO_ROOT, initProjectStack } from "./lib/pulumi-cli";
import type { ConfigValues, ProjectStack } from "./lib/pulumi-cli";
import { ledgerProgramConfig, uniqueKey } from "./lib/ledger-program-config";
import { deployerConfig } from "./lib/sandbox-stack-config";
import { startFabricSandbox } from "../sandbox/fabric";
import type { FabricSandbox } from "../sandbox/fabric";

/** The stack name every fixture is recorded under (the upgrade test imports it under the same name). */
export const UPGRADE_STACK = "upgrade";
/** The passphrase of the recorded stacks' secrets (README.md of the fixtures). */
export const UPGRADE_PASSPHRASE = "opsledger-upgrade-fixture";

/** What the Google sandbox holds after the recorded up, beyond its default seed. */
export interface RecordedWorld {
  readonly firewallPolicyParents: Readonly<Record<string, string>>;
  readonly deletedInventorySourceGroups: readonly string[];
}

interface Case {
  readonly name: string;
  readonly project: string;
  readonly kind: "google" | "ledger";
  /** The Fabric sandbox's port (fixed: the stack's state holds the gateway address, which the restore must serve). */
  readonly port?: number;
}

/** The Fabric sandbox's snapshot in a ledger case's folder (test/e2e/upgrade.test.ts restores it). */
export const FABRIC_SNAPSHOT_FILE = "fabric-sandbox.json";

const twin = (name: string): string => path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", name);
const example = (name: string): string => path.join(REPO_ROOT, "examples", name);

/** The ledger projects, relative to the checkout whose programs are recorded. */
const LEDGER_PROJECTS = { component: "examples/ledger", plugin: "test/fixtures/pulumi/ledger-yaml" } as const;

// Ports below Linux's ephemeral range (32768-60999), so that no client socket of the machine holds them by chance.
const CASES: readonly Case[] = [
  { name: "move-typescript", project: example("firewall-policy-move"), kind: "google" },
  { name: "move-yaml", project: twin("firewall-policy-move"), kind: "google" },
  { name: "deletion-typescript", project: example("inventory-source-group-deletion"), kind: "google" },
  { name: "deletion-yaml", project: twin("inventory-source-group-deletion"), kind: "google" },
  { name: "wait-typescript", project: example("operation-wait"), kind: "google" },
  { name: "wait-yaml", project: twin("operation-wait"), kind: "google" },
  { name: "ledger-typescript", project: LEDGER_PROJECTS.component, kind: "ledger", port: 27151 },
  { name: "ledger-yaml", project: LEDGER_PROJECTS.plugin, kind: "ledger", port: 27152 },
];

/** The Google settings of stack config as the environment variables the package reads instead. */
export function googleEnv(config: ConfigValues): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, { value }] of Object.entries(config)) {
    const name = settingEnvNames(key.replace(/^opsledger:/, "") as Parameters<typeof settingEnvNames>[0])[0];
    if (name === undefined) throw new Error(`${key} has no environment variable`);
    env[name] = value;
  }
  return env;
}

/** The project's files (not its stack settings), with a plugin path made relative to `to`. */
function copyProgram(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true });
  for (const file of fs.readdirSync(from)) {
    if (!/^(Pulumi\.yaml|package\.json|tsconfig\.json|[\w-]+\.ts)$/.test(file)) continue;
    let text = fs.readFileSync(path.join(from, file), "utf8");
    if (file === "Pulumi.yaml") {
      text = text.replace(/^(\s+path:\s*)(\S+)$/m, (_m, lead: string, p: string) => {
        const bin = path.resolve(from, p);
        return lead + path.relative(to, bin);
      });
    }
    fs.writeFileSync(path.join(to, file), text);
  }
}

/** The world a refresh must find: the policies whose parent changed, the groups that are gone. */
function worldOf(sandbox: GoogleSandbox): RecordedWorld {
  const parents: Record<string, string> = {};
  const deleted: string[] = [];
  for (const entry of sandbox.audit()) {
    const id = entry.target.split("/").at(-1) ?? "";
    if (entry.kind === "firewallPolicies.move" && entry.details.to !== undefined) parents[id] = entry.details.to;
    if (entry.kind === "inventorySourceGroups.delete") deleted.push(id);
  }
  return { firewallPolicyParents: parents, deletedInventorySourceGroups: deleted };
}

/** examples/ledger's settings for the sandbox's gateway itself (TLS, its first organization's new client). */
function sandboxLedgerConfig(sandbox: FabricSandbox, args: readonly string[]): ConfigValues {
  const mspId = Object.keys(sandbox.caCertificates)[0] ?? "";
  const identity = sandbox.newClientIdentity(mspId);
  return {
    ledgerGateway: { value: sandbox.address },
    ledgerTlsRootCertPem: { value: sandbox.tlsRootCertPem ?? "" },
    ledgerTlsServerNameOverride: { value: "localhost" },
    ledgerChannel: { value: sandbox.channel },
    ledgerChaincode: { value: sandbox.chaincode },
    ledgerFunction: { value: "CreateAsset" },
    ledgerArgs: { value: JSON.stringify(args) },
    ledgerMspId: { value: identity.mspId },
    ledgerCertificatePem: { value: identity.certificatePem },
    ledgerPrivateKeyPem: { value: identity.privateKeyPem, secret: true },
    ledgerTrustedRootCertificates: { value: JSON.stringify(sandbox.caCertificates) },
  };
}

async function recordStack(
  out: string,
  c: Case,
  config: ConfigValues,
  env: Record<string, string>,
): Promise<ProjectStack> {
  const dir = path.join(out, c.name);
  fs.rmSync(dir, { recursive: true, force: true });
  copyProgram(c.project, path.join(dir, "program"));
  const stack = await initProjectStack({
    projectDir: path.join(dir, "program"),
    stackName: UPGRADE_STACK,
    config,
    env: { ...env, PULUMI_CONFIG_PASSPHRASE: UPGRADE_PASSPHRASE },
    transpileOnly: true,
  });
  await stack.up();
  const exported = await stack.run(["stack", "export"]);
  fs.writeFileSync(path.join(dir, "stack.json"), exported.stdout);
  fs.writeFileSync(path.join(dir, "config.json"), `${JSON.stringify(config, null, 2)}\n`);
  return stack;
}

/** `--release-tree=DIR` (default this checkout) and `--only=ledger|google` (default both). */
function parseArgs(argv: readonly string[]): { root: string; kinds: readonly Case["kind"][] } {
  let root = REPO_ROOT;
  let kinds: readonly Case["kind"][] = ["google", "ledger"];
  for (const arg of argv) {
    const [flag, value = ""] = arg.split("=", 2);
    if (flag === "--release-tree" && value !== "") root = path.resolve(value);
    else if (flag === "--only" && (value === "ledger" || value === "google")) kinds = [value];
    else throw new Error(`unknown argument ${arg}: use --release-tree=DIR and --only=ledger|google`);
  }
  if (root !== REPO_ROOT && kinds.includes("google")) {
    throw new Error("--release-tree records the ledger cases only: add --only=ledger");
  }
  return { root, kinds };
}

async function main(): Promise<void> {
  const { root, kinds } = parseArgs(process.argv.slice(2));
  const { version } = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string };
  const out = path.join(root, "test", "fixtures", "upgrade", version);
  fs.mkdirSync(out, { recursive: true });
  if (kinds.includes("google")) {
    fs.copyFileSync(SCHEMA_PATH, path.join(out, "schema.json"));
  }

  for (const c of CASES.filter((x) => x.kind === "google" && kinds.includes(x.kind))) {
    const sandbox = await startGoogleSandbox({ moveDurationMs: 500, seed: DEFAULT_SEED });
    try {
      const settings = deployerConfig(sandbox);
      const env = googleEnv(settings);
      console.error(`[record] ${c.name}`);
      const stack = await recordStack(out, c, {}, env);
      await stack.dispose();
      fs.writeFileSync(path.join(out, c.name, "world.json"), `${JSON.stringify(worldOf(sandbox), null, 2)}\n`);
    } finally {
      await sandbox.close();
    }
  }

  for (const c of CASES.filter((x) => x.kind === "ledger" && kinds.includes(x.kind))) {
    const sandbox = await startFabricSandbox({ tls: true, ...(c.port === undefined ? {} : { port: c.port }) });
    try {
      console.error(`[record] ${c.name} (Fabric sandbox ${sandbox.address})`);
      const program = c.name.endsWith("-yaml") ? "plugin" : "component";
      const config = ledgerProgramConfig(program, sandboxLedgerConfig(sandbox, [uniqueKey("upgrade"), "teal"]));
      const stack = await recordStack(out, { ...c, project: path.join(root, c.project) }, config, {});
      await stack.dispose();
      const snapshot = `${JSON.stringify(sandbox.snapshot(), null, 2)}\n`;
      fs.writeFileSync(path.join(out, c.name, FABRIC_SNAPSHOT_FILE), snapshot);
    } finally {
      await sandbox.close();
    }
  }
  console.error(`[record] wrote ${out}`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
