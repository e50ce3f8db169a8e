/** Prints benchmark rows as an aligned text table. */
export type Cell = string | number;

export function formatCell(value: Cell): string {
  if (typeof value === "string") return value;
  if (Number.isInteger(value)) return String(value);
  return Math.abs(value) >= 100 ? value.toFixed(0) : value.toFixed(2);
}

export function printTable(title: string, headers: readonly string[], rows: readonly (readonly Cell[])[]): void {
  const cells = [headers.map(String), ...rows.map((r) => r.map(formatCell))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  const line = (r: readonly string[]): string => r.map((c, i) => c.padEnd(widths[i] ?? 0)).join("  ");
  process.stdout.write(`\n${title}\n${line(cells[0] ?? [])}\n${widths.map((w) => "-".repeat(w)).join("  ")}\n`);
  for (const r of cells.slice(1)) process.stdout.write(`${line(r)}\n`);
}

/** `x` relative to the baseline, formatted "1.23x". */
export function ratio(x: number, baseline: number): string {
  return baseline > 0 ? `${(x / baseline).toFixed(2)}x` : "n/a";
}
