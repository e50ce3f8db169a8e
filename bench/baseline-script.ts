/**
 * The plain scripts the scale benchmarks compare Pulumi with run as processes of their own (bench/*-script.ts), so
 * each side pays its own start-up: this runs one and reads the JSON line it prints last.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";

/** Runs the compiled `script` (a file beside this one) with `args`; resolves with its wall time and last JSON line. */
export async function runBaselineScript(
  script: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): Promise<{ ms: number; result: unknown }> {
  const started = performance.now();
  const child = spawn(process.execPath, [path.join(__dirname, script), ...args], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (err += s));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  const ms = Math.round(performance.now() - started);
  if (code !== 0) throw new Error(`the baseline script ${script} ${args.join(" ")} failed: ${err}`);
  return { ms, result: JSON.parse(out.trim().split("\n").pop() ?? "{}") };
}
