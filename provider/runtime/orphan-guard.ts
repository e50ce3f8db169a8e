/**
 * An orphaned provider process exits instead of spinning.
 *
 * When the `pulumi` CLI is killed on its own (kill -9 of the CLI, its terminal closed), the dynamic-provider process
 * stays alive with its stdout and stderr pipes closed. @pulumi/pulumi's dynamic-provider entry point
 * (cmd/dynamic-provider) prints every uncaught error with console.error and keeps it in a Set; on a closed pipe that
 * write fails with EPIPE, which Node emits as an 'error' event on the stream, and with no listener it becomes the next
 * uncaught error: a loop at 100% of a core with an ever-growing Set (docs/decisions/0005-orphan-guard.md). With a
 * listener on both streams, the first EPIPE (or EIO) ends the process: nobody is left to answer, and what it was doing
 * is safe to redo (requestIds and deterministic txIds make the next `pulumi up` exactly-once).
 */

type Exit = (code: number) => void;

const DEAD_PIPE = new Set(["EPIPE", "EIO", "ERR_STREAM_DESTROYED"]);
let installed = false;

/** Exit code of a provider whose output pipes are gone (the CLI that started it is). */
export const ORPHAN_EXIT_CODE = 70;

/** Installs the listeners once per process (further calls do nothing). */
export function exitWhenOutputIsGone(
  streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr],
  exit: Exit = (code) => process.exit(code),
): void {
  if (installed) return;
  installed = true;
  for (const stream of streams) {
    stream.on("error", (error: NodeJS.ErrnoException) => {
      if (DEAD_PIPE.has(error.code ?? "")) exit(ORPHAN_EXIT_CODE);
      else throw error; // as without a listener
    });
  }
}
