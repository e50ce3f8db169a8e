/**
 * The baseline of the reads benchmark: a plain Node.js script, run as its own process, that makes the same reads as
 * the preview of the reads program with the same client and the same settings source (the environment: Application
 * Default Credentials, custom endpoints), all of them started at once as the program's data sources are.
 *
 * Usage: node dist/bench/scale-reads-script.js <count> — prints one JSON line {workMs, peakKb, reads}.
 */
import { createGoogleClient, resolveGoogleSettings } from "../provider/google";
import { peakResidentKb } from "./process-sampler";
import { readNumber } from "./scale-reads-calls";

async function main(): Promise<void> {
  const count = Number(process.argv[2] ?? "500");
  const client = createGoogleClient({ settings: resolveGoogleSettings({ env: process.env }) });
  const started = performance.now();
  await Promise.all(Array.from({ length: count }, (_, i) => readNumber(client, i)));
  const result = { workMs: Math.round(performance.now() - started), peakKb: peakResidentKb("self") ?? 0, reads: count };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
