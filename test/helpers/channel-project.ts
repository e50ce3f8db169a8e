/**
 * A generated Pulumi project of channel and chaincode resources (and ledger transactions), in TypeScript through the
 * SDK or in YAML through the plugin, from one description (set-up only): each resource by name, its kind under the
 * SDK's `ledger` namespace and the plugin's `opsledger:ledger:` tokens, its arguments as JSON (a
 * `{ "$ref": "<resource>.<output>" }` value is that resource's output, a `{ "$secret": … }` value a secret), what it
 * depends on, and the stack outputs. A test rewrites the description between commands, as a user edits a program;
 * keys are referenced by file paths or a PIN's environment variable, never inlined (a chaincode server's TLS key, held
 * by its connection, goes in as a secret). Written into a temp dir (node_modules linked to the repository's, as
 * test/helpers/ledger-project.ts does).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../scripts/lib/pulumi-cli";

/** A resource of the program. */
export interface ProgramResource {
  readonly name: string;
  readonly kind:
    | "Channel"
    | "ChannelPeer"
    | "ChannelOrganization"
    | "ChannelAnchorPeers"
    | "ChannelCapabilities"
    | "ChannelBatchSettings"
    | "ChaincodePackage"
    | "ChaincodeInstallation"
    | "ChaincodeApproval"
    | "ChaincodeDefinition"
    | "LedgerTransaction";
  readonly args: Readonly<Record<string, unknown>>;
  readonly dependsOn?: readonly string[];
}

/** A data source the program calls (its result named like a resource's outputs). */
export interface ProgramRead {
  readonly name: string;
  readonly fn: "getChannelConfig" | "getChaincodeDefinition";
  readonly args: Readonly<Record<string, unknown>>;
}

/** A program: its resources in order, its reads, and its stack outputs (`<resource or read>.<output path>`). */
export interface ChannelProgram {
  readonly resources: readonly ProgramResource[];
  readonly reads?: readonly ProgramRead[];
  readonly outputs?: Readonly<Record<string, string>>;
}

/** An output of another resource, as an argument. */
export const ref = (target: string): { $ref: string } => ({ $ref: target });

/** A value the program marks secret (a chaincode server's TLS key): `pulumi.secret` in TS, `fn::secret` in YAML. */
export const secret = (value: unknown): { $secret: unknown } => ({ $secret: value });

const INDEX_TS = `import * as fs from "node:fs";
import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

interface Described { name: string; kind: string; args: Record<string, unknown>; dependsOn?: string[] }
const program = JSON.parse(fs.readFileSync(path.join(__dirname, "program.json"), "utf8")) as {
  resources: Described[];
  reads?: { name: string; fn: string; args: Record<string, unknown> }[];
  outputs?: Record<string, string>;
};
const made: Record<string, pulumi.Resource> = {};
const reads: Record<string, pulumi.Output<unknown>> = {};
const output = (target: string): pulumi.Output<unknown> => {
  const [name = "", ...fields] = target.split(".");
  const read = reads[name];
  const start = read ?? pulumi.output((made[name] as unknown as Record<string, unknown>)[fields.shift() ?? ""]);
  return start.apply((v) => fields.reduce<unknown>((o, f) => (o as Record<string, unknown> | undefined)?.[f], v));
};
const resolve = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(resolve);
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o["$ref"] === "string") return output(o["$ref"]);
    if ("$secret" in o) return pulumi.secret(resolve(o["$secret"]));
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, resolve(x)]));
  }
  return v;
};
const classes = opsledger.ledger as unknown as Record<string, new (n: string, a: unknown, o?: object) => pulumi.Resource>;
for (const r of program.resources) {
  const Class = classes[r.kind];
  if (Class === undefined) throw new Error("no ledger." + r.kind);
  made[r.name] = new Class(r.name, resolve(r.args), { dependsOn: (r.dependsOn ?? []).map((d) => made[d] as pulumi.Resource) });
}
const functions = opsledger.ledger as unknown as Record<string, (a: unknown) => pulumi.Output<unknown>>;
for (const r of program.reads ?? []) {
  const fn = functions[r.fn + "Output"];
  if (fn === undefined) throw new Error("no ledger." + r.fn + "Output");
  reads[r.name] = fn(resolve(r.args));
}
export const outputs = Object.fromEntries(Object.entries(program.outputs ?? {}).map(([k, t]) => [k, output(t)]));
`;

/** A YAML value of an argument: JSON, each `$ref` an interpolation. */
function yamlValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(yamlValue);
  if (typeof v === "object" && v !== null) {
    const o = v as Record<string, unknown>;
    if (typeof o["$ref"] === "string") return `\${${o["$ref"]}}`;
    if ("$secret" in o) return { "fn::secret": yamlValue(o["$secret"]) };
    return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, yamlValue(x)]));
  }
  return v;
}

const PACKAGE_VERSION = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { version: string }
).version;

/** The program in YAML (JSON flow values are YAML) through the plugin in `pluginDir`. */
function yamlProgram(program: ChannelProgram, pluginDir: string): string {
  const lines = [
    "name: channel-resources",
    "runtime: yaml",
    "plugins:",
    "  providers:",
    "    - name: opsledger",
    `      path: ${JSON.stringify(pluginDir)}`,
    "resources:",
  ];
  for (const r of program.resources) {
    const options = {
      version: PACKAGE_VERSION,
      ...(r.dependsOn === undefined ? {} : { dependsOn: r.dependsOn.map((d) => `\${${d}}`) }),
    };
    lines.push(
      `  ${r.name}:`,
      `    type: opsledger:ledger:${r.kind}`,
      `    properties: ${JSON.stringify(yamlValue(r.args))}`,
      `    options: ${JSON.stringify(options)}`,
    );
  }
  if ((program.reads ?? []).length > 0) lines.push("variables:");
  for (const r of program.reads ?? [])
    lines.push(
      `  ${r.name}:`,
      "    fn::invoke:",
      `      function: opsledger:ledger:${r.fn}`,
      `      arguments: ${JSON.stringify(yamlValue(r.args))}`,
      `      options: ${JSON.stringify({ version: PACKAGE_VERSION })}`,
    );
  lines.push("outputs:");
  for (const [key, target] of Object.entries(program.outputs ?? {})) lines.push(`  ${key}: \${${target}}`);
  return `${lines.join("\n")}\n`;
}

/** A project on disk whose program a test rewrites between commands. */
export interface ChannelProject {
  readonly dir: string;
  write(program: ChannelProgram): void;
  remove(): void;
}

/** Writes an empty project into a new temp dir: TypeScript, or with `pluginDir` its YAML form through that plugin. */
export function channelProject(options: { readonly yamlPluginDir?: string } = {}): ChannelProject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-channel-"));
  const yaml = options.yamlPluginDir;
  if (yaml === undefined) {
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({ name: "channel-resources", private: true, main: "index.ts" }, null, 2),
    );
    fs.copyFileSync(path.join(REPO_ROOT, "examples", "ledger", "tsconfig.json"), path.join(dir, "tsconfig.json"));
    fs.writeFileSync(path.join(dir, "index.ts"), INDEX_TS);
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  }
  const write = (program: ChannelProgram): void => {
    if (yaml === undefined) {
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: channel-resources\nruntime: nodejs\n");
      fs.writeFileSync(path.join(dir, "program.json"), JSON.stringify(program, null, 2));
    } else fs.writeFileSync(path.join(dir, "Pulumi.yaml"), yamlProgram(program, yaml));
  };
  write({ resources: [] });
  return {
    dir,
    write,
    remove: () => {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
