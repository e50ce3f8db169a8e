/**
 * CI runners of one team (docs/multi-runner.md): each has its own HOME, PULUMI_HOME, TMPDIR and checkout of the program
 * (a copy of the same files, with the stack's settings file Pulumi.<stack>.yaml as the repository would carry it), and
 * they share one state backend (a PostgreSQL cluster, test/helpers/postgres.ts, through Pulumi's `postgres://` backend)
 * and the secrets provider's passphrase (a CI secret). The first runner creates the stack (`pulumi stack init`, `pulumi
 * config set-all`); the others take its settings file and select the stack by name.
 *
 * The program: `transactions` LedgerTransactions (a blind PutAsset of `<prefix>-<i>`, signed with the identity's key
 * from a secret config value) declared before `moves` FirewallPolicyMoves of the policies firstPolicy, firstPolicy + 1,
 * ... to `parentId`; as TypeScript (the dynamic resources) or as YAML through the resource plugin.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, initProjectStack } from "./project-stack";
import type { CommandResult, ConfigValues, ProjectStack, RunOptions, StackDeployment } from "./project-stack";
import type { Face } from "./faces";
import { YAML } from "./faces";
import type { PostgresCluster } from "./postgres";

/** The shape of one team program: its size and, for YAML (which has no loops), the ids written out. */
export interface TeamProgram {
  /** TYPESCRIPT or YAML (test/helpers/faces.ts). */
  readonly face: Face;
  readonly moves: number;
  readonly transactions: number;
  readonly firstPolicy: number;
}

const TS_PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const transactions = config.requireNumber("transactions");
if (transactions > 0) {
  const gateway = {
    address: config.require("gateway"),
    tlsRootCertPem: config.require("tlsRootCertPem"),
    serverNameOverride: config.require("serverNameOverride"),
  };
  const identity = {
    mspId: config.require("mspId"),
    certificatePem: config.require("certificatePem"),
    privateKeyPem: config.requireSecret("privateKeyPem"),
  };
  const trustedRootCertificates = JSON.parse(config.require("trustedRootCertificates")) as Record<string, string>;
  for (let i = 0; i < transactions; i++) {
    new opsledger.ledger.LedgerTransaction(\`tx-\${i}\`, {
      gateway,
      channel: config.require("channel"),
      chaincode: config.require("chaincode"),
      function: "PutAsset",
      args: [\`\${config.require("prefix")}-\${i}\`, "blue"],
      identity,
      trustedRootCertificates,
    });
  }
}
const firstPolicy = config.requireNumber("firstPolicy");
for (let i = 0; i < config.requireNumber("moves"); i++) {
  new opsledger.compute.FirewallPolicyMove(\`move-\${i}\`, {
    firewallPolicy: String(firstPolicy + i),
    parentId: config.require("parentId"),
  });
}
`;

/**
 * The same program in YAML (the plugin from this checkout's bin/). The policy ids are written out as strings: the YAML
 * host reads a digits-only config value as a number (pulumi/pulumi-yaml#577, test/fixtures/yaml-twins); a JSON config
 * value (trustedRootCertificates) reaches it as the object it encodes.
 */
function yamlProgram(p: TeamProgram): string {
  const lines = [
    "name: opsledger-team",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: opsledger",
    `      path: ${path.join(REPO_ROOT, "bin")}`,
    "resources:",
  ];
  for (let i = 0; i < p.transactions; i++) {
    lines.push(
      `  tx-${String(i)}:`,
      "    type: opsledger:ledger:LedgerTransaction",
      "    properties:",
      "      gateway: { address: '${gateway}', tlsRootCertPem: '${tlsRootCertPem}', serverNameOverride: '${serverNameOverride}' }",
      "      channel: ${channel}",
      "      chaincode: ${chaincode}",
      "      function: PutAsset",
      `      args: ['\${prefix}-${String(i)}', blue]`,
      "      identity: { mspId: '${mspId}', certificatePem: '${certificatePem}', privateKeyPem: '${privateKeyPem}' }",
      "      trustedRootCertificates: ${trustedRootCertificates}",
      "    options: { version: 0.1.0 }",
    );
  }
  for (let i = 0; i < p.moves; i++) {
    lines.push(
      `  move-${String(i)}:`,
      "    type: opsledger:compute:FirewallPolicyMove",
      `    properties: { firewallPolicy: '${String(p.firstPolicy + i)}', parentId: '\${parentId}' }`,
      "    options: { version: 0.1.0 }",
    );
  }
  return lines.join("\n") + "\n";
}

/** Writes the program's checkout into `dir`. */
function writeCheckout(dir: string, p: TeamProgram): void {
  fs.mkdirSync(dir, { recursive: true });
  if (p.face === YAML) {
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(p));
    return;
  }
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: opsledger-team\nruntime: nodejs\n");
  fs.writeFileSync(
    path.join(dir, "package.json"),
    JSON.stringify({ name: "opsledger-team", private: true, main: "index.ts" }, null, 2) + "\n",
  );
  fs.writeFileSync(path.join(dir, "index.ts"), TS_PROGRAM);
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
}

export interface Runner {
  readonly label: string;
  readonly stack: ProjectStack;
  /** This runner's checkout (the project directory). */
  readonly checkout: string;
  /** The environment its commands run with. */
  readonly env: Readonly<Record<string, string>>;
  run(args: readonly string[], options?: RunOptions): Promise<CommandResult>;
  /** `pulumi up --yes --skip-preview --parallel <parallel>`. */
  up(options?: RunOptions): Promise<CommandResult>;
  /** `pulumi stack export` from the backend (there is no checkpoint file on this machine). */
  exportState(): Promise<StackDeployment>;
  /** `pulumi stack output --json --show-secrets`. */
  outputs(): Promise<Record<string, unknown>>;
  dispose(): Promise<void>;
}

export interface RunnerOptions {
  readonly label: string;
  readonly program: TeamProgram;
  readonly backend: PostgresCluster;
  readonly stackName: string;
  /** The first runner's stack config; the others take `settingsFrom`'s settings file instead. */
  readonly config?: ConfigValues;
  readonly settingsFrom?: Runner;
  /** The CLI's --parallel. @default 10 */
  readonly parallel?: number;
}

/** A runner with its own folders, on the stack `stackName` of `backend`. */
export async function startRunner(o: RunnerOptions): Promise<Runner> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `opsledger-runner-${o.label}-`));
  const checkout = path.join(root, "checkout");
  for (const dir of ["home", "tmp"]) fs.mkdirSync(path.join(root, dir));
  writeCheckout(checkout, o.program);
  const settings = `Pulumi.${o.stackName}.yaml`;
  if (o.settingsFrom) fs.copyFileSync(path.join(o.settingsFrom.checkout, settings), path.join(checkout, settings));
  const env = {
    HOME: path.join(root, "home"),
    TMPDIR: path.join(root, "tmp"),
    PULUMI_BACKEND_URL: o.backend.url,
    ...o.backend.clientEnv,
  };
  let stack: ProjectStack;
  try {
    stack = await initProjectStack({
      projectDir: checkout,
      stackName: o.stackName,
      env,
      existingStack: o.settingsFrom !== undefined,
      ...(o.config === undefined ? {} : { config: o.config }),
    });
  } catch (error) {
    fs.rmSync(root, { recursive: true, force: true });
    throw error;
  }
  const parallel = String(o.parallel ?? 10);
  return {
    label: o.label,
    stack,
    checkout,
    env: stack.env,
    run: (args, options) => stack.run(args, options),
    up: (options) => stack.run(["up", "--yes", "--skip-preview", "--parallel", parallel], options),
    async exportState() {
      const r = await stack.run(["stack", "export"]);
      return (JSON.parse(r.stdout) as { deployment: StackDeployment }).deployment;
    },
    async outputs() {
      const r = await stack.run(["stack", "output", "--json", "--show-secrets"]);
      return JSON.parse(r.stdout) as Record<string, unknown>;
    },
    async dispose() {
      await stack.dispose();
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}
