/**
 * A third organization, Org3MSP, that is not in the channel's genesis: what a test needs to add an organization to a
 * running channel as an operator would. startFabricNetwork prepares it — cryptogen material (NodeOUs, TLS for
 * 127.0.0.1), its peer's core.yaml with ports of its own, and the `assets` chaincode as a service for it (a ccaas
 * package whose connection.json points its peer at its own chaincode server, and that server's command for the
 * package's id) — and describes it in network.json under `joiningOrganizations`. Nothing of it runs until a test
 * calls startJoiningOrganization, which records its two processes in `processes` (so fabric:down, the watchdog and
 * close() stop them like the others) and starts them. Joining its peer to the channel, installing and approving the
 * chaincode for it are the test's steps, as they are an operator's.
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stringify } from "yaml";
import type { AdminTools } from "./admin-tools";
import { CHAINCODE_LABEL, chaincodeServerProcess, writeChaincodePackage } from "./chaincode-package";
import { addProcess, readNetworkFile } from "./network-file";
import { preparePeerNode } from "./peer-node";
import { freePorts } from "./ports";
import { isRunning } from "./processes";
import { CHAINCODE_HOST, NetworkLayout, PEER_ORGS } from "./topology";
import type { PeerOrgSpec } from "./topology";
import type * as T from "./types";

/** The organization that joins later. */
export const JOINING_ORG: PeerOrgSpec = { mspId: "Org3MSP", name: "Org3", domain: "org3.example.com" };

const LOCAL_SANS = ["127.0.0.1", "localhost"];

/** cryptogen's input for the joining organization: NodeOUs, its peer and chaincode server, one user. */
export function joiningOrgCryptoConfig(org: PeerOrgSpec = JOINING_ORG): string {
  return stringify({
    PeerOrgs: [
      {
        Name: org.name,
        Domain: org.domain,
        EnableNodeOUs: true,
        Specs: [
          { Hostname: "peer0", SANS: LOCAL_SANS },
          { Hostname: CHAINCODE_HOST, SANS: LOCAL_SANS },
        ],
        Users: { Count: 1 },
      },
    ],
  });
}

export interface JoiningOrgInput {
  readonly tools: AdminTools;
  readonly layout: NetworkLayout;
  readonly fabricHome: string;
  readonly logSpec: string;
  /** Whether the network's peers require client certificates: Org3's peer then trusts every organization's TLS CA. */
  readonly clientAuth: boolean;
}

/** Prepares Org3 (see the module comment); resolves to its network.json record. Nothing is started. */
export async function prepareJoiningOrganization(input: JoiningOrgInput): Promise<T.FabricJoiningOrganizationRecord> {
  const { layout, fabricHome } = input;
  const org = JOINING_ORG;
  const config = join(layout.dir, "crypto-config-org3.yaml");
  writeFileSync(config, joiningOrgCryptoConfig());
  await input.tools.cryptogen(config, layout.crypto);

  const [listen = 0, chaincode = 0, operations = 0, server = 0] = await freePorts(4);
  const peer = preparePeerNode({
    layout,
    fabricHome,
    org,
    ports: { listen, chaincode, operations },
    logSpec: input.logSpec,
    keyType: "ecdsa-p256",
    ...(input.clientAuth ? { clientRootCAs: [...PEER_ORGS, org].map((o) => layout.orgTlsCa(o)) } : {}),
  });

  const pkg = await writeChaincodePackage(layout, org, server, layout.peerTls(org), layout.orgTlsCa(org));
  // What `peer lifecycle chaincode calculatepackageid` prints: the label and the SHA-256 of the package file.
  const packageId = `${CHAINCODE_LABEL}:${createHash("sha256").update(readFileSync(pkg.file)).digest("hex")}`;
  const serverProcess = chaincodeServerProcess(layout, org, packageId, server, pkg.moduleDir);
  return {
    ...peer.organization,
    mspDir: layout.orgMsp(org),
    anchorPeer: { host: "127.0.0.1", port: listen },
    peerProcess: peer.process,
    chaincode: { packageFile: pkg.file, packageId, serverProcess },
  };
}

/**
 * Starts a joining organization's peer and chaincode server (recording them in network.json's `processes` first, so
 * the network's stop stops them) and waits until both answer; a process already running is left as it is. Resolves to
 * the organization as the handle shows it.
 */
export async function startJoiningOrganization(
  network: T.FabricNetwork,
  mspId: string = JOINING_ORG.mspId,
): Promise<T.FabricJoiningOrganization> {
  const org = network.joiningOrganizations.find((o) => o.mspId === mspId);
  if (org === undefined)
    throw new Error(
      `no joining organization '${mspId}' in ${network.networkFile}; it has ${network.joiningOrganizations.map((o) => o.mspId).join(", ") || "none"}`,
    );
  for (const record of [org.peerProcess, org.chaincode.serverProcess]) {
    const recorded = readNetworkFile(network.networkFile).processes.find((p) => p.name === record.name);
    if (recorded === undefined) addProcess(network.networkFile, record);
    else if (isRunning(recorded)) continue;
    await network.startProcess(record.name);
  }
  return org;
}
