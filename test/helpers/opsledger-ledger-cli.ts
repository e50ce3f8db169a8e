/** `bin/opsledger-ledger` (provider/ledger/cli.ts) run as a user runs it, its JSON answer parsed. */
import { execFile } from "node:child_process";
import * as path from "node:path";

const BIN = path.resolve(__dirname, "..", "..", "..", "bin", "opsledger-ledger.js");

export interface CliRun {
  readonly code: number;
  readonly json: Record<string, unknown>;
}

/** bin/opsledger-ledger as a user runs it. */
export function opsledgerLedger(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      try {
        resolve({ code, json: JSON.parse(stdout) as Record<string, unknown> });
      } catch {
        reject(new Error(`opsledger-ledger ${args.join(" ")} exited ${String(code)}: ${stderr}`));
      }
    });
  });
}
