/**
 * The `pulumi` CLI in a project directory, the way users run it: `pulumi stack init`, `pulumi config set-all`,
 * `pulumi preview --diff`, `pulumi up --yes`, `refresh`, `destroy`, `stack export`, `cancel`. The project's program runs
 * through the Node.js language host, which compiles its TypeScript entry point as it would a user's.
 *
 * Each stack lives in its own temp dir: a file backend, a passphrase secrets provider, a PULUMI_HOME; nothing is
 * downloaded (no update check, no plugin acquisition). The stack's settings file (Pulumi.<stack>.yaml, written by the
 * CLI into the project directory) is removed by `dispose()`. Used by the e2e tests, `npm run demo` and the benchmarks.
 */
import { spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { pulumiBinDir, requireLanguageHost } from "./pulumi-install";
import { CheckpointFormatError, outputsRecord, readCheckpointExport, readCheckpointOutputs } from "./stack-checkpoint";
import type { StackDeployment } from "./stack-deployment";

export const REPO_ROOT = path.resolve(__dirname, "..", "..", ".."); // dist/scripts/lib -> repo

/** The command that prints a stack's outputs with its secrets' values. */
const OUTPUT_ARGS = ["stack", "output", "--json", "--show-secrets"] as const;

/** Commands that accept `--event-log` (a debug flag: PULUMI_DEBUG_COMMANDS must be set). */
const EVENT_LOG_COMMANDS = new Set(["preview", "up", "update", "refresh", "destroy"]);

export type ConfigValues = Readonly<Record<string, { readonly value: string; readonly secret?: boolean }>>;

export interface ProjectStackOptions {
  /** The project directory (holding Pulumi.yaml). */
  readonly projectDir: string;
  /** @default a unique name per process and call */
  readonly stackName?: string;
  /** Stack configuration, set with `pulumi config set-all` after `pulumi stack init`. */
  readonly config?: ConfigValues;
  /** Extra environment of the CLI and of the processes it starts (language host, program, providers). */
  readonly env?: Readonly<Record<string, string>>;
  /** Called with each command line before it runs, as a user would type it (the demo prints them). */
  readonly echo?: (commandLine: string) => void;
  /**
   * Let Pulumi's ts-node transpile the program without type-checking it (PULUMI_NODEJS_TRANSPILE_ONLY, what
   * `compilerOptions.noCheck` does for a user). @default false
   */
  readonly transpileOnly?: boolean;
  /**
   * Pass `--event-log` to preview/up/refresh/destroy so `CommandResult.events` holds the engine's events. The
   * benchmarks turn it off: users do not pay for it. @default true
   */
  readonly eventLog?: boolean;
  /** The stack already exists in the backend (another runner made it): skip `pulumi stack init`. @default false */
  readonly existingStack?: boolean;
}

export interface CommandResult {
  readonly args: readonly string[];
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr as they arrived, interleaved. */
  readonly output: string;
  /** The engine events of the command (`--event-log`), for preview, up, refresh and destroy. */
  readonly events: readonly EngineEvent[];
}

/** A command that exited with a non-zero code; the message holds its output. */
export class PulumiCommandError extends Error {
  readonly result: CommandResult;
  constructor(result: CommandResult) {
    super(`pulumi ${result.args.join(" ")} exited with ${String(result.code ?? result.signal)}:\n${result.output}`);
    this.name = "PulumiCommandError";
    this.result = result;
  }
}

export interface RunOptions {
  /** Resolve with the result instead of rejecting when the command fails. */
  readonly allowFailure?: boolean;
  /** Environment of this command only, over the stack's. */
  readonly env?: Readonly<Record<string, string>>;
  /** What `echo` shows instead of the arguments (to show a file reference rather than a secret, say). */
  readonly shown?: string;
  /** Called with the running CLI's pid as soon as it is spawned (kill tests). */
  readonly onSpawn?: (pid: number) => void;
}

/** What a preview showed: the engine's resource steps (from its events) and the change summary. */
export interface PreviewStep {
  readonly op: string;
  readonly urn: string;
  readonly type: string;
}

export interface ProjectStack {
  readonly name: string;
  readonly projectDir: string;
  /** The file backend's checkpoint of this stack (`<backend>/.pulumi/stacks/<project>/<stack>.json`). */
  readonly stateFile: string;
  readonly env: Readonly<Record<string, string>>;
  /** The file backend's directory (it holds `.pulumi/stacks`, `.pulumi/history` and `.pulumi/backups`). */
  readonly backendDir: string;
  /** PULUMI_HOME of this stack (the CLI writes its automatic logs under `logs/`). */
  readonly home: string;
  /** The arguments of every `pulumi` command this stack ran, in order (tests count the CLI's invocations). */
  readonly commands: readonly (readonly string[])[];
  /** `pulumi <args> --stack <name> --non-interactive` in the project directory. */
  run(args: readonly string[], options?: RunOptions): Promise<CommandResult>;
  /** `pulumi config set-all`; `echo` shows secret values as `<secret>` unless `shown` says otherwise. */
  setConfig(config: ConfigValues, options?: RunOptions): Promise<void>;
  preview(options?: { diff?: boolean } & RunOptions): Promise<CommandResult & { steps: PreviewStep[] }>;
  /**
   * `pulumi up --yes --skip-preview`. When it succeeds, `outputs` holds the stack's outputs read from the checkpoint
   * it wrote (no CLI call); an output that is a Pulumi secret is stored there encrypted, so reading one of those runs
   * `pulumi stack output --json --show-secrets` (once, synchronously) for its value. `{}` when the up failed.
   */
  up(options?: RunOptions): Promise<CommandResult & { outputs: Record<string, unknown> }>;
  refresh(options?: { clearPendingCreates?: boolean } & RunOptions): Promise<CommandResult>;
  destroy(options?: RunOptions): Promise<CommandResult>;
  /**
   * The stack's outputs: from the checkpoint when none is a Pulumi secret, else `pulumi stack output --json
   * --show-secrets` (the checkpoint holds a secret's ciphertext only).
   */
  outputs(): Promise<Record<string, unknown>>;
  /**
   * The latest deployment, as `pulumi stack export` prints it: read from the checkpoint file (a plain export prints
   * that deployment, secrets as ciphertext); with `showSecrets`, `pulumi stack export --show-secrets`.
   */
  exportState(options?: { showSecrets?: boolean }): Promise<StackDeployment>;
  /**
   * The CLI's automatic logs of this stack's commands (PULUMI_HOME/logs), each made readable with `pulumi logs
   * decrypt` (they are encrypted with the stack's secrets provider, or gzip before one is known).
   */
  decryptedLogs(): Promise<string[]>;
  /** The same log files' bytes as they are on disk (encrypted at rest with the stack's secrets provider), as text. */
  rawLogs(): string[];
  /** Removes the stack (its backend and temp dir) and its settings file; resources it still names stay as they are. */
  dispose(): Promise<void>;
}

let counter = 0;

/**
 * `read()` of the checkpoint, or `cli()` when the checkpoint is of a format this reader does not know (written by
 * another CLI version): reading the file is a shortcut, and the CLI stays the authority.
 */
export function fromCheckpoint<T, U>(read: () => T, cli: () => U): T | U {
  try {
    return read();
  } catch (e) {
    if (e instanceof CheckpointFormatError) return cli();
    throw e;
  }
}

/** The CLI's log files under PULUMI_HOME/logs, oldest first. */
function logFiles(home: string): string[] {
  const dir = path.join(home, "logs");
  return fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith(".log"))
        .sort()
        .map((f) => path.join(dir, f))
    : [];
}

/** `pulumi stack init` of a new stack in the project directory, then its config. */
export async function initProjectStack(options: ProjectStackOptions): Promise<ProjectStack> {
  const binDir = pulumiBinDir();
  requireLanguageHost(binDir);
  const projectDir = path.resolve(options.projectDir);
  const name = options.stackName ?? `t${process.pid}x${++counter}`;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-stack-"));
  fs.mkdirSync(path.join(tmp, "backend"));
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] =>
        e[1] !== undefined &&
        !e[0].startsWith("PULUMI_") &&
        !e[0].startsWith("GOOGLE_") &&
        e[0] !== "OPSLEDGER_PULUMI_BIN",
    ),
  );
  const env: Record<string, string> = {
    ...inherited,
    PATH: [binDir, path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
    PULUMI_CONFIG_PASSPHRASE: "opsledger-local-stack",
    PULUMI_HOME: path.join(tmp, "pulumi-home"),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_DEBUG_COMMANDS: "true", // unhides --event-log
    ...(options.transpileOnly === true ? { PULUMI_NODEJS_TRANSPILE_ONLY: "true" } : {}),
    ...options.env,
  };
  let events = 0;
  const commands: string[][] = [];
  const commandLog = process.env["OPSLEDGER_PULUMI_COMMAND_LOG"];

  const record = (args: readonly string[]): void => {
    commands.push([...args]);
    // One line per invocation, appended by every test worker: `npm test` runs count the CLI's cost per file.
    if (commandLog) fs.appendFileSync(commandLog, `${JSON.stringify({ pid: process.pid, args })}\n`);
  };

  const run = (args: readonly string[], runOptions: RunOptions = {}): Promise<CommandResult> => {
    record(args);
    // `stack init` names the stack itself; `logs decrypt` finds it from the log file's name.
    const noStack = (args[0] === "stack" && args[1] === "init") || (args[0] === "logs" && args[1] === "decrypt");
    const full = [...args, ...(noStack ? [] : ["--stack", name]), "--non-interactive"];
    const eventLog =
      options.eventLog !== false && EVENT_LOG_COMMANDS.has(args[0] ?? "")
        ? path.join(tmp, `events-${++events}.jsonl`)
        : undefined;
    if (eventLog) full.push("--event-log", eventLog);
    options.echo?.(runOptions.shown ?? `pulumi ${args.map(shellQuote).join(" ")}`);
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(binDir, "pulumi"), full, {
        cwd: projectDir,
        env: { ...env, ...runOptions.env },
        stdio: ["ignore", "pipe", "pipe"],
      });
      if (child.pid !== undefined) runOptions.onSpawn?.(child.pid);
      let stdout = "";
      let stderr = "";
      let output = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => {
        stdout += s;
        output += s;
      });
      child.stderr.setEncoding("utf8").on("data", (s: string) => {
        stderr += s;
        output += s;
      });
      child.on("error", reject);
      child.on("close", (code, signal) => {
        const result: CommandResult = {
          args,
          code,
          signal,
          stdout,
          stderr,
          output,
          events: eventLog === undefined ? [] : readEvents(eventLog),
        };
        if (code === 0 || runOptions.allowFailure) resolve(result);
        else reject(new PulumiCommandError(result));
      });
    });
  };

  /** `stack output --show-secrets`, synchronously: an up's `outputs` is a plain record, a secret in it a getter. */
  const showOutputs = (): Record<string, unknown> => {
    record(OUTPUT_ARGS);
    const r = spawnSync(path.join(binDir, "pulumi"), [...OUTPUT_ARGS, "--stack", name, "--non-interactive"], {
      cwd: projectDir,
      env,
      encoding: "utf8",
    });
    if (r.status !== 0) {
      throw new Error(`pulumi ${OUTPUT_ARGS.join(" ")} exited with ${String(r.status ?? r.signal)}:\n${r.stderr}`);
    }
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };

  const projectName =
    /^name:\s*(\S+)\s*$/m.exec(fs.readFileSync(path.join(projectDir, "Pulumi.yaml"), "utf8"))?.[1] ?? "";
  const stack: ProjectStack = {
    name,
    projectDir,
    stateFile: path.join(tmp, "backend", ".pulumi", "stacks", projectName, `${name}.json`),
    env,
    backendDir: path.join(tmp, "backend"),
    home: env["PULUMI_HOME"] ?? path.join(tmp, "pulumi-home"),
    commands,
    run,
    async setConfig(config, o = {}) {
      const args = ["config", "set-all"];
      const shown = ["pulumi config set-all"];
      for (const [key, { value, secret }] of Object.entries(config)) {
        args.push(secret ? "--secret" : "--plaintext", `${key}=${value}`);
        shown.push(secret ? `--secret ${key}=<secret>` : `--plaintext ${shellQuote(`${key}=${value}`)}`);
      }
      await run(args, { shown: shown.join(" "), ...o });
    },
    async preview(o = {}) {
      const result = await run(["preview", ...(o.diff ? ["--diff"] : [])], o);
      const steps = result.events.flatMap((e) => {
        const m = e.resourcePreEvent?.metadata;
        return m ? [{ op: m.op, urn: m.urn, type: m.type }] : [];
      });
      return { ...result, steps };
    },
    async up(o = {}) {
      const result = await run(["up", "--yes", "--skip-preview"], o);
      // Read now, not when a caller reads `outputs`: a later command rewrites the checkpoint.
      const outputs =
        result.code === 0 ? fromCheckpoint(() => outputsRecord(stack.stateFile, name, showOutputs), showOutputs) : {};
      return { ...result, outputs };
    },
    refresh(o = {}) {
      return run(
        ["refresh", "--yes", "--skip-preview", ...(o.clearPendingCreates ? ["--clear-pending-creates"] : [])],
        o,
      );
    },
    destroy(o = {}) {
      return run(["destroy", "--yes", "--skip-preview"], o);
    },
    async outputs() {
      const stored = fromCheckpoint(
        () => readCheckpointOutputs(stack.stateFile),
        () => undefined,
      );
      if (stored !== undefined && stored.secretNames.length === 0) return stored.values;
      return JSON.parse((await run(OUTPUT_ARGS)).stdout) as Record<string, unknown>;
    },
    async exportState(o = {}) {
      const plain = o.showSecrets
        ? undefined
        : fromCheckpoint(
            () => readCheckpointExport(stack.stateFile),
            () => undefined,
          );
      if (plain !== undefined) return plain.deployment;
      const r = await run(["stack", "export", ...(o.showSecrets ? ["--show-secrets"] : [])]);
      return (JSON.parse(r.stdout) as { deployment: StackDeployment }).deployment;
    },
    async decryptedLogs() {
      const texts: string[] = [];
      for (const file of logFiles(stack.home)) texts.push((await run(["logs", "decrypt", file])).stdout);
      return texts;
    },
    rawLogs() {
      return logFiles(stack.home).map((file) => fs.readFileSync(file, "latin1"));
    },
    dispose() {
      // The backend lives in the temp dir: removing it removes the stack (resources it still names are left as they
      // are, which is all a sandbox needs); the settings file is the only trace in the project directory.
      fs.rmSync(path.join(projectDir, `Pulumi.${name}.yaml`), { force: true });
      fs.rmSync(tmp, { recursive: true, force: true });
      return Promise.resolve();
    },
  };

  if (options.existingStack !== true)
    await run(["stack", "init", name]).catch((e: unknown) => {
      fs.rmSync(tmp, { recursive: true, force: true });
      throw e;
    });
  if (options.config) await stack.setConfig(options.config);
  return stack;
}

/** An argument as a POSIX shell would need it typed. */
export function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function readEvents(file: string): EngineEvent[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as EngineEvent];
      } catch {
        return []; // the last line of a killed command may be cut off
      }
    });
}
