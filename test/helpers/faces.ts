/**
 * The faces a Pulumi program reaches the package's resources through, for e2e bodies that run once per face (the
 * same behaviour, proven by the same bodies): a face is a language and the program kind it runs, who serves the
 * resources (@pulumi/pulumi's dynamic-provider host or the plugin bin/pulumi-resource-opsledger), the type tokens the
 * state and the engine's events show, the processes a `pulumi up` runs, and the environment its stack needs.
 * - TYPESCRIPT: the examples (examples/firewall-policy-move, read-only, ledger) and the SDK's dynamic resources; the
 *   ledger transaction is the SDK's ledger.LedgerTransaction component over its dynamic submission.
 * - YAML: their YAML twins (test/fixtures/yaml-twins, test/fixtures/pulumi/ledger-yaml, ledger-batch-yaml), found
 *   through their Pulumi.yaml's plugins.providers.
 * - PYTHON: examples/python's ledger transaction through sdk/python and the plugin (test/fixtures/pulumi/ledger-python,
 *   run by the virtualenv of scripts/ensure-python.sh --sdk).
 * The plugin faces run the linux-amd64 executable, what YAML, Go and Python users install (projectOf: a copy of the
 * project whose plugins.providers names it); the script is the other row of the plugin test files (PLUGIN_BUILDS).
 * A twin takes the same config keys with the same defaults and names its resources and outputs as the TypeScript
 * program does, so a body differs between faces only where the face itself does, which each field here names.
 * Type tokens are read where they are declared: the SDK's `*_TYPE` constants and the plugin's schema.json.
 */
import { strict as assert } from "node:assert";
import { rmSync } from "node:fs";
import * as path from "node:path";
import { FIREWALL_POLICY_MOVE_TYPE } from "../../sdk/compute/firewall-policy-move";
import { resourceOfType } from "../../provider/registry";
import { LEDGER_TRANSACTION_TYPE } from "../../sdk/ledger/ledger-transaction";
import type { LedgerProgram } from "../../scripts/lib/ledger-program-config";
import type { Proc } from "./kill-stack";
import { pluginExecutableDir, projectWithPlugin } from "./plugin-builds";
import { REPO_ROOT, dynamicResources, exampleDir } from "./project-stack";
import type { StackDeployment, StateResource } from "./project-stack";
import { pythonBinDir, pythonEnv } from "./python-toolchain";

export interface Face {
  /**
   * The short name ledger test titles use, which is also the program that runs examples/ledger's transaction:
   * "component" (TypeScript, where the transaction is a component).
   */
  readonly key: LedgerProgram;
  /** Names the face in a `describe`. */
  readonly name: string;
  /** The program's language (its Pulumi.yaml `runtime`). */
  readonly language: "nodejs" | "yaml" | "python";
  /** Who serves the resources: @pulumi/pulumi's dynamic-provider host, or the resource plugin. */
  readonly provider: "dynamic" | "plugin";
  /**
   * The projects the bodies run (the Google ones only where the face has a twin of them; `batch` the
   * LedgerTransactions program where the face has its own, test/helpers/ledger-batch-project.ts). Read them with
   * projectOf.
   */
  readonly projects: {
    readonly move?: string;
    readonly readOnly?: string;
    readonly ledger: string;
    readonly batch?: string;
  };
  /**
   * The processes a `pulumi up` of the move's project runs besides the CLI (kill-stack.ts names their roles): what a
   * tree kill must take. The dynamic face runs the language host and the program, and the provider's launcher script
   * and its node. The plugin face runs the YAML language host (which is the program) and one or two plugin processes,
   * each one process (the executable carries its Node.js; the script's `#!/usr/bin/env node` wrapper execs node): `ps`
   * showed two children of the CLI, `pulumi-resource-opsledger <engine address>`, through a create, and one at the
   * kill point of an update; how many the engine starts is its own choice. (None for a face without the move's
   * project.)
   */
  readonly processes?: {
    readonly program: number;
    readonly provider: { readonly min: number; readonly max: number };
  };
  /** The language host's executable: Pulumi's language hosts outlive a killed CLI (their own behaviour). */
  readonly languageHost: RegExp;
}

/** The TypeScript SDK's dynamic resources, from the examples' TypeScript programs. */
export const TYPESCRIPT: Face = {
  key: "component",
  name: "TypeScript SDK (dynamic provider)",
  language: "nodejs",
  provider: "dynamic",
  projects: {
    move: exampleDir("firewall-policy-move"),
    readOnly: exampleDir("read-only"),
    ledger: exampleDir("ledger"),
  },
  processes: { program: 2, provider: { min: 2, max: 2 } },
  languageHost: /pulumi-language-nodejs/,
};

/** The resource plugin, from a YAML program. */
export const YAML: Face = {
  key: "plugin",
  name: "resource plugin (YAML program)",
  language: "yaml",
  provider: "plugin",
  projects: {
    move: path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "firewall-policy-move"),
    readOnly: path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "read-only"),
    ledger: path.join(REPO_ROOT, "test", "fixtures", "pulumi", "ledger-yaml"),
    batch: path.join(REPO_ROOT, "test", "fixtures", "pulumi", "ledger-batch-yaml"),
  },
  processes: { program: 1, provider: { min: 1, max: 2 } },
  languageHost: /pulumi-language-yaml/,
};

/** The resource plugin, from a Python program through sdk/python. */
export const PYTHON: Face = {
  key: "python",
  name: "resource plugin (Python program)",
  language: "python",
  provider: "plugin",
  projects: { ledger: path.join(REPO_ROOT, "test", "fixtures", "pulumi", "ledger-python") },
  languageHost: /pulumi-language-python/,
};

/** The faces of the Google resources' bodies, in the order their `describe`s run. */
export const GOOGLE_FACES: readonly Face[] = [TYPESCRIPT, YAML];

/** The copies of the plugin faces' projects that name the executable, one per project for this process. */
const throughExecutable = new Map<string, Promise<string>>();

/**
 * The folder to run a face's project in, failing (naming the face) where it has none: the project itself for the
 * dynamic face; for a plugin face, a copy whose plugins.providers names the executable (built first if need be),
 * made once per process and removed when it exits.
 */
export function projectOf(face: Face, project: keyof Face["projects"]): Promise<string> {
  const dir = face.projects[project];
  if (dir === undefined) return Promise.reject(new Error(`the ${face.name} has no ${project} project`));
  if (face.provider === "dynamic") return Promise.resolve(dir);
  let copy = throughExecutable.get(dir);
  if (copy === undefined) {
    copy = pluginExecutableDir().then((plugin) => {
      const made = projectWithPlugin(dir, plugin);
      process.once("exit", () => {
        rmSync(made, { recursive: true, force: true });
      });
      return made;
    });
    throughExecutable.set(dir, copy);
  }
  return copy;
}

/**
 * The type token the face's state and events show for the resource the SDK declares as `sdkType`: the dynamic face
 * shows the SDK's own; the plugin shows the registry's token of the same resource (provider/registry).
 */
export function typeOf(face: Face, sdkType: string): string {
  if (face.provider === "dynamic") return sdkType;
  const resource = resourceOfType(sdkType);
  if (resource === undefined) throw new Error(`the registry has no resource of type ${sdkType}`);
  return resource.token;
}

/** The property a refresh's diff names when the policy drifted: the dynamic face answers no detailed diff, so the
 * engine compares outputs (`parent`); the plugin answers one of the inputs (`parentId`). */
export function driftProperty(face: Face): "parent" | "parentId" {
  return face.provider === "dynamic" ? "parent" : "parentId";
}

/**
 * Whether the state holds the provider as a serialized closure (`__provider`, dynamic only): the plugin's state holds
 * a provider reference instead.
 */
export function serializesProvider(face: Face): boolean {
  return face.provider === "dynamic";
}

/**
 * The paragraph the CLI prints when a data source failed with `message` (the error's own words, the same through both
 * faces): the Node.js host prints the program's unhandled exception under a line naming the program; the YAML host
 * prints the provider's answer to the invoke on one line, after which it quotes the program's lines (not part of the
 * paragraph).
 */
export function dataSourceFailure(face: Face, projectDir: string, fn: string, message: string): string[] {
  if (face.language === "nodejs") {
    return [
      `error: Running program '${projectDir}/index.ts' failed with an unhandled exception:`,
      `ApiError: ${message}`,
    ];
  }
  return [`error: rpc error: code = Unknown desc = invocation of ${fn} returned an error: ${message}`];
}

/**
 * Whether `p`, under a `pulumi` command, is the process serving the resources: the dynamic provider, or the plugin's
 * executable (its command line starts with the executable itself; the script's starts with `node`).
 */
export function isProvider(face: Face, p: Proc): boolean {
  return face.provider === "dynamic"
    ? /pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider[\\/]index\.js/.test(p.args)
    : /^\S*[\\/]pulumi-resource-opsledger(\s|$)/.test(p.args);
}

/**
 * What the face's stack needs in its environment: the Python face, the project's virtualenv first on PATH and
 * examples/python on PYTHONPATH (its program imports the example's function, from a copy of the project too).
 */
export function faceEnv(face: Face): Readonly<Record<string, string>> {
  if (face.language !== "python") return {};
  const env = pythonEnv(pythonBinDir({ sdk: true }));
  return { PATH: env["PATH"] ?? "", PYTHONPATH: exampleDir("python"), PYTHONDONTWRITEBYTECODE: "1" };
}

/** The move's resource in a state. */
export function moveIn(face: Face, state: StackDeployment): StateResource {
  const found = resourcesOf(face, state);
  assert.equal(found.length, 1, `one ${typeOf(face, FIREWALL_POLICY_MOVE_TYPE)} in state`);
  return found[0] as StateResource;
}

/** The resources of the face's resource types in a state (the move, once a stack holds it). */
export function resourcesOf(face: Face, state: StackDeployment): StateResource[] {
  const type = typeOf(face, FIREWALL_POLICY_MOVE_TYPE);
  return (state.resources ?? []).filter((r) => r.type === type);
}

/** The lines of a printed diff that belong to the move's block (from its header to the next resource or section). */
export function moveBlock(face: Face, output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.includes(`${typeOf(face, FIREWALL_POLICY_MOVE_TYPE)}:`));
  assert.ok(start >= 0, output);
  const end = lines.findIndex(
    (l, i) => i > start && /^\s*(Resources:|Outputs:|--outputs:--|[+~-]? ?pulumi[:-]|[+~-]? ?opsledger:)/.test(l),
  );
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

/** The resources a first ledger preview creates: the stack and the component and its submission, or the stack and one. */
export function createdByFirstPreview(face: Face): number {
  return face.provider === "dynamic" ? 3 : 2;
}

/** The state entries holding the ledger transaction: the component's dynamic submission, or the plugin's resource. */
export function transactionResources(face: Face, deployment: { resources?: StateResource[] }): StateResource[] {
  return face.provider === "dynamic"
    ? dynamicResources(deployment)
    : (deployment.resources ?? []).filter((r) => r.type === typeOf(face, LEDGER_TRANSACTION_TYPE));
}
