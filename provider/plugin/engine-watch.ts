/**
 * The plugin exits once the engine that started it is gone, as Pulumi's own Go plugins do (they health-check the
 * engine, pulumi/pulumi#9735). The dynamic provider's orphan guard (provider/runtime/orphan-guard.ts) fires at the
 * first write to closed pipes; an orphaned plugin writes nothing there (its log lines and progress go to the engine
 * over gRPC), so after a kill -9 of the CLI alone it stayed alive, idle, for as long as the machine ran. This watch
 * asks the engine's address every few seconds; when nothing listens there any more, the process exits with the orphan
 * guard's code. What it was doing is safe to redo (requestIds and deterministic txIds make the next `pulumi up`
 * exactly-once).
 */
import * as grpc from "@grpc/grpc-js";
import { ORPHAN_EXIT_CODE } from "../runtime/orphan-guard";

/** How long after one check of the engine the next starts. */
export const DEFAULT_ENGINE_CHECK_INTERVAL_MS = 5_000;

/** How long one check may wait for the engine's answer before it counts as an answer (a busy engine is alive). */
export const DEFAULT_ENGINE_CHECK_TIMEOUT_MS = 5_000;

export interface EngineWatchOptions {
  /** @default DEFAULT_ENGINE_CHECK_INTERVAL_MS */
  readonly intervalMs?: number;
  /** Whether the engine at the address still listens. @default engineListens */
  readonly check?: (address: string) => Promise<boolean>;
  /** Runs `fn` after `ms` (tests record the delays); the handle must not keep the process alive. */
  readonly schedule?: (fn: () => void, ms: number) => void;
  /** @default process.exit */
  readonly exit?: (code: number) => void;
}

/**
 * Whether a gRPC server listens at `address` (`host:port`): any answer to a health check counts, UNIMPLEMENTED and
 * a deadline too; only UNAVAILABLE (nothing accepts the connection) means the engine is gone.
 */
export function engineListens(address: string, timeoutMs: number = DEFAULT_ENGINE_CHECK_TIMEOUT_MS): Promise<boolean> {
  const target = address.startsWith(":") ? `127.0.0.1${address}` : address;
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      "/grpc.health.v1.Health/Check",
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0), // HealthCheckRequest { service: "" }: the server as a whole
      { deadline: Date.now() + timeoutMs },
      (error) => {
        client.close();
        resolve(error?.code !== grpc.status.UNAVAILABLE);
      },
    );
  });
}

/** Checks the engine at `address` every interval and exits (ORPHAN_EXIT_CODE) once it no longer listens. */
export function exitWhenEngineIsGone(address: string | undefined, options: EngineWatchOptions = {}): void {
  if (address === undefined) return; // not started by an engine (a test calling the service directly)
  const intervalMs = options.intervalMs ?? DEFAULT_ENGINE_CHECK_INTERVAL_MS;
  const check = options.check ?? ((a: string) => engineListens(a));
  const exit = options.exit ?? ((code: number) => process.exit(code));
  const schedule =
    options.schedule ??
    ((fn: () => void, ms: number) => {
      setTimeout(fn, ms).unref();
    });
  const next = (): void => {
    schedule(() => {
      void check(address).then((listens) => {
        if (listens) next();
        else exit(ORPHAN_EXIT_CODE);
      });
    }, intervalMs);
  };
  next();
}
