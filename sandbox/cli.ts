/**
 * `npm run sandbox`: the binary face of the sandbox. It starts the Google sandbox and the Fabric gateway on 127.0.0.1,
 * writes an external_account credentials file and a Fabric client identity into a fresh temp directory, prints the
 * service URLs and the `export` lines a shell needs, and runs until SIGINT/SIGTERM (then it closes both servers and
 * deletes the temp directory).
 *
 * Flags (each defaults from an environment variable):
 *   --port <n>               OPSLEDGER_SANDBOX_PORT               default 0 (any free port)
 *   --move-duration-ms <n>   OPSLEDGER_SANDBOX_MOVE_DURATION_MS   default 3000
 *   --help
 *
 * OPSLEDGER_TOOL_PATH (set by scripts/run.sh): the directories of the Node.js and Pulumi CLI the project installed
 * that the user's own PATH lacks; the banner's first `export` line puts them on PATH, so the `pulumi` commands of the
 * examples' READMEs work in the shell that pastes the lines.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DEFAULT_MOVE_DURATION_MS, type GoogleSandboxEndpoints } from "./google";
import { FIXTURE_PROJECT } from "./google/fixture";
import type { FabricSandbox } from "./fabric";
import { startSandbox } from "./start";

export interface CliOptions {
  readonly port: number;
  readonly moveDurationMs: number;
}

export const USAGE = `Usage: npm run sandbox -- [--port <n>] [--move-duration-ms <n>]
  --port <n>              TCP port on 127.0.0.1 (env OPSLEDGER_SANDBOX_PORT, default 0 = any free port)
  --move-duration-ms <n>  how long a firewall policy move runs (env OPSLEDGER_SANDBOX_MOVE_DURATION_MS, default ${DEFAULT_MOVE_DURATION_MS})`;

/** The project Google's client libraries read (google-auth's `default()`, google-auth-library's `getProjectId`). */
export const PROJECT_ENV_NAME = "GOOGLE_CLOUD_PROJECT";

/** The universe Google's client libraries read (google-api-core, googleapis-common, this package's settings). */
export const UNIVERSE_ENV_NAME = "GOOGLE_CLOUD_UNIVERSE_DOMAIN";

/**
 * The universe `npm run sandbox` serves and writes into its credentials file. Not Google's: google-auth for Python
 * looks up a token's Regional Access Boundary at iamcredentials.googleapis.com (a host it does not let be configured)
 * in Google's universe only, and a `.invalid` name never resolves (RFC 6761), so no default host of any client leads
 * off the machine either.
 */
export const SANDBOX_CLI_UNIVERSE_DOMAIN = "opsledger-sandbox.invalid";

/** The environment variables the client reads, and which service root each one gets. */
export const ENDPOINT_ENV_NAMES: readonly (readonly [string, keyof GoogleSandboxEndpoints])[] = [
  ["GOOGLE_IAM_CUSTOM_ENDPOINT", "iam"],
  ["GOOGLE_COMPUTE_CUSTOM_ENDPOINT", "compute"],
  ["GOOGLE_DEPLOYMENT_MANAGER_CUSTOM_ENDPOINT", "deploymentManager"],
  ["GOOGLE_WORKSPACE_EVENTS_CUSTOM_ENDPOINT", "workspaceEvents"],
  ["GOOGLE_DISPLAY_VIDEO_CUSTOM_ENDPOINT", "displayVideo"],
  ["GOOGLE_KMS_CUSTOM_ENDPOINT", "kms"],
  ["GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT", "iamCredentials"],
  ["GOOGLE_OAUTH2_CUSTOM_ENDPOINT", "oauth2"],
];

export class CliUsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliUsageError";
  }
}

function readInteger(name: string, text: string): number {
  if (!/^[0-9]+$/.test(text)) throw new CliUsageError(`${name} must be a non-negative integer, got '${text}'`);
  return Number(text);
}

/** Flags win over the environment; both win over the defaults. Returns undefined for --help. */
export function parseCliArgs(argv: readonly string[], env: NodeJS.ProcessEnv): CliOptions | undefined {
  let port = env["OPSLEDGER_SANDBOX_PORT"];
  let moveDuration = env["OPSLEDGER_SANDBOX_MOVE_DURATION_MS"];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "--help" || arg === "-h") return undefined;
    const [flag, inline] = arg.includes("=") ? (arg.split("=", 2) as [string, string]) : [arg, undefined];
    if (flag !== "--port" && flag !== "--move-duration-ms") throw new CliUsageError(`unknown argument '${arg}'`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new CliUsageError(`${flag} needs a value`);
    if (flag === "--port") port = value;
    else moveDuration = value;
  }
  const portNumber = port === undefined || port === "" ? 0 : readInteger("--port", port);
  if (portNumber > 65535) throw new CliUsageError(`--port must be at most 65535, got ${portNumber}`);
  return {
    port: portNumber,
    moveDurationMs:
      moveDuration === undefined || moveDuration === ""
        ? DEFAULT_MOVE_DURATION_MS
        : readInteger("--move-duration-ms", moveDuration),
  };
}

function shellQuote(value: string): string {
  return /^[A-Za-z0-9_./:@=-]+$/.test(value) ? value : `'${value.replace(/'/g, "'\\''")}'`;
}

/** The `export PATH=...` line for the tools the project installed, when the user's PATH lacks them. */
export function toolPathExport(toolPath: string | undefined): string[] {
  const dirs = (toolPath ?? "").split(":").filter((d) => d !== "");
  if (dirs.length === 0) return [];
  return [
    "# The Node.js and Pulumi CLI this project installed (your PATH lacks them):",
    `export PATH=${dirs.map(shellQuote).join(":")}:"$PATH"`,
  ];
}

/** What the CLI prints once the sandbox is up. `extraExports` follow the Google ones (whole `export` lines). */
export function banner(
  url: string,
  endpoints: GoogleSandboxEndpoints,
  credentialsPath: string,
  extraExports: readonly string[] = [],
  universeDomain: string = SANDBOX_CLI_UNIVERSE_DOMAIN,
): string {
  const width = Math.max(...Object.keys(endpoints).map((k) => k.length));
  const lines = [
    `Google sandbox listening on ${url}`,
    ...Object.entries(endpoints).map(([name, root]) => `  ${name.padEnd(width)}  ${root}`),
    `Control plane (no auth): ${url}/_sandbox/  (health, reset, seed, audit, requests, faults, tokens, ...)`,
    `Credentials file: ${credentialsPath}`,
    `  external_account: subject token -> STS -> impersonates deployer@sandbox-project.iam.gserviceaccount.com`,
    "",
    "# Point a shell at the sandbox:",
    `export GOOGLE_APPLICATION_CREDENTIALS=${shellQuote(credentialsPath)}`,
    // Google's clients ask Resource Manager for a project when none is set: that would carry a sandbox token outside.
    `export ${PROJECT_ENV_NAME}=${FIXTURE_PROJECT}`,
    `export ${UNIVERSE_ENV_NAME}=${shellQuote(universeDomain)}`,
    ...ENDPOINT_ENV_NAMES.map(([name, key]) => `export ${name}=${shellQuote(endpoints[key])}`),
    ...extraExports,
    "",
    "Press Ctrl+C to stop.",
  ];
  return lines.join("\n") + "\n";
}

/** The files fabricBanner writes into the sandbox's directory ($OPSLEDGER_SANDBOX_DIR), by purpose. */
export const FABRIC_FILES = {
  certificate: "fabric-client-cert.pem",
  privateKey: "fabric-client-key.pem",
  /** `{ "<mspId>": "<root CA PEM>" }`: the ledger component's trustedRootCertificates, as JSON. */
  rootCertificates: "fabric-root-cas.json",
  /**
   * `{ "<mspId>": { "certificatePem": "...", "keyFile": "<path>" } }`: each organization's admin (its key in a file of
   * its own beside), as examples/chaincode takes them.
   */
  admins: "fabric-admins.json",
} as const;

/**
 * Writes an Org1 client identity and the organizations' root CAs (one PEM each, and all as JSON) into `dir`, and says
 * where the gateway is.
 */
export async function fabricBanner(fabric: FabricSandbox, dir: string): Promise<string> {
  const mspId = Object.keys(fabric.caCertificates)[0] ?? "Org1MSP";
  const identity = fabric.newClientIdentity(mspId, "sandbox-user");
  const certificate = join(dir, FABRIC_FILES.certificate);
  const key = join(dir, FABRIC_FILES.privateKey);
  await writeFile(certificate, identity.certificatePem);
  await writeFile(key, identity.privateKeyPem, { mode: 0o600 });
  await writeFile(join(dir, FABRIC_FILES.rootCertificates), JSON.stringify(fabric.caCertificates));
  const admins: Record<string, { certificatePem: string; keyFile: string }> = {};
  for (const msp of Object.keys(fabric.caCertificates)) {
    const admin = fabric.newAdminIdentity(msp);
    const keyFile = join(dir, `fabric-admin-${msp}-key.pem`);
    await writeFile(keyFile, admin.privateKeyPem, { mode: 0o600 });
    admins[msp] = { certificatePem: admin.certificatePem, keyFile };
  }
  await writeFile(join(dir, FABRIC_FILES.admins), JSON.stringify(admins));
  const roots: string[] = [];
  for (const [msp, pem] of Object.entries(fabric.caCertificates)) {
    const file = join(dir, `fabric-ca-${msp}.pem`);
    await writeFile(file, pem);
    roots.push(`  ${msp.padEnd(8)}  ${file}`);
  }
  return [
    "",
    `Fabric gateway listening on ${fabric.address} (insecure gRPC; channel ${fabric.channel}, chaincode ${fabric.chaincode})`,
    `  client identity ${mspId}: certificate ${certificate}, private key ${key}`,
    `  each organization's admin (for the chaincode lifecycle): ${join(dir, FABRIC_FILES.admins)}`,
    "  organizations' root CAs (trust these for verify-before-sign):",
    ...roots,
    "",
  ].join("\n");
}

/** Runs the CLI until a signal arrives; resolves to the exit code. */
export async function main(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let options: CliOptions | undefined;
  try {
    options = parseCliArgs(argv, env);
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    process.stderr.write(`opsledger sandbox: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (options === undefined) {
    process.stdout.write(USAGE + "\n");
    return 0;
  }
  // Signal handlers first: a SIGTERM that arrives while the banner is being written must still stop cleanly.
  const stopped = new Promise<NodeJS.Signals>((resolve) => {
    process.once("SIGINT", resolve);
    process.once("SIGTERM", resolve);
  });
  const both = await startSandbox({
    google: {
      port: options.port,
      moveDurationMs: options.moveDurationMs,
      universeDomain: SANDBOX_CLI_UNIVERSE_DOMAIN,
    },
  });
  const sandbox = both.google;
  const dir = await mkdtemp(join(tmpdir(), "opsledger-sandbox-"));
  const credentialsPath = await sandbox.writeCredentialsFile(dir);
  const fabricText = both.fabric ? await fabricBanner(both.fabric, dir) : "";
  // Not `exports`: CommonJS output reads this module's constants through a variable of that name.
  const extraExports = [
    `export OPSLEDGER_SANDBOX_DIR=${shellQuote(dir)}`,
    ...(both.fabric ? [`export OPSLEDGER_FABRIC_GATEWAY=${shellQuote(both.fabric.address)}`] : []),
    ...toolPathExport(env["OPSLEDGER_TOOL_PATH"]),
  ];
  // One write, with "Press Ctrl+C to stop." last: readers may act as soon as they see it.
  process.stdout.write(
    banner(sandbox.url, sandbox.endpoints, credentialsPath, extraExports, sandbox.universeDomain).replace(
      "Press Ctrl+C to stop.\n",
      `${fabricText}Press Ctrl+C to stop.\n`,
    ),
  );
  const signal = await stopped;
  process.stdout.write(`Received ${signal}: stopping the sandbox.\n`);
  await both.close();
  await rm(dir, { recursive: true, force: true });
  return 0;
}

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`opsledger sandbox: ${e instanceof Error ? e.message : String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
