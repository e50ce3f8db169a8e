/** Prints the rows of the scale benchmarks (bench/scale-moves.ts) as tables, with growth factors between sizes. */
import type { ScaleMovesOptions, ScaleMovesRow } from "./scale-moves";
import type { ScaleQuotaResult } from "./scale-quota";
import type { ReadsRun, ScaleReadsResult } from "./scale-reads";
import { printTable, ratio } from "./table";
import type { Cell } from "./table";

const seconds = (ms: number): string => (ms / 1000).toFixed(1);
const kb = (bytes: number): number => Math.round(bytes / 1024);

/** "x10.2" between consecutive sizes: how a figure grows when the stack grows (x10 per step is linear). */
function growthRows(rows: readonly ScaleMovesRow[], pick: (r: ScaleMovesRow) => readonly number[]): Cell[][] {
  return rows.slice(1).map((row, i) => {
    const before = rows[i]!;
    const now = pick(row);
    const then = pick(before);
    return [
      `growth ${before.count} -> ${row.count}`,
      ...now.map((v, j) => {
        const base = then[j] ?? 0;
        return base > 0 && v > 0 ? `x${(v / base).toFixed(1)}` : "";
      }),
    ];
  });
}

export function printScaleMoves(
  rows: readonly ScaleMovesRow[],
  options: Pick<ScaleMovesOptions, "parallel" | "moveDurationMs">,
): void {
  const setting = `--parallel ${options.parallel}, ${options.moveDurationMs / 1000} s operations`;
  const up = (r: ScaleMovesRow): number[] => [
    r.script.up.ms,
    r.pulumi.up.ms,
    0,
    r.floor.up.ms,
    r.pulumi.up.providerMb,
    r.script.up.providerMb,
    r.pulumi.up.cliMb,
    r.stateBytes,
    r.floorStateBytes,
  ];
  printTable(
    `pulumi up of N FirewallPolicyMoves vs a plain script making the same calls (${setting}; target at 1,000: <= 1.2x; growth x10 per step is linear)`,
    [
      "moves",
      "script s",
      "pulumi up s",
      "ratio",
      "Pulumi floor s",
      "provider MB",
      "script MB",
      "CLI MB",
      "state KB",
      "floor state KB",
    ],
    [
      ...rows.map((r) => [
        r.count,
        seconds(r.script.up.ms),
        seconds(r.pulumi.up.ms),
        ratio(r.pulumi.up.ms, r.script.up.ms),
        seconds(r.floor.up.ms),
        r.pulumi.up.providerMb,
        r.script.up.providerMb,
        r.pulumi.up.cliMb,
        kb(r.stateBytes),
        kb(r.floorStateBytes),
      ]),
      ...growthRows(rows, up).map((g) => [g[0]!, g[1]!, g[2]!, "", g[4]!, g[5]!, g[6]!, g[7]!, g[8]!, g[9]!]),
    ],
  );
  const preview = (r: ScaleMovesRow): number[] => [
    r.pulumi.preview.ms,
    r.floor.preview.ms,
    r.pulumi.preview.providerMb,
    r.pulumi.preview.cliMb,
  ];
  printTable(
    `pulumi preview of moving all N to another folder (no Google call: check and diff only) vs Pulumi's floor (${setting})`,
    ["moves", "pulumi preview s", "Pulumi floor s", "ratio to floor", "provider MB", "CLI MB"],
    [
      ...rows.map((r) => [
        r.count,
        seconds(r.pulumi.preview.ms),
        seconds(r.floor.preview.ms),
        ratio(r.pulumi.preview.ms, r.floor.preview.ms),
        r.pulumi.preview.providerMb,
        r.pulumi.preview.cliMb,
      ]),
      ...growthRows(rows, preview).map((g) => [g[0]!, g[1]!, g[2]!, "", g[3]!, g[4]!]),
    ],
  );
  const refresh = (r: ScaleMovesRow): number[] => [
    r.script.refresh.ms,
    r.pulumi.refresh.ms,
    0,
    r.floor.refresh.ms,
    r.pulumi.refresh.providerMb,
    r.pulumi.refresh.cliMb,
  ];
  printTable(
    `pulumi refresh of the N moves (one GET each) vs a plain script making the same GETs (${setting})`,
    ["moves", "script s", "pulumi refresh s", "ratio", "Pulumi floor s", "provider MB", "CLI MB"],
    [
      ...rows.map((r) => [
        r.count,
        seconds(r.script.refresh.ms),
        seconds(r.pulumi.refresh.ms),
        ratio(r.pulumi.refresh.ms, r.script.refresh.ms),
        seconds(r.floor.refresh.ms),
        r.pulumi.refresh.providerMb,
        r.pulumi.refresh.cliMb,
      ]),
      ...growthRows(rows, refresh).map((g) => [g[0]!, g[1]!, g[2]!, "", g[4]!, g[5]!, g[6]!]),
    ],
  );
}

export function printScaleReads(r: ScaleReadsResult): void {
  const inFlight = (run: ReadsRun): string =>
    Object.entries(run.maxInFlight)
      .filter(([service]) => !["sts", "iamCredentials", "oauth2"].includes(service))
      .map(([service, n]) => `${service} ${n}`)
      .join(", ");
  const row = (name: string, run: ReadsRun, ratioText: string): Cell[] => [
    name,
    seconds(run.ms),
    ratioText,
    seconds(run.firstRequestMs),
    seconds(run.readPhaseMs),
    ratio(run.readPhaseMs, r.script.readPhaseMs),
    run.mb,
    `${run.stsExchanges} / ${run.accessTokens}`,
    inFlight(run),
    run.rateLimited,
    run.reads,
  ];
  printTable(
    `pulumi preview of ${r.count} data-source reads (five kinds) vs a plain script making the same reads (external_account credentials, ${r.scopeSets} scope sets; a share answered 429 + Retry-After; limit ${r.concurrencyLimit} in flight per service; target <= 1.2x)`,
    [
      "run",
      "s",
      "ratio",
      "first request after s",
      "read phase s",
      "read phase ratio",
      "MB",
      "STS / access tokens",
      "max in flight per service",
      "429s absorbed",
      "reads answered",
    ],
    [
      row("plain script (baseline)", r.script, "1.00x"),
      row("pulumi preview", r.preview, ratio(r.preview.ms, r.script.ms)),
      [`Pulumi's floor: preview of ${r.count} plain outputs`, seconds(r.floorMs), "", "", "", "", "", "", "", "", ""],
      [
        "pulumi preview less the floor (what this package adds)",
        seconds(r.preview.ms - r.floorMs),
        ratio(r.preview.ms - r.floorMs, r.script.ms),
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
      ],
    ],
  );
}

export function printScaleQuota(r: ScaleQuotaResult): void {
  printTable(
    `pulumi up of ${r.count} FirewallPolicyMoves under a quota of ${r.limitPerMinute} compute writes per minute (429 RATE_LIMIT_EXCEEDED; --parallel ${r.parallel}, ${r.moveDurationMs / 1000} s operations) vs the plain script under the same quota`,
    ["run", "s", "ratio", "moves made", "failed", "429s met", "rows showing the pacing status", "quota notices"],
    [
      ["plain script (baseline)", seconds(r.script.ms), "1.00x", r.script.moves, "", r.script.rejections, "", ""],
      [
        "pulumi up",
        seconds(r.pulumi.ms),
        ratio(r.pulumi.ms, r.script.ms),
        r.pulumi.moves,
        r.pulumi.failed,
        r.pulumi.rejections,
        r.pulumi.pacedResources,
        r.pulumi.quotaNotices,
      ],
      [
        `at best (${r.count} writes / ${r.limitPerMinute} per minute)`,
        seconds(((r.count - r.limitPerMinute) / r.limitPerMinute) * 60_000),
        "",
        "",
        "",
        "",
        "",
        "",
      ],
    ],
  );
}
