/**
 * The entry of `pulumi-resource-opsledger` (bin/pulumi-resource-opsledger runs it): serves the ResourceProvider
 * service and prints its port on stdout, the only thing this process may print there before the engine has read it.
 * The engine's address (the first argument) is where provider/runtime/engine-log.ts sends log lines and the
 * resource's row status; the engine watch (engine-watch.ts) ends the process when the engine that started it is gone,
 * and the orphan guard when its output pipes are.
 */
import { packageVersion } from "../assets/package-files";
import { engineAddressOf } from "../runtime/engine-log";
import { exitWhenOutputIsGone } from "../runtime/orphan-guard";
import { exitWhenEngineIsGone } from "./engine-watch";
import { serve } from "./server";

async function main(): Promise<void> {
  exitWhenOutputIsGone();
  exitWhenEngineIsGone(engineAddressOf(process.argv));
  const { port } = await serve(packageVersion());
  process.stdout.write(`${String(port)}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`pulumi-resource-opsledger: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
