/**
 * One real Fabric network shared by every mocha worker of a run (mocha runs spec files in parallel workers, see
 * .mocharc.json, whose "require" loads this module): mocha runs mochaGlobalSetup once, in the main process, before it
 * forks any worker; it starts the network and puts the path of its network.json into OPSLEDGER_FABRIC_NETWORK, which
 * the workers inherit. In a spec, sharedFabricNetwork() opens that file (ledgerTargets() uses it by itself).
 * mochaGlobalTeardown stops the network after the last spec; if mocha itself dies, the network's watchdog does it.
 *
 *   OPSLEDGER_FABRIC_VERSION=3.1.5 mocha --require dist/test/helpers/fabric-network-fixture.js ...
 *
 * The network is started only when the run needs it: when a spec file of the run imports, directly or through its
 * own relative imports, test/helpers/ledger-targets or this module (a run of unit tests starts nothing). A spec that
 * finds no shared network starts its own, so this is a saving, never a requirement.
 *
 * When OPSLEDGER_FABRIC_NETWORK is already set (a network from `npm run fabric:up`, say), the fixture uses it and
 * starts nothing. Specs share the network: use keys of their own (e.g. with the worker's pid) and leave its processes
 * running; a spec that kills or restarts nodes needs a network of its own (`target.start({ own: true })`), and so does
 * one that submits a transaction whose ChaincodeAction does not parse: a Fabric peer never commits a block holding
 * one followed by another transaction (test/integration/ledger-targets/validation-codes.test.ts says why).
 */
import {
  DEFAULT_FABRIC_VERSION,
  FABRIC_NETWORK_ENV,
  openFabricNetwork,
  startFabricNetwork,
  type FabricNetwork,
  type FabricVersion,
} from "../../sandbox/fabric-network";
import { runUsesSharedNetwork } from "./shared-network-use";

let started: FabricNetwork | undefined;

export async function mochaGlobalSetup(): Promise<void> {
  if ((process.env[FABRIC_NETWORK_ENV] ?? "") !== "") return;
  if (!runUsesSharedNetwork()) return;
  const version = (process.env["OPSLEDGER_FABRIC_VERSION"] ?? DEFAULT_FABRIC_VERSION) as FabricVersion;
  started = await startFabricNetwork({ version });
  process.env[FABRIC_NETWORK_ENV] = started.networkFile;
}

export async function mochaGlobalTeardown(): Promise<void> {
  const network = started;
  started = undefined;
  if (network === undefined) return;
  process.env[FABRIC_NETWORK_ENV] = "";
  await network.close();
}

/** The run's shared network (in any worker). */
export function sharedFabricNetwork(): FabricNetwork {
  const file = process.env[FABRIC_NETWORK_ENV] ?? "";
  if (file === "")
    throw new Error(
      `${FABRIC_NETWORK_ENV} is not set: run mocha with --require dist/test/helpers/fabric-network-fixture.js ` +
        "(or point it at the network.json of `npm run fabric:up`)",
    );
  return openFabricNetwork(file);
}
