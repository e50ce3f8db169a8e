/**
 * The release folder the install tests install from: `OPSLEDGER_RELEASE_DIR` when set (the tag's workflow tests the
 * folder it publishes), else one `npm run release` for linux-amd64, made once for the sources it was built from and
 * shared by every install test of the run (and later runs on the same sources) from the project's cache; its
 * executable is the one the plugin tests run (plugin-builds.ts), not a second build.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { cacheDir } from "../../scripts/lib/run-steps";
import { pluginExecutableDir } from "./plugin-builds";
import { REPO_ROOT } from "./project-stack";

/** Release folders of other sources older than this are removed when a new one is built. */
const STALE_MS = 24 * 3600 * 1000;

/** What a release is built from: a change to any of these makes another folder. */
const SOURCES = ["package.json", "bin", "provider", "sdk", "scripts"];

function digestOf(paths: readonly string[]): string {
  const hash = createHash("sha256");
  const walk = (rel: string): void => {
    const abs = path.join(REPO_ROOT, rel);
    if (statSync(abs).isDirectory()) {
      for (const entry of readdirSync(abs).sort()) {
        if (entry === "__pycache__" || entry === "build" || entry.endsWith(".egg-info")) continue;
        walk(path.join(rel, entry));
      }
    } else {
      hash.update(`${rel}\0`).update(readFileSync(abs)).update("\0");
    }
  };
  for (const p of paths) walk(p);
  return hash.digest("hex").slice(0, 16);
}

let pending: Promise<string> | undefined;

/** The release folder's path, built first if needed (minutes, once; a second caller waits for the first's build). */
export function releaseFolder(): Promise<string> {
  const given = process.env["OPSLEDGER_RELEASE_DIR"];
  if (given !== undefined && given !== "") return Promise.resolve(path.resolve(given));
  pending ??= (async () => {
    const root = path.join(cacheDir(), "release-tests");
    const key = digestOf(SOURCES);
    const dir = path.join(root, key);
    if (existsSync(path.join(dir, ".complete"))) return dir;
    // Folders of other sources a day old go (other checkouts share the cache); the Node.js toolchains stay.
    if (existsSync(root)) {
      for (const other of readdirSync(root)) {
        const p = path.join(root, other);
        if (/^[0-9a-f]{16}$/.test(other) && other !== key && Date.now() - statSync(p).mtimeMs > STALE_MS) {
          rmSync(p, { recursive: true, force: true });
        }
      }
    }
    const plugins = path.dirname(await pluginExecutableDir("linux-amd64"));
    // flock: one build per folder across the run's workers; the lock goes with a builder that dies.
    mkdirSync(root, { recursive: true });
    const script = [
      "set -e",
      'exec 9>"$1.lock"',
      "flock 9",
      '[ -f "$1/.complete" ] && exit 0',
      'rm -rf "$1" "$1.tmp"',
      'node dist/scripts/release.js --out "$1.tmp" --plugins "$2" >&2',
      'mv "$1.tmp" "$1" && touch "$1/.complete"',
    ].join("\n");
    await promisify(execFile)("bash", ["-c", script, "release-folder", dir, plugins], {
      cwd: REPO_ROOT,
      maxBuffer: 64 << 20,
    });
    return dir;
  })();
  return pending;
}
