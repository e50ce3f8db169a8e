/**
 * Chaincode servers for chaincodes deployed after the network started (the network deploys `assets` itself:
 * deploy-chaincode.ts). A chaincode as a service is reached at an address its package names, and serves under the
 * package id, which is the hash of that package: so the address comes first (reserveChaincodeServer picks a free port
 * and says how the organization's peer reaches it — mutual TLS, as the network's own chaincode servers), the caller
 * builds the package and computes its id, and startChaincodeServer then starts the server for that id. It serves the
 * assets contract (chaincode/) under the chaincode's name, is recorded in network.json like the network's own
 * processes (so close(), `npm run fabric:down` and the watchdog stop it) and is stopped by name
 * (network.stopProcess).
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { chaincodeServerCommand, contractModule } from "./chaincode-package";
import { addProcess, readNetworkFile, updateProcess } from "./network-file";
import { freePorts } from "./ports";
import { logTail, startDetached } from "./processes";
import { portAnswers, waitFor } from "./readiness";
import { NetworkLayout, PEER_ORGS, type PeerOrgSpec } from "./topology";
import type { FabricNetwork, FabricProcessRecord } from "./types";

/** How long a chaincode server may take to listen. */
export const CHAINCODE_SERVER_START_TIMEOUT_MS = 60_000;

/** Where a chaincode server of an organization will listen, and how its peer reaches it (a ccaas package's connection). */
export interface ChaincodeServerEndpoint {
  readonly mspId: string;
  /** The chaincode it will serve (its module and process are named after it). */
  readonly chaincodeName: string;
  readonly port: number;
  /** The ccaas connection.json the organization's package must carry. */
  readonly connection: {
    readonly address: string;
    readonly dialTimeout: string;
    readonly tlsRequired: true;
    readonly clientAuthRequired: true;
    /** The organization's TLS CA, which issued the server's certificate. */
    readonly rootCert: string;
    /** The peer's TLS certificate and key, which it presents to the server (test material of the network's folder). */
    readonly clientCert: string;
    readonly clientKey: string;
  };
}

function organizationSpec(mspId: string): PeerOrgSpec {
  const org = PEER_ORGS.find((o) => o.mspId === mspId);
  if (org === undefined)
    throw new Error(`no organization '${mspId}'; known: ${PEER_ORGS.map((o) => o.mspId).join(", ")}`);
  return org;
}

/** The process name of a chaincode's server in an organization, e.g. "lc.org1.example.com". */
export function chaincodeServerProcessName(chaincodeName: string, mspId: string): string {
  return `${chaincodeName}.${organizationSpec(mspId).domain}`;
}

/** Picks a free port for `chaincodeName`'s server in `mspId` and says how that organization's peer will reach it. */
export async function reserveChaincodeServer(
  network: FabricNetwork,
  mspId: string,
  chaincodeName: string,
): Promise<ChaincodeServerEndpoint> {
  const org = organizationSpec(mspId);
  const layout = new NetworkLayout(network.dir);
  const [port] = await freePorts(1);
  if (port === undefined) throw new Error("no free port for a chaincode server");
  const peerTls = layout.peerTls(org);
  return {
    mspId,
    chaincodeName,
    port,
    connection: {
      address: `127.0.0.1:${String(port)}`,
      dialTimeout: "10s",
      tlsRequired: true,
      clientAuthRequired: true,
      rootCert: readFileSync(layout.orgTlsCa(org), "utf8"),
      clientCert: readFileSync(peerTls.cert, "utf8"),
      clientKey: readFileSync(peerTls.key, "utf8"),
    },
  };
}

/**
 * Starts the server of a reserved endpoint for `packageId` (the id of the package that names the endpoint), records it
 * in network.json and resolves once it listens; its name is chaincodeServerProcessName(...).
 */
export async function startChaincodeServer(
  network: FabricNetwork,
  endpoint: ChaincodeServerEndpoint,
  packageId: string,
): Promise<string> {
  const org = organizationSpec(endpoint.mspId);
  const layout = new NetworkLayout(network.dir);
  const name = chaincodeServerProcessName(endpoint.chaincodeName, endpoint.mspId);
  if (readNetworkFile(network.networkFile).processes.some((p) => p.name === name))
    throw new Error(`${name} is already in ${network.networkFile}: one server per chaincode and organization`);
  const moduleDir = join(layout.chaincode(org), endpoint.chaincodeName, "module");
  mkdirSync(moduleDir, { recursive: true });
  writeFileSync(
    join(moduleDir, "package.json"),
    JSON.stringify({ name: endpoint.chaincodeName, version: "1.0.0", main: resolve(contractModule()) }, null, 2),
  );
  const record: FabricProcessRecord = {
    name,
    role: "chaincode",
    mspId: endpoint.mspId,
    pid: null,
    ports: { listen: endpoint.port },
    log: layout.log(name),
    command: chaincodeServerCommand(
      packageId,
      endpoint.port,
      moduleDir,
      layout.chaincodeTls(org),
      layout.orgTlsCa(org),
    ),
    cwd: moduleDir,
    env: {},
  };
  addProcess(network.networkFile, record);
  const started = startDetached(record);
  let exit: string | undefined;
  void started.exited.then((how) => (exit = String(how)));
  updateProcess(network.networkFile, name, (p) => ({ ...p, pid: started.pid }));
  await waitFor(
    `${name} to listen on ${String(endpoint.port)}`,
    async () => ((await portAnswers(endpoint.port)) ? true : undefined),
    {
      timeoutMs: CHAINCODE_SERVER_START_TIMEOUT_MS,
      abort: () => (exit === undefined ? undefined : `${name} exited (${exit}):\n${logTail(record.log)}`),
    },
  );
  return name;
}
