/**
 * A thousand moves under a rate quota: `pulumi up` of N FirewallPolicyMoves through the plain CLI while the sandbox
 * enforces a per-minute quota on compute writes (429 RESOURCE_EXHAUSTED RATE_LIMIT_EXCEEDED), next to the plain
 * script making the same calls with the same client. Both must finish with every move made; the quota sets the pace
 * (N / limit minutes at best). The row records the rejections each side met, how many resources showed the pacing
 * status on their row, and whether any resource failed.
 */
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { initProjectStack } from "../scripts/lib/pulumi-cli";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { writeBenchProject } from "./generated-project";
import { measuredRun, runScript, seedPolicies } from "./scale-moves";
import type { Measured } from "./scale-moves";

export interface ScaleQuotaOptions {
  /** Moves. @default 1000 */
  readonly count: number;
  /** Compute writes accepted per minute. @default 300 */
  readonly limitPerMinute: number;
  /** @default 16 */
  readonly parallel: number;
  /** @default 2000 */
  readonly moveDurationMs: number;
  readonly onProgress?: (line: string) => void;
}

export interface ScaleQuotaResult extends Omit<ScaleQuotaOptions, "onProgress"> {
  readonly script: Measured & { readonly rejections: number; readonly moves: number };
  readonly pulumi: Measured & {
    readonly rejections: number;
    readonly moves: number;
    readonly failed: number;
    /** Resources that showed "waiting ... for the ... quota" on their row. */
    readonly pacedResources: number;
    /** Diagnostics that say why the provider waits (one per quota). */
    readonly quotaNotices: number;
  };
}

const TO = `folders/${fixture.FIXTURE_FOLDER_IDS.platform}`;
const SCRIPT_BASE = 810_000_000_000;
const STACK_BASE = 820_000_000_000;
const MOVE = "compute.firewallPolicies.move";

/** The engine's diagnostics (ephemeral ones are the statuses on a resource's row). */
function diagnostics(events: readonly EngineEvent[]): { urn: string; message: string; ephemeral: boolean }[] {
  return events.flatMap((e) => {
    const d = e.diagnosticEvent as (EngineEvent["diagnosticEvent"] & { ephemeral?: boolean }) | undefined;
    return d ? [{ urn: d.urn ?? "", message: d.message, ephemeral: d.ephemeral ?? false }] : [];
  });
}

export async function benchScaleQuota(partial: Partial<ScaleQuotaOptions> = {}): Promise<ScaleQuotaResult> {
  const options = {
    count: partial.count ?? 1000,
    limitPerMinute: partial.limitPerMinute ?? 300,
    parallel: partial.parallel ?? 16,
    moveDurationMs: partial.moveDurationMs ?? 2000,
  };
  const say = partial.onProgress ?? ((): void => undefined);
  const sandbox = await startGoogleSandbox({
    moveDurationMs: options.moveDurationMs,
    rateQuotas: [{ group: "computeWrites", limit: options.limitPerMinute }],
  });
  const moves = (): number => sandbox.audit().filter((e) => e.kind === "firewallPolicies.move").length;
  const rejections = (): number => sandbox.requests().filter((r) => r.route === MOVE && r.status === 429).length;
  try {
    seedPolicies(sandbox, [options.count]);
    const mint = (): string =>
      sandbox.mintToken({
        principal: fixture.DEPLOYER,
        scopes: ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`),
      });
    const token = mint();
    say(`${options.count} moves under ${options.limitPerMinute} writes/min: plain script`);
    const script = await runScript(
      { mode: "up", count: options.count, parentId: TO, parallel: options.parallel, firstPolicy: SCRIPT_BASE },
      { GOOGLE_COMPUTE_CUSTOM_ENDPOINT: sandbox.endpoints.compute, GOOGLE_OAUTH_ACCESS_TOKEN: token },
    );
    const scriptSide = { ...script, rejections: rejections(), moves: moves() };
    sandbox.reset(); // the seed, the quota of the options, empty logs, no tokens

    say(`${options.count} moves under ${options.limitPerMinute} writes/min: pulumi up`);
    const project = writeBenchProject("moves");
    try {
      const stack = await initProjectStack({
        projectDir: project.dir,
        transpileOnly: true,
        config: {
          count: { value: String(options.count) },
          firstPolicy: { value: String(STACK_BASE) },
          parentId: { value: TO },
          "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
          "opsledger:accessToken": { value: mint(), secret: true },
        },
      });
      try {
        const { measured, result } = await measuredRun(stack, [
          "up",
          "--yes",
          "--skip-preview",
          "--parallel",
          String(options.parallel),
        ]);
        const said = diagnostics(result.events);
        const summary = result.events.find((e) => e.summaryEvent)?.summaryEvent?.resourceChanges ?? {};
        return {
          ...options,
          script: scriptSide,
          pulumi: {
            ...measured,
            rejections: rejections(),
            moves: moves(),
            failed: options.count - Math.max(0, (summary["create"] ?? 0) - 1), // the stack itself is created too
            pacedResources: new Set(said.filter((d) => d.ephemeral && /quota/.test(d.message)).map((d) => d.urn)).size,
            quotaNotices: said.filter((d) => !d.ephemeral && /is used up for now/.test(d.message)).length,
          },
        };
      } finally {
        await stack.dispose();
      }
    } finally {
      project.dispose();
    }
  } finally {
    await sandbox.close();
  }
}
