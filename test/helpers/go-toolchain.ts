/**
 * Go for the e2e tests of Go programs: the toolchain scripts/ensure-go.sh provides (the machine's when new enough, else
 * the official one from the Go module proxy, cached), and a first build of a program that fills Go's build cache
 * before the tests that time out on a CLI command. The Pulumi CLI's Go language host (pulumi-language-go 3.259.0) runs
 * `go build -buildvcs=false -o <tmp> -trimpath -ldflags "-w -s"` in the project directory on every command; a cold
 * build compiles github.com/pulumi/pulumi/sdk/v3 and its dependencies. Go's build cache keys each package by its
 * flags: only a build with the host's flags (`-trimpath` above all) leaves the host nothing to compile.
 */
import { execFileSync, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./project-stack";

/** util-linux's flock(1), on every Debian and Ubuntu machine. */
const FLOCK = "/usr/bin/flock";

let cached: string | undefined;

/** The bin directory of a Go new enough for sdk/go (scripts/ensure-go.sh; its progress goes to this stderr). */
export function goBinDir(): string {
  cached ??= execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-go.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  return cached;
}

/** The flags of the Go language host's `go build` (its `-o` aside). */
export const LANGUAGE_HOST_BUILD_FLAGS = ["-buildvcs=false", "-trimpath", "-ldflags", "-w -s"] as const;

/**
 * Runs `go build` of the program in `projectDir` as the language host does, under `env` (Go's module and build caches
 * are where `env` says, else Go's defaults under $HOME), into a temp file removed afterwards; rejects with Go's output
 * when it fails.
 *
 * Builds into one build cache run one at a time across processes (`flock` on a lock file named after the cache, which
 * the kernel releases when the holder exits, however it exits): Go does not share a compile in progress between
 * processes, so two test files warming one cold cache at once (plugin-examples' Go `before` and example-readmes' Go block)
 * would compile the Pulumi Go SDK twice; the second waits, then finds it compiled. Without `flock`, no lock.
 */
export async function goBuild(projectDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-go-build-"));
  const cacheKey = createHash("sha256")
    .update(env["GOCACHE"] || goCaches().GOCACHE)
    .digest("hex")
    .slice(0, 16);
  const lock = path.join(os.tmpdir(), `opsledger-go-build-${cacheKey}.lock`);
  const build = [path.join(goBinDir(), "go"), "build", ...LANGUAGE_HOST_BUILD_FLAGS, "-o", path.join(dir, "program")];
  const [command = "", ...args] = fs.existsSync(FLOCK) ? [FLOCK, lock, ...build, "."] : [...build, "."];
  try {
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(command, args, { cwd: projectDir, env, stdio: ["ignore", "pipe", "pipe"] });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.on("error", reject);
      child.on("close", (exitCode) => {
        resolve({ code: exitCode, output: out });
      });
    });
    if (code !== 0) throw new Error(`go build in ${projectDir} exited with ${String(code)}:\n${output}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Go's module and build caches as this process's Go uses them (GOMODCACHE and GOCACHE when set, else Go's defaults
 * under $HOME): for a shell with another HOME that should build against the same caches.
 */
export function goCaches(): { GOMODCACHE: string; GOCACHE: string } {
  const gopath = (process.env["GOPATH"] ?? "").split(path.delimiter)[0] || path.join(os.homedir(), "go");
  const userCache = process.env["XDG_CACHE_HOME"] || path.join(os.homedir(), ".cache");
  return {
    GOMODCACHE: process.env["GOMODCACHE"] || path.join(gopath, "pkg", "mod"),
    GOCACHE: process.env["GOCACHE"] || path.join(userCache, "go-build"),
  };
}
