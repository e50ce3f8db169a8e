/**
 * `npm run bench -- chaincode`: the deploy of one chaincode-as-a-service on two organizations of a real Fabric network
 * (sandbox/fabric-network, started here) by `pulumi up` of examples/chaincode (the plain CLI, a fresh stack and
 * chaincode name each run: both packages, both installations, both approvals, the commit, each step exactly once and
 * awaited on every organization's peer), against the peer CLI script doing the same as each organization's admin
 * (install on each peer, approveformyorg by each, commit, querycommitted on each peer until both have it: what
 * sandbox/fabric-network/deploy-chaincode.ts runs for the network's own chaincode). Runs alternate which side goes
 * first; the median of each side counts. Target: pulumi up <= 1.5x the script. Beside them, Pulumi's floor for the
 * same shape: `pulumi up` of as many dynamic resources whose provider does nothing (bench/generated-project.ts `noop`),
 * on a fresh stack, the same way — what any provider's deploy of seven resources costs before it sends anything.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { buildCcaasPackage } from "../provider/ledger/lifecycle/chaincode-package";
import { startFabricNetwork, type FabricNetwork, type FabricVersion } from "../sandbox/fabric-network";
import { AdminTools } from "../sandbox/fabric-network/admin-tools";
import type { PeerAdmin } from "../sandbox/fabric-network/admin-tools";
import { readNetworkFile } from "../sandbox/fabric-network/network-file";
import { REPO_ROOT, initProjectStack } from "../scripts/lib/pulumi-cli";
import { writeBenchProject } from "./generated-project";

export interface ChaincodeDeployBenchOptions {
  readonly version?: FabricVersion;
  /** Runs of each side. @default 3 */
  readonly runs?: number;
}

export interface ChaincodeDeployBenchResult {
  readonly version: string;
  /** Wall time of `pulumi up` of examples/chaincode, per run. */
  readonly pulumiUpMs: readonly number[];
  /** Wall time of the peer CLI script, per run. */
  readonly scriptMs: readonly number[];
  /** Wall time of the same stack's next `pulumi up`, which sends nothing: the engine, the program and the checks' reads. */
  readonly unchangedUpMs: readonly number[];
  /** Wall time of `pulumi up` of RESOURCES no-op dynamic resources on a fresh stack, per run: Pulumi's floor. */
  readonly floorUpMs: readonly number[];
  /** How many resources examples/chaincode declares here (and the floor declares). */
  readonly resources: number;
}

/**
 * examples/chaincode's resources for two organizations, committing, no transaction: 2 packages, 2 installations, 2
 * approvals, 1 definition.
 */
const RESOURCES = 7;

const ORGS = ["Org1MSP", "Org2MSP"] as const;
const POLICY = "AND('Org1MSP.peer','Org2MSP.peer')";
/** Never dialled: nothing invokes the chaincode, and a ccaas install only stores the address. */
const CONNECTION = { address: "127.0.0.1:9999" };

const newName = (prefix: string): string => `${prefix}${crypto.randomBytes(4).toString("hex")}`;

/** The peer CLI as each organization's admin, and the orderer's flags, from the network's description. */
function peerCli(network: FabricNetwork): {
  readonly run: (mspId: string, args: readonly string[]) => Promise<string>;
  readonly admin: (mspId: string) => PeerAdmin;
  readonly ordererArgs: readonly string[];
} {
  const description = readNetworkFile(network.networkFile);
  const tools = new AdminTools(description.fabricHome);
  const admin = (mspId: string): PeerAdmin => {
    const org = network.organization(mspId);
    const peer = description.processes.find((p) => p.role === "peer" && p.mspId === mspId);
    if (peer === undefined) throw new Error(`no peer of ${mspId} in ${network.networkFile}`);
    return {
      mspId,
      mspDir: org.admin.mspDir,
      peerAddress: org.gatewayAddress,
      peerTlsCa: org.tlsRootCertPath,
      configDir: peer.cwd,
      tls: { cert: org.admin.tlsCertificatePath, key: org.admin.tlsPrivateKeyPath },
    };
  };
  const orderer = description.orderers[0];
  if (orderer === undefined) throw new Error(`no orderer in ${network.networkFile}`);
  return {
    run: (mspId, args) => tools.peer(args, admin(mspId)),
    admin,
    ordererArgs: [
      ...["-o", orderer.address, "--tls", "--cafile", description.ordererTlsRootCertPath],
      ...["--ordererTLSHostnameOverride", orderer.tlsServerName],
    ],
  };
}

/** The peer CLI script: install, approve (both organizations at once), commit, querycommitted on both peers. */
async function scriptOnce(network: FabricNetwork, dir: string): Promise<number> {
  const cli = peerCli(network);
  const name = newName("bs");
  const pkg = buildCcaasPackage({ label: `${name}_1`, connection: CONNECTION });
  const file = path.join(dir, `${name}.tar.gz`);
  fs.writeFileSync(file, pkg.bytes);
  const definition = ["-C", network.channel, "-n", name, "-v", "1.0", "--sequence", "1", "--signature-policy", POLICY];
  const started = performance.now();
  await Promise.all(ORGS.map((o) => cli.run(o, ["lifecycle", "chaincode", "install", file])));
  await Promise.all(
    ORGS.map((o) =>
      cli.run(o, [
        ...["lifecycle", "chaincode", "approveformyorg", ...cli.ordererArgs, ...definition],
        ...["--package-id", pkg.packageId],
      ]),
    ),
  );
  const peers = ORGS.flatMap((o) => [
    "--peerAddresses",
    cli.admin(o).peerAddress,
    "--tlsRootCertFiles",
    cli.admin(o).peerTlsCa,
  ]);
  await cli.run("Org1MSP", ["lifecycle", "chaincode", "commit", ...cli.ordererArgs, ...definition, ...peers]);
  await Promise.all(
    ORGS.map(async (o) => {
      for (;;) {
        const out = await cli
          .run(o, ["lifecycle", "chaincode", "querycommitted", "-C", network.channel, "-n", name])
          .catch(() => "");
        if (out.includes("Sequence: 1")) return;
      }
    }),
  );
  return performance.now() - started;
}

/**
 * `pulumi up` of examples/chaincode for both organizations, committing, then the same stack's next `up` (nothing to
 * send); resolves to their wall times.
 */
async function pulumiUpOnce(network: FabricNetwork, dir: string): Promise<{ first: number; unchanged: number }> {
  const gateways: Record<string, unknown> = {};
  const admins: Record<string, unknown> = {};
  for (const mspId of ORGS) {
    const org = network.organization(mspId);
    gateways[mspId] = {
      address: org.gatewayAddress,
      tlsRootCertPem: org.tlsRootCertPem,
      serverNameOverride: org.tlsServerName,
    };
    const keyFile = path.join(dir, `${mspId}-admin-key.pem`);
    fs.writeFileSync(keyFile, org.admin.privateKeyPem, { mode: 0o600 });
    admins[mspId] = { certificatePem: org.admin.certificatePem, keyFile };
  }
  const stack = await initProjectStack({
    projectDir: path.join(REPO_ROOT, "examples", "chaincode"),
    transpileOnly: true,
    config: {
      organizations: { value: JSON.stringify(ORGS) },
      commit: { value: "true" },
      channel: { value: network.channel },
      chaincodeName: { value: newName("bp") },
      gateways: { value: JSON.stringify(gateways) },
      admins: { value: JSON.stringify(admins) },
      trustedRootCertificates: { value: JSON.stringify(network.caCertificates) },
      chaincodeServers: { value: JSON.stringify({ Org1MSP: CONNECTION, Org2MSP: CONNECTION }), secret: true },
      endorsementPolicy: { value: POLICY },
    },
  });
  try {
    const started = performance.now();
    const up = await stack.up();
    const first = performance.now() - started;
    if (up.outputs["committedSequence"] !== 1)
      throw new Error(`pulumi up committed sequence ${String(up.outputs["committedSequence"])}`);
    const again = performance.now();
    await stack.up();
    return { first, unchanged: performance.now() - again };
  } finally {
    await stack.dispose();
  }
}

/** `pulumi up` of RESOURCES no-op dynamic resources on a fresh stack, as pulumiUpOnce runs its up. */
async function floorOnce(): Promise<number> {
  const project = writeBenchProject("noop");
  try {
    const stack = await initProjectStack({
      projectDir: project.dir,
      transpileOnly: true,
      config: { count: { value: String(RESOURCES) }, firstPolicy: { value: "1" }, parentId: { value: "folders/1" } },
    });
    try {
      const started = performance.now();
      const up = await stack.up();
      const ms = performance.now() - started;
      if (up.outputs["resources"] !== RESOURCES)
        throw new Error(`the floor declared ${String(up.outputs["resources"])}`);
      return ms;
    } finally {
      await stack.dispose();
    }
  } finally {
    project.dispose();
  }
}

export async function benchChaincodeDeploy(
  options: ChaincodeDeployBenchOptions = {},
): Promise<ChaincodeDeployBenchResult> {
  const version = options.version ?? "2.5.16";
  const runs = options.runs ?? 3;
  const network = await startFabricNetwork({ version });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bench-chaincode-"));
  const pulumiUpMs: number[] = [];
  const unchangedUpMs: number[] = [];
  const scriptMs: number[] = [];
  const floorUpMs: number[] = [];
  const up = async (): Promise<void> => {
    const { first, unchanged } = await pulumiUpOnce(network, dir);
    pulumiUpMs.push(first);
    unchangedUpMs.push(unchanged);
  };
  try {
    for (let run = 0; run < runs; run++) {
      if (run % 2 === 0) {
        scriptMs.push(await scriptOnce(network, dir));
        await up();
        floorUpMs.push(await floorOnce());
      } else {
        floorUpMs.push(await floorOnce());
        await up();
        scriptMs.push(await scriptOnce(network, dir));
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    await network.close();
  }
  return { version, pulumiUpMs, scriptMs, unchangedUpMs, floorUpMs, resources: RESOURCES };
}
