/**
 * `npm run fabric:up` and `npm run fabric:down`: the binary face of the real Fabric network.
 *
 *   fabric:up   [--fabric <2.5.16|3.1.5>] [--dir <folder>]   starts a network that keeps running after the command
 *                                                              returns, and prints its connection settings
 *   fabric:down [--dir <folder>]                              stops exactly the processes network.json records
 *                                                              (each one's command line checked first) and removes
 *                                                              the folder
 *
 * Flags default from OPSLEDGER_FABRIC_VERSION and OPSLEDGER_FABRIC_DIR; the folder defaults to
 * `<OS temp dir>/opsledger-fabric`, so a plain `fabric:down` finds what a plain `fabric:up` started.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { networkBanner } from "./banner";
import { isFabricVersion } from "./fabric-home";
import { stopNetwork } from "./network-file";
import { startFabricNetwork } from "./start";
import { DEFAULT_FABRIC_VERSION, FABRIC_VERSIONS, type FabricVersion } from "./types";

export const DEFAULT_CLI_DIR = join(tmpdir(), "opsledger-fabric");

export const FABRIC_USAGE = `Usage: npm run fabric:up -- [--fabric <version>] [--dir <folder>]
       npm run fabric:down -- [--dir <folder>]
  --fabric <version>  ${FABRIC_VERSIONS.join(" or ")} (env OPSLEDGER_FABRIC_VERSION, default ${DEFAULT_FABRIC_VERSION})
  --dir <folder>      state and logs (env OPSLEDGER_FABRIC_DIR, default ${DEFAULT_CLI_DIR})`;

export class FabricCliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FabricCliUsageError";
  }
}

export interface FabricCliOptions {
  readonly command: "up" | "down";
  readonly version: FabricVersion;
  readonly dir: string;
}

/** Flags win over the environment; both win over the defaults. Returns undefined for --help. */
export function parseFabricCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): FabricCliOptions | undefined {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") return undefined;
  if (command !== "up" && command !== "down")
    throw new FabricCliUsageError(`the command must be up or down, got '${String(command)}'`);
  let version = env["OPSLEDGER_FABRIC_VERSION"] ?? "";
  let dir = env["OPSLEDGER_FABRIC_DIR"] ?? "";
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--help" || arg === "-h") return undefined;
    const [flag, inline] = arg.includes("=") ? (arg.split("=", 2) as [string, string]) : [arg, undefined];
    if (flag !== "--fabric" && flag !== "--dir") throw new FabricCliUsageError(`unknown argument '${arg}'`);
    if (flag === "--fabric" && command === "down") throw new FabricCliUsageError("--fabric applies to fabric:up only");
    const value = inline ?? rest[++i];
    if (value === undefined || value === "") throw new FabricCliUsageError(`${flag} needs a value`);
    if (flag === "--fabric") version = value;
    else dir = value;
  }
  if (version === "") version = DEFAULT_FABRIC_VERSION;
  if (!isFabricVersion(version))
    throw new FabricCliUsageError(`--fabric must be ${FABRIC_VERSIONS.join(" or ")}, got '${version}'`);
  return { command, version, dir: dir === "" ? DEFAULT_CLI_DIR : dir };
}

export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: FabricCliOptions | undefined;
  try {
    options = parseFabricCliArgs(argv, env);
  } catch (e) {
    if (!(e instanceof FabricCliUsageError)) throw e;
    process.stderr.write(`opsledger fabric: ${e.message}\n${FABRIC_USAGE}\n`);
    return 2;
  }
  if (options === undefined) {
    process.stdout.write(FABRIC_USAGE + "\n");
    return 0;
  }
  if (options.command === "down") {
    let result;
    try {
      result = await stopNetwork(options.dir);
    } catch (e) {
      process.stderr.write(
        `opsledger fabric: no network to stop in ${options.dir}: ${e instanceof Error ? e.message : String(e)}\n`,
      );
      return 1;
    }
    for (const [name, outcome] of Object.entries(result.processes)) process.stdout.write(`${name}: ${outcome}\n`);
    process.stdout.write(result.removed ? `removed ${options.dir}\n` : `kept ${options.dir}\n`);
    return 0;
  }
  const started = Date.now();
  const network = await startFabricNetwork({
    version: options.version,
    dir: options.dir,
    persistent: true,
    log: (line) => process.stderr.write(`[opsledger:fabric] ${line}\n`),
  });
  process.stderr.write(`[opsledger:fabric] up in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(networkBanner(network));
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`opsledger fabric: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
