/**
 * Where the Pulumi CLI that scripts/run.sh installed is (scripts/ensure-pulumi.sh), and the check that it can run
 * programs in their project directories (its Node.js language host is there).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The directory holding `pulumi` (set by scripts/run.sh), else a `pulumi` on PATH. */
export function pulumiBinDir(): string {
  const fromEnv = process.env["OPSLEDGER_PULUMI_BIN"];
  if (fromEnv) return fromEnv;
  for (const dir of (process.env["PATH"] ?? "").split(path.delimiter)) {
    if (dir && fs.existsSync(path.join(dir, "pulumi"))) return dir;
  }
  throw new Error(
    "no Pulumi CLI: run through `npm test` / `npm run demo`, which install it (scripts/ensure-pulumi.sh)",
  );
}

/** Fails, naming what is missing, unless the CLI has the Node.js language host beside it or on PATH. */
export function requireLanguageHost(binDir: string): void {
  const onPath = (process.env["PATH"] ?? "")
    .split(path.delimiter)
    .some((d) => d !== "" && fs.existsSync(path.join(d, "pulumi-language-nodejs")));
  if (fs.existsSync(path.join(binDir, "pulumi-language-nodejs")) || onPath) return;
  throw new Error(
    `the Pulumi CLI in ${binDir} has no Node.js language host (pulumi-language-nodejs), so programs cannot run in ` +
      "their project directories; it was built from Go modules because no release archive was reachable: set " +
      "OPSLEDGER_RELEASE_MIRROR to a folder holding the official archive and its SHA256SUMS (scripts/ensure-pulumi.sh)",
  );
}
