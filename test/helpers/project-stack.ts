/**
 * The e2e tier's view of the Pulumi CLI: stacks of the projects under examples/ (or a project a test writes), driven
 * with the plain `pulumi` commands in their directories (scripts/lib/pulumi-cli.ts), and readers of the engine events
 * each command logged.
 */
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { REPO_ROOT, initProjectStack as initStack } from "../../scripts/lib/pulumi-cli";
import type { ProjectStack, ProjectStackOptions } from "../../scripts/lib/pulumi-cli";

export * from "../../scripts/lib/pulumi-cli";
export * from "../../scripts/lib/pulumi-install";
export * from "../../scripts/lib/stack-deployment";

/**
 * NODE_OPTIONS for the Node processes the CLI starts (the program and the dynamic-provider process): the egress guard
 * (egress-guard.ts), which refuses non-loopback connections there and reports them to the test process.
 */
export function egressGuardEnv(): Record<string, string> {
  const preload = path.join(__dirname, "egress-guard-preload.js");
  const inherited = process.env["NODE_OPTIONS"] ?? "";
  return { NODE_OPTIONS: `${inherited} --require ${preload}`.trim() };
}

/**
 * A new stack of a project. Pulumi's ts-node transpiles the program without type-checking it unless `transpileOnly`
 * is false: `npm test` type-checks every example with its own tsconfig before the tests (`tsc -p examples`), so
 * checking them again on every command would only cost time (about 2.5 s of CPU per command on these machines).
 * The program and provider processes run under the egress guard.
 */
export function initProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  return initStack({ transpileOnly: true, ...options, env: { ...egressGuardEnv(), ...options.env } });
}

/** The project directory of an example. */
export function exampleDir(name: string): string {
  return path.join(REPO_ROOT, "examples", name);
}

/** The resource changes the engine summarized (`{ create: 2, same: 1 }`). */
export function changeSummary(events: readonly EngineEvent[]): Record<string, number> {
  const summary = events.find((e) => e.summaryEvent)?.summaryEvent;
  return { ...(summary?.resourceChanges ?? {}) };
}

export interface Diagnostic {
  readonly urn: string;
  readonly message: string;
  readonly severity: string;
  readonly ephemeral: boolean;
}

/** Every diagnostic the engine reported, with the resource it is attached to ("" when none). */
export function diagnostics(events: readonly EngineEvent[]): Diagnostic[] {
  return events.flatMap((e) => {
    const d = e.diagnosticEvent as (EngineEvent["diagnosticEvent"] & { ephemeral?: boolean }) | undefined;
    return d ? [{ urn: d.urn ?? "", message: d.message, severity: d.severity, ephemeral: d.ephemeral ?? false }] : [];
  });
}

/** The text without terminal colour codes. */
export function stripAnsi(text: string): string {
  // eslint-disable-next-line no-control-regex -- matching the escape character is the point
  return text.replace(/\u001b\[[0-9;]*m/g, "");
}
