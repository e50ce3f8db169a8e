/**
 * The signatures of the plugin executables: the official Windows Node.js binary's Authenticode signature is removed
 * before injection (it signs other bytes), and the darwin executables are ad-hoc signed after it (macOS kills an
 * unsigned arm64 binary at launch; pulumi-awsx 2.20.1 shipped such binaries). The tools come from the registries:
 * Debian's osslsigncode and crates.io's apple-codesign (rcodesign), each provided by its scripts/ensure-*.sh.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { type Log, runWithProgress } from "./plugin-targets";

const tools = new Map<string, string>();

/** The tool an ensure-*.sh script provides (its path on stdout; its progress on stderr, passed through). */
export function signingTool(script: "ensure-osslsigncode.sh" | "ensure-rcodesign.sh", cacheDir: string): string {
  const known = tools.get(script);
  if (known !== undefined) return known;
  const result = spawnSync("bash", [path.join(__dirname, "..", "..", "..", "scripts", script)], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, OPSLEDGER_CACHE_DIR: cacheDir },
  });
  if (result.status !== 0) throw new Error(`scripts/${script} failed (exit ${String(result.status)}): see above`);
  const tool = result.stdout.toString().trim();
  tools.set(script, tool);
  return tool;
}

/** Writes `to`: the PE `from` without its Authenticode signature. */
export async function windowsUnsign(from: string, to: string, cacheDir: string, log: Log): Promise<void> {
  const tool = signingTool("ensure-osslsigncode.sh", cacheDir);
  await runWithProgress(tool, ["remove-signature", "-in", from, "-out", to], "osslsigncode remove-signature", log);
}

/** Ad-hoc signs the Mach-O `file` in place (no certificate: the signature is the code directory's hashes). */
export async function macosSign(file: string, cacheDir: string, log: Log): Promise<void> {
  const tool = signingTool("ensure-rcodesign.sh", cacheDir);
  await runWithProgress(tool, ["sign", file], "rcodesign sign (ad-hoc)", log);
}
