/**
 * `npm run bench -- plugin-executables`: builds pulumi-resource-opsledger for every platform
 * (scripts/build-plugin-executables.ts) into a temp folder and measures each executable: its size, the size of its
 * folder as a gzip-compressed tar (what a release archive of it weighs, compression level 9 as `tar -czf` writes), and
 * the build's time per target. Nothing is printed here: bench/index.ts prints the rows.
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildPluginExecutables } from "../scripts/build-plugin-executables";

export interface PluginExecutableSize {
  readonly target: string;
  readonly node: string;
  readonly executableBytes: number;
  /** `tar -czf` of the target's folder (the executable and what sits beside it). */
  readonly tarGzBytes: number;
  readonly buildMs: number;
}

export async function benchPluginExecutables(onProgress: (line: string) => void): Promise<PluginExecutableSize[]> {
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-exes-"));
  try {
    const rows: PluginExecutableSize[] = [];
    let started = performance.now();
    const built = await buildPluginExecutables({
      outDir: out,
      log: (line) => {
        onProgress(line);
        // A target's last line: its digest. The time from the previous one is this target's build.
        const done = /^([a-z]+-[a-z0-9]+): .* s, sha256/.exec(line);
        if (done?.[1] !== undefined) {
          rows.push({
            target: done[1],
            node: "",
            executableBytes: 0,
            tarGzBytes: 0,
            buildMs: performance.now() - started,
          });
          started = performance.now();
        }
      },
    });
    return built.map((b) => {
      const archive = path.join(out, `${b.target.name}.tar.gz`);
      execFileSync("tar", ["-I", "gzip -9", "-cf", archive, "-C", b.dir, "."]);
      return {
        target: b.target.name,
        node: `${b.target.node.name}@${b.target.node.version}`,
        executableBytes: fs.statSync(b.executable).size,
        tarGzBytes: fs.statSync(archive).size,
        buildMs: rows.find((r) => r.target === b.target.name)?.buildMs ?? 0,
      };
    });
  } finally {
    fs.rmSync(out, { recursive: true, force: true });
  }
}
