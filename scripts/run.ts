/**
 * The tasks behind the README's commands, once scripts/run.sh has provided Node >= 22 first on PATH, installed the
 * locked npm dependencies and compiled the TypeScript: `node dist/scripts/run.js <task> [args]`. It
 *   - removes what tsc compiled from a source that is gone (tsc never deletes it: a removed test would still run);
 *   - provides the Pulumi CLI at the version of @pulumi/pulumi (scripts/ensure-pulumi.sh) where the task needs it;
 *   - provides SoftHSM2 (scripts/ensure-softhsm.sh) for the tests and benchmarks that sign through PKCS#11;
 *   - runs the task: build, build:plugin (scripts/build-plugin-executables.ts), lint, test (scripts/run-tests.ts), demo,
 *     record-upgrade-fixtures, bench, fuzz, sandbox, fabric:up, fabric:down, release (scripts/release.ts).
 * Caches live outside the work tree, in the folder scripts/lib/cache-dir.sh names (default ~/.cache/pulumi-opsledger).
 */
import {
  lintExamples,
  lintRest,
  log,
  pruneDist,
  pulumiEnv,
  requirePkcs11js,
  run,
  softhsmEnv,
  TaskFailed,
  toolPath,
} from "./lib/run-steps";
import { runTests } from "./run-tests";

const TASKS = [
  "build",
  "build:plugin",
  "lint",
  "test",
  "demo",
  "record-upgrade-fixtures",
  "bench",
  "fuzz",
  "sandbox",
  "fabric:up",
  "fabric:down",
  "release",
] as const;
type Task = (typeof TASKS)[number];

function isTask(name: string): name is Task {
  return (TASKS as readonly string[]).includes(name);
}

/** Runs `task` (the build is done); resolves to the exit code. */
async function main(task: string, args: readonly string[]): Promise<number> {
  if (!isTask(task)) {
    log(`unknown task '${task}' (${TASKS.join(", ")})`);
    return 2;
  }
  pruneDist();
  const node = (script: string, extra: readonly string[] = []): void => {
    run(process.execPath, [script, ...extra, ...args]);
  };
  switch (task) {
    case "build":
      return 0;
    // The plugin as one executable per platform: `npm run build:plugin -- --out <dir> [--target linux-amd64,...]`.
    case "build:plugin":
      node("dist/scripts/build-plugin-executables.js");
      return 0;
    case "lint":
      lintExamples();
      return lintRest();
    case "test":
      return runTests(args);
    case "demo":
      pulumiEnv();
      node("dist/scripts/demo.js");
      return 0;
    // Once per release, before its version changes: test/fixtures/upgrade/<version>/ (scripts/record-upgrade-fixtures.ts).
    case "record-upgrade-fixtures":
      pulumiEnv();
      node("dist/scripts/record-upgrade-fixtures.js");
      return 0;
    case "bench":
      pulumiEnv();
      requirePkcs11js();
      softhsmEnv();
      node("dist/bench/index.js");
      return 0;
    // Coverage-guided fuzzing of the decoders (fuzz/index.ts): a benchmark-style run, never part of `npm test`.
    case "fuzz":
      node("dist/fuzz/index.js");
      return 0;
    case "sandbox":
      toolPath();
      node("dist/sandbox/cli.js");
      return 0;
    case "fabric:up":
      node("dist/sandbox/fabric-network/cli.js", ["up"]);
      return 0;
    case "fabric:down":
      node("dist/sandbox/fabric-network/cli.js", ["down"]);
      return 0;
    // Every artifact of the version into one folder (scripts/release.ts); the Pulumi CLI generates nothing here.
    case "release":
      node("dist/scripts/release.js");
      return 0;
  }
}

if (require.main === module) {
  // Ctrl+C reaches the command that has the terminal too (same process group): it ends, and its exit code ends this
  // one, after what follows it (mocha's summary) was printed.
  process.on("SIGINT", () => undefined);
  const [task = "test", ...args] = process.argv.slice(2);
  main(task, args).then(
    (code) => process.exit(code),
    (e: unknown) => {
      if (e instanceof TaskFailed) process.exit(e.code);
      throw e;
    },
  );
}
