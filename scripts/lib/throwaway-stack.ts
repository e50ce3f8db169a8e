/**
 * Throwaway stacks on the real Pulumi engine (the CLI built by scripts/ensure-pulumi.sh), for the e2e tests, the
 * demo and the benchmarks: the Automation API with inline programs, a local file backend in a temp dir and a
 * passphrase secrets provider.
 * Nothing is downloaded: no update check, no plugin acquisition. `dispose()` destroys the stack and removes every
 * temp file; call it in `after`/`finally`.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import type { ConfigMap, EngineEvent, OutputMap, PulumiFn, Stack } from "@pulumi/pulumi/automation";

export const REPO_ROOT = path.resolve(__dirname, "..", "..", ".."); // dist/scripts/lib -> repo

/** The directory holding `pulumi` (set by scripts/run.sh), else a `pulumi` on PATH. */
export function pulumiBinDir(): string {
  const fromEnv = process.env["OPSLEDGER_PULUMI_BIN"];
  if (fromEnv) return fromEnv;
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, "pulumi"))) return dir;
  }
  throw new Error("no Pulumi CLI: run the tests through `npm test`, which builds it (scripts/ensure-pulumi.sh)");
}

export interface ThrowawayStackOptions {
  projectName: string;
  program: PulumiFn;
  config?: ConfigMap;
  /** Extra environment for the CLI and the provider processes it starts. */
  envVars?: Record<string, string>;
}

export interface ThrowawayStack {
  readonly stack: Stack;
  readonly workDir: string;
  /** Everything the engine printed during the last operation, stdout and stderr together. */
  readonly lastOutput: () => string;
  preview(opts?: { diff?: boolean; refresh?: boolean }): Promise<PreviewJson>;
  up(): Promise<{ outputs: OutputMap; output: string }>;
  refresh(opts?: { clearPendingCreates?: boolean }): Promise<string>;
  destroy(): Promise<string>;
  exportState(): Promise<StackDeployment>;
  setConfig(config: ConfigMap): Promise<void>;
  /** Runs the CLI directly with the stack's environment, for flags the Automation API does not expose. */
  cli(args: readonly string[]): Promise<{ stdout: string; stderr: string; code: number }>;
  dispose(): Promise<void>;
}

/** The `deployment` of a stack export (apitype.DeploymentV3), as far as the tests read it. */
export interface StackDeployment {
  resources?: StateResource[];
  pending_operations?: { resource: StateResource; type: string }[];
}

export interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

export interface PreviewStep {
  op: string;
  urn: string;
  type: string;
  diffs: string[];
  detailedDiff: Record<string, { kind: string }>;
}

/** What a preview showed: the engine's resource steps (from its events), diagnostics and the printed text. */
export interface PreviewJson {
  changeSummary: Record<string, number>;
  steps: PreviewStep[];
  diagnostics: { message: string; severity: string }[];
  output: string;
}

let counter = 0;

export async function createThrowawayStack(options: ThrowawayStackOptions): Promise<ThrowawayStack> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-e2e-"));
  const workDir = path.join(tmp, "project");
  const backendDir = path.join(tmp, "backend");
  fs.mkdirSync(workDir);
  fs.mkdirSync(backendDir);
  // The provider processes start in workDir: they must resolve @pulumi/pulumi and this package from there.
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(workDir, "node_modules"));
  const binDir = pulumiBinDir();
  const env: Record<string, string> = {
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_CONFIG_PASSPHRASE: "opsledger-e2e",
    PULUMI_HOME: path.join(tmp, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_AUTOMATION_API_SKIP_VERSION_CHECK: "true",
    ...options.envVars,
  };
  const pulumiCommand = await PulumiCommand.get({ root: path.dirname(binDir), skipVersionCheck: true });
  const stackName = `e2e${process.pid}x${++counter}`;
  const stack = await LocalWorkspace.createStack(
    { stackName, projectName: options.projectName, program: options.program },
    { workDir, pulumiHome: env["PULUMI_HOME"] ?? "", envVars: env, pulumiCommand },
  );
  if (options.config) await stack.setAllConfig(options.config);

  let last = "";
  const capture = (s: string): void => {
    last += s;
  };
  const run = async (args: readonly string[]) => {
    const { spawnSync } = await import("node:child_process");
    const r = spawnSync(
      path.join(binDir, "pulumi"),
      [...args, "--stack", stackName, "--cwd", workDir, "--non-interactive"],
      {
        env: { ...process.env, ...env, PATH: `${binDir}${path.delimiter}${process.env["PATH"] ?? ""}` },
        encoding: "utf8",
      },
    );
    return { stdout: r.stdout, stderr: r.stderr, code: r.status ?? -1 };
  };

  const self: ThrowawayStack = {
    stack,
    workDir,
    lastOutput: () => last,
    async preview(opts) {
      last = "";
      const steps: PreviewStep[] = [];
      const diagnostics: { message: string; severity: string }[] = [];
      const result = await stack.preview({
        diff: opts?.diff ?? false,
        refresh: opts?.refresh ?? false,
        onOutput: capture,
        onEvent: (event: EngineEvent) => {
          const meta = event.resourcePreEvent?.metadata;
          if (meta) {
            steps.push({
              op: meta.op,
              urn: meta.urn,
              type: meta.type,
              diffs: meta.diffs ?? [],
              detailedDiff: Object.fromEntries(
                Object.entries(meta.detailedDiff ?? {}).map(([k, v]) => [k, { kind: v.diffKind }]),
              ),
            });
          }
          if (event.diagnosticEvent)
            diagnostics.push({ message: event.diagnosticEvent.message, severity: event.diagnosticEvent.severity });
        },
      });
      return { changeSummary: result.changeSummary, steps, diagnostics, output: last };
    },
    async up() {
      last = "";
      const r = await stack.up({ onOutput: capture });
      return { outputs: r.outputs, output: last };
    },
    async refresh(opts) {
      last = "";
      await stack.refresh({
        onOutput: capture,
        ...(opts?.clearPendingCreates ? { clearPendingCreates: true } : {}),
      });
      return last;
    },
    async destroy() {
      last = "";
      await stack.destroy({ onOutput: capture });
      return last;
    },
    async exportState() {
      const d = await stack.exportStack();
      return d.deployment as StackDeployment;
    },
    async setConfig(config) {
      await stack.setAllConfig(config);
    },
    cli: run,
    async dispose() {
      try {
        await stack.destroy({ onOutput: () => undefined });
        await stack.workspace.removeStack(stackName);
      } catch {
        // Best effort: the temp dir goes regardless.
      }
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
  return self;
}

/** The dynamic resources of a stack export. */
export function dynamicResources(deployment: { resources?: StateResource[] }): StateResource[] {
  return (deployment.resources ?? []).filter((r) => r.type.startsWith("pulumi-nodejs:dynamic/"));
}
