/**
 * Hundreds of reads in one preview: `pulumi preview` of a generated project with 500 data-source reads (the five kinds
 * in turn) through the plain CLI, next to a plain script making the same reads with the same client (run as its own
 * process), and next to Pulumi's floor (a preview of as many outputs resolved without this package or HTTP).
 *
 * Both sides authenticate as a pull-request preview job does: Application Default Credentials pointing at an
 * `external_account` file (STS token exchange, then service-account impersonation), the custom endpoints in the
 * environment. A fault rule answers a share of every read with 429 RESOURCE_EXHAUSTED and Retry-After, which both
 * must absorb; the others are answered after READ_LATENCY_MS, as a remote service would. For each side the sandbox counts the token requests, the most requests in flight per service and the
 * 429s. Nothing is printed here: bench/index.ts prints the result.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_MAX_CONCURRENT_REQUESTS } from "../provider/google";
import { startGoogleSandbox } from "../sandbox/google";
import type { FaultRule, GoogleSandbox } from "../sandbox/google";
import { ENDPOINT_ENV_NAMES } from "../sandbox/cli";
import { initProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";
import type { BenchProgram } from "./generated-project";
import { runBaselineScript } from "./baseline-script";
import { sampleProcessTree } from "./process-sampler";
import { READ_SCOPE_SETS } from "./scale-reads-calls";

export interface ScaleReadsOptions {
  /** Reads per run. @default 500 */
  readonly count: number;
  /** Share of reads answered 429 with Retry-After (per route, seeded). @default 0.03 */
  readonly rateLimitedShare: number;
  readonly onProgress?: (line: string) => void;
}

/** What the sandbox saw of one side's run. */
export interface ReadsRun {
  readonly ms: number;
  /** VmHWM of the process making the reads (the script, or the program under the language host), MiB. */
  readonly mb: number;
  /** Token-service requests: STS exchanges and impersonated access tokens. */
  readonly stsExchanges: number;
  readonly accessTokens: number;
  /** The most requests in flight at once per service, at the sandbox. */
  readonly maxInFlight: Readonly<Record<string, number>>;
  /** Reads answered 429 (and retried: the run succeeded). */
  readonly rateLimited: number;
  readonly reads: number;
  /** From the side's start (the script's spawn, the CLI's spawn) to its first request at the sandbox. */
  readonly firstRequestMs: number;
  /** From its first request to its last answer: the reads themselves, without either side's start-up. */
  readonly readPhaseMs: number;
}

export interface ScaleReadsResult {
  readonly count: number;
  readonly script: ReadsRun;
  readonly preview: ReadsRun;
  /** Pulumi's floor: the preview of as many plain outputs. */
  readonly floorMs: number;
  readonly scopeSets: number;
  readonly concurrencyLimit: number;
}

const READ_ROUTES = [
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
  "deploymentmanager.deployments.get",
  "workspaceevents.subscriptions.get",
  "displayvideo.advertisers.creatives.get",
];

/** Google-like latency on every read: requests overlap at the sandbox as they do at Google. */
export const READ_LATENCY_MS = 50;

function faults(share: number): FaultRule[] {
  return [
    ...READ_ROUTES.map((route): FaultRule => ({
      route,
      kind: "status",
      status: 429,
      rate: share,
      retryAfterSeconds: 1,
    })),
    { kind: "latency", latencyMs: READ_LATENCY_MS },
  ];
}

/** When a side's requests reached the sandbox, from the moment `start()` marks (the side's process spawn). */
function requestTimeline(sandbox: GoogleSandbox) {
  let t0 = 0;
  let first: number | undefined;
  let last = 0;
  sandbox.onRequest((e) => {
    const t = performance.now() - t0;
    if (e.phase === "received") first ??= t;
    else last = t;
  });
  return {
    start(): void {
      t0 = performance.now();
      first = undefined;
      last = 0;
    },
    read(): { firstRequestMs: number; readPhaseMs: number } {
      return { firstRequestMs: Math.round(first ?? 0), readPhaseMs: Math.round(last - (first ?? 0)) };
    },
  };
}

/** The counts of one run, read from the sandbox after it. */
function observed(
  sandbox: GoogleSandbox,
  ms: number,
  mb: number,
  timeline: { firstRequestMs: number; readPhaseMs: number },
): ReadsRun {
  const requests = sandbox.requests();
  const count = (route: string, status?: number): number =>
    requests.filter((r) => r.route === route && (status === undefined || r.status === status)).length;
  return {
    ms,
    mb,
    stsExchanges: count("sts.token"),
    accessTokens: count("iamcredentials.serviceAccounts.generateAccessToken"),
    maxInFlight: sandbox.concurrency().maxInFlight,
    rateLimited: READ_ROUTES.reduce((n, route) => n + count(route, 429), 0),
    reads: READ_ROUTES.reduce((n, route) => n + count(route, 200), 0),
    ...timeline,
  };
}

async function runScript(count: number, env: Readonly<Record<string, string>>): Promise<{ ms: number; mb: number }> {
  const { ms, result } = await runBaselineScript("scale-reads-script.js", [String(count)], env);
  return { ms, mb: Math.round((result as { peakKb: number }).peakKb / 1024) };
}

/** `pulumi preview` of a new stack of `program`; the peak memory of its program process. */
async function preview(
  program: BenchProgram,
  count: number,
  env: Readonly<Record<string, string>>,
  onStart: () => void = () => undefined,
): Promise<{ ms: number; mb: number }> {
  const project = writeBenchProject(program);
  try {
    const stack = await initProjectStack({
      projectDir: project.dir,
      transpileOnly: true,
      eventLog: false,
      env,
      config: { count: { value: String(count) } },
    });
    try {
      let sampler: ReturnType<typeof sampleProcessTree> | undefined;
      const started = performance.now();
      await stack.run(["preview"], {
        onSpawn: (pid) => {
          onStart();
          sampler = sampleProcessTree(pid);
        },
      });
      const ms = Math.round(performance.now() - started);
      const programKb = Math.max(
        0,
        ...(sampler?.stop() ?? []).filter((p) => p.command.includes("cmd/run")).map((p) => p.peakKb),
      );
      return { ms, mb: Math.round(programKb / 1024) };
    } finally {
      await stack.dispose();
    }
  } finally {
    project.dispose();
  }
}

export async function benchScaleReads(partial: Partial<ScaleReadsOptions> = {}): Promise<ScaleReadsResult> {
  const count = partial.count ?? 500;
  const share = partial.rateLimitedShare ?? 0.03;
  const say = partial.onProgress ?? ((): void => undefined);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-reads-"));
  const sandbox = await startGoogleSandbox({ faultSeed: 13 });
  try {
    const env: Record<string, string> = {
      GOOGLE_APPLICATION_CREDENTIALS: await sandbox.writeCredentialsFile(dir),
      OPSLEDGER_DISPLAY_VIDEO_API_VERSION: "v4",
    };
    for (const [name, key] of ENDPOINT_ENV_NAMES) env[name] = sandbox.endpoints[key];
    const fresh = (): void => {
      sandbox.reset();
      sandbox.setFaults(faults(share));
    };
    const timeline = requestTimeline(sandbox);
    say(`${count} reads: plain script`);
    fresh();
    timeline.start();
    const scriptRun = await runScript(count, env);
    const script = observed(sandbox, scriptRun.ms, scriptRun.mb, timeline.read());
    say(`${count} reads: pulumi preview`);
    fresh();
    const previewRun = await preview("reads", count, env, () => {
      timeline.start();
    });
    const previewed = observed(sandbox, previewRun.ms, previewRun.mb, timeline.read());
    say(`${count} reads: Pulumi's floor`);
    const floor = await preview("readsFloor", count, {});
    return {
      count,
      script,
      preview: previewed,
      floorMs: floor.ms,
      scopeSets: READ_SCOPE_SETS,
      concurrencyLimit: DEFAULT_MAX_CONCURRENT_REQUESTS,
    };
  } finally {
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
