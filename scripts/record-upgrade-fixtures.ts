/**
 * Records the upgrade fixtures of the package's current version (test/fixtures/upgrade/<version>/, read by
 * test/e2e/upgrade.test.ts): for a move, a deletion, a wait and a ledger transaction, on both faces (the TypeScript
 * SDK's dynamic resources and the plugin through a YAML program), one `pulumi up` against the sandboxes, then
 * `pulumi stack export` of what it wrote, with a copy of the program, the stack config that is not particular to the
 * run and what the Google sandbox must hold for a refresh to find the same world. Also the plugin's schema.json, the
 * release's contract that the next one is compared with.
 *
 * Run it once per release, before the version changes: `npm run record-upgrade-fixtures` (scripts/run.sh).
 * The sandboxes' endpoints and the access token reach the providers through environment variables (the GOOGLE_*
 * names the package reads), never stack config: the plugin's default provider keeps its config in state, and a new
 * sandbox's ports and token would otherwise show as a change of the provider.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { DEFAULT_SEED, startGoogleSandbox } from "../sandbox/google";
import type { GoogleSandbox } from "../sandbox/google";
import { settingEnvNames } from "../provider/google/settings";
import { REPO_ROOT, initProjectStack } from "./lib/pulumi-cli";
import type { ConfigValues, ProjectStack } from "./lib/pulumi-cli";
import { deployerConfig } from "../test/helpers/sandbox-config";
import { ledgerConfig, startComponentTarget, uniqueKey } from "../test/helpers/ledger-component";
import { faceConfig, ledgerProjectOf } from "../test/helpers/ledger-faces";
import { ledgerTargets } from "../test/helpers/ledger-targets";

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
}

const twin = (name: string): string => path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", name);
const example = (name: string): string => path.join(REPO_ROOT, "examples", name);

const CASES: readonly Case[] = [
  { name: "move-typescript", project: example("firewall-policy-move"), kind: "google" },
  { name: "move-yaml", project: twin("firewall-policy-move"), kind: "google" },
  { name: "deletion-typescript", project: example("inventory-source-group-deletion"), kind: "google" },
  { name: "deletion-yaml", project: twin("inventory-source-group-deletion"), kind: "google" },
  { name: "wait-typescript", project: example("operation-wait"), kind: "google" },
  { name: "wait-yaml", project: twin("operation-wait"), kind: "google" },
  { name: "ledger-typescript", project: ledgerProjectOf("component"), kind: "ledger" },
  { name: "ledger-yaml", project: ledgerProjectOf("plugin"), kind: "ledger" },
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

async function main(): Promise<void> {
  const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string };
  const out = path.join(REPO_ROOT, "test", "fixtures", "upgrade", version);
  fs.mkdirSync(out, { recursive: true });
  fs.copyFileSync(path.join(REPO_ROOT, "provider", "plugin", "schema.json"), path.join(out, "schema.json"));

  for (const c of CASES.filter((x) => x.kind === "google")) {
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

  const [sandboxTarget] = ledgerTargets([]);
  if (sandboxTarget === undefined) throw new Error("no Fabric sandbox target");
  for (const c of CASES.filter((x) => x.kind === "ledger")) {
    const t = await startComponentTarget(sandboxTarget);
    try {
      console.error(`[record] ${c.name}`);
      const face = c.name.endsWith("-yaml") ? "plugin" : "component";
      const config = faceConfig(face, ledgerConfig(t, { fn: "CreateAsset", args: [uniqueKey("upgrade"), "teal"] }));
      const stack = await recordStack(out, c, config, {});
      await stack.dispose();
    } finally {
      await t.close();
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
