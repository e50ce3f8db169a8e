/**
 * The two faces a Pulumi program reaches the package's resources through, for e2e bodies that run once per face
 * (the same behaviour, proven by the same bodies):
 * - the TypeScript SDK's dynamic resources (examples/firewall-policy-move; type
 *   `pulumi-nodejs:dynamic/compute:FirewallPolicyMove`, served by @pulumi/pulumi's dynamic-provider host);
 * - the resource plugin bin/pulumi-resource-opsledger (a YAML twin of the same program under test/fixtures/yaml-twins,
 *   found through its Pulumi.yaml's plugins.providers; type `opsledger:compute:FirewallPolicyMove`).
 * A twin takes the same config keys with the same defaults and names its resource and outputs as the TypeScript
 * program does, so a body differs between faces only where the face itself does, which each field here names.
 */
import { strict as assert } from "node:assert";
import * as path from "node:path";
import { REPO_ROOT, exampleDir } from "./project-stack";
import type { StackDeployment, StateResource } from "./project-stack";

export interface Face {
  /** Names the face in a `describe`. */
  readonly name: "TypeScript SDK (dynamic provider)" | "resource plugin (YAML program)";
  /** The move's project: examples/firewall-policy-move, or its YAML twin. */
  readonly moveProject: string;
  /** The data sources' project: examples/read-only, or its YAML twin. */
  readonly readOnlyProject: string;
  /** The move's type token, as state, events and the CLI's diff show it. */
  readonly moveType: string;
  /**
   * The processes a `pulumi up` of the move's project runs besides the CLI (kill-stack.ts names their roles): what a
   * tree kill must take. The dynamic face runs the language host and the program, and the provider's launcher script
   * and its node. The plugin face runs the YAML language host (which is the program) and one or two plugin processes,
   * each one node (the `#!/usr/bin/env node` wrapper execs node: no process of its own): `ps` showed two children of
   * the CLI, `node <repo>/bin/pulumi-resource-opsledger <engine address>`, through a create, and one at the kill
   * point of an update; how many the engine starts is its own choice.
   */
  readonly processes: {
    readonly program: number;
    readonly provider: { readonly min: number; readonly max: number };
  };
  /** The language host's executable: Pulumi's language hosts outlive a killed CLI (their own behaviour). */
  readonly languageHost: RegExp;
  /**
   * The property a refresh's diff names when the policy drifted: the dynamic face answers no detailed diff, so the
   * engine compares outputs (`parent`); the plugin answers one of the inputs (`parentId`).
   */
  readonly driftProperty: "parent" | "parentId";
  /**
   * The paragraph the CLI prints when a data source failed with `message` (the error's own words, the same through
   * both faces): the Node.js host prints the program's unhandled exception under a line naming the program; the YAML
   * host prints the provider's answer to the invoke on one line, after which it quotes the program's lines (not part of
   * the paragraph).
   */
  readonly dataSourceFailure: (projectDir: string, fn: string, message: string) => string[];
  /**
   * Whether the state holds the provider as a serialized closure (`__provider`, dynamic only): the plugin's state
   * holds a provider reference instead.
   */
  readonly serializedProvider: boolean;
}

/** The TypeScript SDK's dynamic resources. */
export const DYNAMIC: Face = {
  name: "TypeScript SDK (dynamic provider)",
  moveProject: exampleDir("firewall-policy-move"),
  readOnlyProject: exampleDir("read-only"),
  moveType: "pulumi-nodejs:dynamic/compute:FirewallPolicyMove",
  processes: { program: 2, provider: { min: 2, max: 2 } },
  languageHost: /pulumi-language-nodejs/,
  driftProperty: "parent",
  dataSourceFailure: (dir, _fn, message) => [
    `error: Running program '${dir}/index.ts' failed with an unhandled exception:`,
    `ApiError: ${message}`,
  ],
  serializedProvider: true,
};

/** The resource plugin, from a YAML program. */
export const PLUGIN: Face = {
  name: "resource plugin (YAML program)",
  moveProject: path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "firewall-policy-move"),
  readOnlyProject: path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "read-only"),
  moveType: "opsledger:compute:FirewallPolicyMove",
  processes: { program: 1, provider: { min: 1, max: 2 } },
  languageHost: /pulumi-language-yaml/,
  driftProperty: "parentId",
  dataSourceFailure: (_dir, fn, message) => [
    `error: rpc error: code = Unknown desc = invocation of ${fn} returned an error: ${message}`,
  ],
  serializedProvider: false,
};

/** Asserts that `processes` are as many of `role` as a `pulumi up` through the face runs. */
export function assertProcessCount(face: Face, role: "program" | "provider", processes: readonly unknown[]): void {
  const expected =
    role === "program" ? { min: face.processes.program, max: face.processes.program } : face.processes.provider;
  assert.ok(
    processes.length >= expected.min && processes.length <= expected.max,
    `${String(processes.length)} ${role} processes through the ${face.name}, expected ${String(expected.min)} to ${String(expected.max)}`,
  );
}

/** Both faces, in the order their `describe`s run. */
export const FACES: readonly Face[] = [DYNAMIC, PLUGIN];

/** The move's resource in a state. */
export function moveIn(face: Face, state: StackDeployment): StateResource {
  const found = (state.resources ?? []).filter((r) => r.type === face.moveType);
  assert.equal(found.length, 1, `one ${face.moveType} in state`);
  return found[0] as StateResource;
}

/** The resources of the face's resource types in a state (the move, once a stack holds it). */
export function resourcesOf(face: Face, state: StackDeployment): StateResource[] {
  return (state.resources ?? []).filter((r) => r.type === face.moveType);
}

/** The lines of a printed diff that belong to the move's block (from its header to the next resource or section). */
export function moveBlock(face: Face, output: string): string[] {
  const lines = output.split("\n");
  const start = lines.findIndex((l) => l.includes(`${face.moveType}:`));
  assert.ok(start >= 0, output);
  const end = lines.findIndex(
    (l, i) => i > start && /^\s*(Resources:|Outputs:|--outputs:--|[+~-]? ?pulumi[:-]|[+~-]? ?opsledger:)/.test(l),
  );
  return lines.slice(start + 1, end < 0 ? undefined : end);
}
