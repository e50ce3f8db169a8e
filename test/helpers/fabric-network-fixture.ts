/**
 * The run's shared real Fabric networks, one of each kind SHARED_NETWORKS names, used by every mocha worker of a run
 * (mocha runs spec files in parallel workers, see .mocharc.json, whose "require" loads this module). mocha runs
 * mochaGlobalSetup once, in the main process, before it forks any worker: it starts the network service
 * (test/helpers/shared-network-service.ts) and puts its address into OPSLEDGER_SHARED_NETWORKS, which the workers
 * inherit. In a spec, `await sharedFabricNetwork(name)` (ledgerTargets() and startComponentTarget use it by
 * themselves) asks the main process for the network; the first request of a name starts that network, later ones get
 * the same, so a network starts only when a test of the run needs it (a run of unit tests, or a `--grep` that selects
 * sandbox tests only, starts none) and at most once per run. mochaGlobalTeardown stops them after the last spec; if
 * mocha itself dies, each network's watchdog does it.
 *
 * When OPSLEDGER_FABRIC_NETWORK names a running network (one from `npm run fabric:up`, say), it is used as the
 * shared network of its release ("2.5.16" or "3.1.5") and none of that name is started. Specs share the networks:
 * use keys of their own (uniqueKey, or the worker's pid), never assume a block number or a height, and leave their
 * processes running; a spec that stops, kills or restarts nodes needs a network of its own (`target.start({ own:
 * true })`), and so does one that submits a transaction whose ChaincodeAction does not parse: a Fabric peer never
 * commits a block holding one followed by another transaction (test/integration/ledger-targets/validation-codes.test.ts
 * says why).
 */
import {
  FABRIC_NETWORK_ENV,
  openFabricNetwork,
  startFabricNetwork,
  type FabricNetwork,
  type FabricNetworkOptions,
} from "../../sandbox/fabric-network";
import { requestNetwork, startNetworkService } from "./shared-network-service";
import type { NetworkService } from "./shared-network-service";

/** The kinds of network a run shares, by name: each started on first use, at most once per run. */
export const SHARED_NETWORKS = {
  "2.5.16": { version: "2.5.16" },
  "3.1.5": { version: "3.1.5" },
  /** Four orderers under SmartBFT (its channel is V3_0). */
  "3.1.5 SmartBFT": { version: "3.1.5", consensus: "BFT" },
  /** Org1's identities Ed25519, Org2's ECDSA P-384; peers that require client TLS certificates. */
  "3.1.5 Ed25519 and P-384, mutual TLS": {
    version: "3.1.5",
    keyTypes: { Org1MSP: "ed25519", Org2MSP: "ecdsa-p384" },
    clientAuth: true,
  },
} as const satisfies Record<string, FabricNetworkOptions>;
export type SharedNetworkName = keyof typeof SHARED_NETWORKS;

/** The address of the main process's network service, inherited by the workers. */
export const SHARED_NETWORKS_ENV = "OPSLEDGER_SHARED_NETWORKS";

/** How long a worker waits for a network: longer than a start may take (its own timeout) on a loaded machine. */
const REQUEST_TIMEOUT_MS = 15 * 60_000;

let service: NetworkService | undefined;

/** Progress on stderr: a network takes tens of seconds to start. */
function progress(line: string): void {
  process.stderr.write(`[opsledger] shared Fabric network ${line}\n`);
}

export async function mochaGlobalSetup(): Promise<void> {
  const names = Object.keys(SHARED_NETWORKS);
  service = await startNetworkService(names, async (name) => {
    const options = SHARED_NETWORKS[name as SharedNetworkName];
    const began = Date.now();
    progress(`"${name}": starting`);
    try {
      const network = await startFabricNetwork(options);
      progress(`"${name}": ready in ${String(Math.round((Date.now() - began) / 1000))} s`);
      return network;
    } catch (error) {
      progress(`"${name}": failed to start: ${error instanceof Error ? error.message : String(error)}`);
      throw error;
    }
  });
  process.env[SHARED_NETWORKS_ENV] = service.url;
}

export async function mochaGlobalTeardown(): Promise<void> {
  const running = service;
  service = undefined;
  if (running === undefined) return;
  process.env[SHARED_NETWORKS_ENV] = "";
  await running.close();
}

/** The network OPSLEDGER_FABRIC_NETWORK names, when it stands for `name` (a plain network, named by its release). */
function handedDown(name: SharedNetworkName): FabricNetwork | undefined {
  const file = process.env[FABRIC_NETWORK_ENV] ?? "";
  if (file === "" || name !== SHARED_NETWORKS[name].version) return undefined;
  const network = openFabricNetwork(file);
  return network.version === SHARED_NETWORKS[name].version ? network : undefined;
}

/**
 * The run's shared network `name` (in any worker), started by the main process if no test asked for it before; undefined
 * when the run shares none (its mocha did not load this fixture, and no network of that name was handed down).
 */
export async function findSharedNetwork(name: SharedNetworkName): Promise<FabricNetwork | undefined> {
  const given = handedDown(name);
  if (given !== undefined) return given;
  const url = process.env[SHARED_NETWORKS_ENV] ?? "";
  return url === "" ? undefined : openFabricNetwork(await requestNetwork(url, name, REQUEST_TIMEOUT_MS));
}

/** As findSharedNetwork, for a spec that cannot run without the network. */
export async function sharedFabricNetwork(name: SharedNetworkName = "2.5.16"): Promise<FabricNetwork> {
  const network = await findSharedNetwork(name);
  if (network === undefined)
    throw new Error(
      `${SHARED_NETWORKS_ENV} is not set: run mocha with --require dist/test/helpers/fabric-network-fixture.js ` +
        `(or point ${FABRIC_NETWORK_ENV} at the network.json of \`npm run fabric:up\`)`,
    );
  return network;
}
