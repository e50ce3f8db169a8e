/**
 * `npm run fabric:up` and `npm run fabric:down`: the binary face of the real Fabric network.
 *
 *   fabric:up   [--fabric <2.5.16|3.1.5>] [--dir <folder>]   starts a network that keeps running after the command
 *               [--key-types org1=ed25519,org2=ecdsa-p384]     returns, and prints its connection settings
 *               [--client-auth]                                (peers that require client TLS certificates)
 *               [--consensus raft|bft]                         (three Raft orderers, or four SmartBFT: 3.1.5 only)
 *   fabric:down [--dir <folder>]                              stops exactly the processes network.json records
 *                                                              (each one's command line checked first) and removes
 *                                                              the folder
 *
 * Flags default from OPSLEDGER_FABRIC_VERSION, OPSLEDGER_FABRIC_KEY_TYPES, OPSLEDGER_FABRIC_CLIENT_AUTH (1 or true),
 * OPSLEDGER_FABRIC_CONSENSUS and OPSLEDGER_FABRIC_DIR; the folder defaults to
 * `<OS temp dir>/opsledger-fabric`, so a plain `fabric:down` finds what a plain `fabric:up` started.
 */
import { tmpdir } from "node:os";
import { join } from "node:path";
import { networkBanner } from "./banner";
import { isFabricVersion } from "./fabric-home";
import { stopNetwork } from "./network-file";
import { PEER_ORGS } from "./topology";
import { startFabricNetwork } from "./start";
import {
  DEFAULT_FABRIC_VERSION,
  FABRIC_KEY_TYPES,
  FABRIC_VERSIONS,
  type FabricConsensus,
  type FabricKeyType,
  type FabricVersion,
} from "./types";

export const DEFAULT_CLI_DIR = join(tmpdir(), "opsledger-fabric");

export const FABRIC_USAGE = `Usage: npm run fabric:up -- [--fabric <version>] [--consensus raft|bft] [--key-types <org>=<type>,...]
                             [--client-auth] [--dir <folder>]
       npm run fabric:down -- [--dir <folder>]
  --fabric <version>  ${FABRIC_VERSIONS.join(" or ")} (env OPSLEDGER_FABRIC_VERSION, default ${DEFAULT_FABRIC_VERSION})
  --consensus <kind>  raft (three etcdraft orderers) or bft (four SmartBFT orderers, tolerating one fault; needs
                      --fabric 3.1.5) (env OPSLEDGER_FABRIC_CONSENSUS, default raft)
  --key-types <list>  the identities' key type per organization, e.g. org1=ed25519,org2=ecdsa-p384 (env
                      OPSLEDGER_FABRIC_KEY_TYPES; types ${FABRIC_KEY_TYPES.join(", ")}; ed25519 needs 3.1.5;
                      default ecdsa-p256 for every organization)
  --client-auth       peers require client TLS certificates (mutual TLS; env OPSLEDGER_FABRIC_CLIENT_AUTH=1)
  --dir <folder>      state and logs (env OPSLEDGER_FABRIC_DIR, default ${DEFAULT_CLI_DIR})`;

/** --consensus values (any case) and the consensus they mean. */
const CLI_CONSENSUS: Readonly<Record<string, FabricConsensus>> = { raft: "etcdraft", etcdraft: "etcdraft", bft: "BFT" };

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
  /** The key type by MSP id of the organizations --key-types names (up only). */
  readonly keyTypes: Readonly<Record<string, FabricKeyType>>;
  /** --client-auth: the peers require client TLS certificates (up only). */
  readonly clientAuth: boolean;
  /** --consensus (up only). */
  readonly consensus: FabricConsensus;
}

/**
 * --key-types: "org1=ed25519,org2=ecdsa-p384". An organization is named by its cryptogen name or MSP id, in any case
 * ("org1", "Org1", "Org1MSP").
 */
export function parseKeyTypes(list: string): Record<string, FabricKeyType> {
  const result: Record<string, FabricKeyType> = {};
  for (const entry of list.split(",").filter((e) => e.trim() !== "")) {
    const [name = "", type = ""] = entry.split("=", 2).map((p) => p.trim());
    const org = PEER_ORGS.find((o) => [o.name, o.mspId].some((n) => n.toLowerCase() === name.toLowerCase()));
    if (org === undefined)
      throw new FabricCliUsageError(
        `--key-types: '${name}' is not an organization; use ${PEER_ORGS.map((o) => o.name.toLowerCase()).join(" or ")}`,
      );
    if (!(FABRIC_KEY_TYPES as readonly string[]).includes(type))
      throw new FabricCliUsageError(
        `--key-types: '${type}' is not a key type (for ${name}); use ${FABRIC_KEY_TYPES.join(", ")}, as in org1=ed25519`,
      );
    result[org.mspId] = type as FabricKeyType;
  }
  return result;
}

/** Flags win over the environment; both win over the defaults. Returns undefined for --help. */
export function parseFabricCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): FabricCliOptions | undefined {
  const [command, ...rest] = argv;
  if (command === "--help" || command === "-h") return undefined;
  if (command !== "up" && command !== "down")
    throw new FabricCliUsageError(`the command must be up or down, got '${String(command)}'`);
  let version = env["OPSLEDGER_FABRIC_VERSION"] ?? "";
  let dir = env["OPSLEDGER_FABRIC_DIR"] ?? "";
  let keyTypes = env["OPSLEDGER_FABRIC_KEY_TYPES"] ?? "";
  let consensus = env["OPSLEDGER_FABRIC_CONSENSUS"] ?? "";
  let clientAuth = ["1", "true"].includes((env["OPSLEDGER_FABRIC_CLIENT_AUTH"] ?? "").toLowerCase());
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    if (arg === "--help" || arg === "-h") return undefined;
    if (arg === "--client-auth") {
      if (command === "down") throw new FabricCliUsageError(`${arg} applies to fabric:up only`);
      clientAuth = true;
      continue;
    }
    const [flag, inline] = arg.includes("=") ? (arg.split("=", 2) as [string, string]) : [arg, undefined];
    if (flag !== "--fabric" && flag !== "--dir" && flag !== "--key-types" && flag !== "--consensus")
      throw new FabricCliUsageError(`unknown argument '${arg}'`);
    if (flag !== "--dir" && command === "down") throw new FabricCliUsageError(`${flag} applies to fabric:up only`);
    const value = inline ?? rest[++i];
    if (value === undefined || value === "") throw new FabricCliUsageError(`${flag} needs a value`);
    if (flag === "--fabric") version = value;
    else if (flag === "--key-types") keyTypes = value;
    else if (flag === "--consensus") consensus = value;
    else dir = value;
  }
  if (version === "") version = DEFAULT_FABRIC_VERSION;
  if (!isFabricVersion(version))
    throw new FabricCliUsageError(`--fabric must be ${FABRIC_VERSIONS.join(" or ")}, got '${version}'`);
  const types = command === "up" ? parseKeyTypes(keyTypes) : {};
  if (version.startsWith("2.") && Object.values(types).includes("ed25519"))
    throw new FabricCliUsageError(`--key-types: ed25519 needs --fabric 3.1.5 (Fabric ${version} has no V3_0 channels)`);
  const kind = CLI_CONSENSUS[consensus.toLowerCase() === "" ? "raft" : consensus.toLowerCase()];
  if (kind === undefined) throw new FabricCliUsageError(`--consensus must be raft or bft, got '${consensus}'`);
  if (command === "up" && kind === "BFT" && version.startsWith("2."))
    throw new FabricCliUsageError(
      `--consensus bft needs --fabric 3.1.5 (SmartBFT and channel capability V3_0 are Fabric 3.x); Fabric ${version} has Raft only`,
    );
  return {
    command,
    version,
    consensus: command === "up" ? kind : "etcdraft",
    dir: dir === "" ? DEFAULT_CLI_DIR : dir,
    keyTypes: types,
    clientAuth: command === "up" && clientAuth,
  };
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
    keyTypes: options.keyTypes,
    clientAuth: options.clientAuth,
    consensus: options.consensus,
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
