/**
 * Step 6 of startFabricNetwork: the `assets` chaincode as a service. Per organization a ccaas package (its package id
 * from `peer lifecycle chaincode calculatepackageid`) and a chaincode server serving that id; then the v2 lifecycle as
 * two organization admins run it: install on each peer, approveformyorg by each organization (its own package id, the
 * same definition), commit with both peers' endorsements (the channel's LifecycleEndorsement is MAJORITY of two), and
 * `querycommitted` on each peer until it shows the definition with both approvals.
 */
import type { AdminTools, PeerAdmin } from "./admin-tools";
import { chaincodeServerProcess, writeChaincodePackage } from "./chaincode-package";
import { addProcess } from "./network-file";
import { portAnswers, waitFor } from "./readiness";
import { PEER_ORGS, type NetworkLayout } from "./topology";
import {
  FABRIC_NETWORK_CHAINCODE,
  FABRIC_NETWORK_CHAINCODE_VERSION,
  FABRIC_NETWORK_ENDORSEMENT_POLICY,
  type FabricProcessRecord,
} from "./types";

export interface DeployInput {
  readonly tools: AdminTools;
  readonly layout: NetworkLayout;
  /** One per organization, in PEER_ORGS order. */
  readonly admins: readonly PeerAdmin[];
  readonly chaincodePorts: readonly number[];
  readonly orderer: { readonly address: string; readonly ca: string };
  readonly channel: string;
  readonly timeoutMs: () => number;
  readonly abort: () => string | undefined;
  /** Starts a process recorded in network.json. */
  readonly start: (record: FabricProcessRecord) => void;
}

interface CommittedDefinition {
  readonly sequence: number;
  readonly version: string;
  readonly approvals: Readonly<Record<string, boolean>>;
}

/** Deploys the chaincode; resolves to each organization's package id. */
export async function deployChaincode(input: DeployInput): Promise<Record<string, string>> {
  const { tools, layout, admins, channel } = input;
  const admin = (i: number): PeerAdmin => {
    const a = admins[i];
    if (a === undefined) throw new Error(`no admin for organization ${i}`);
    return a;
  };
  const definition = [
    "--channelID",
    channel,
    "--name",
    FABRIC_NETWORK_CHAINCODE,
    "--version",
    FABRIC_NETWORK_CHAINCODE_VERSION,
    "--sequence",
    "1",
    "--signature-policy",
    FABRIC_NETWORK_ENDORSEMENT_POLICY,
  ];
  const ordererArgs = ["-o", input.orderer.address, "--tls", "--cafile", input.orderer.ca];

  const packages = await Promise.all(
    PEER_ORGS.map(async (org, i) => {
      const port = input.chaincodePorts[i] ?? 0;
      const pkg = await writeChaincodePackage(layout, org, port, layout.peerTls(org), layout.orgTlsCa(org));
      const id = (await tools.peer(["lifecycle", "chaincode", "calculatepackageid", pkg.file], admin(i))).trim();
      const record = chaincodeServerProcess(layout, org, id, port, pkg.moduleDir);
      return { org, pkg, id, record, port };
    }),
  );
  for (const p of packages) {
    addProcess(layout.dir, p.record);
    input.start(p.record);
  }
  await Promise.all(
    packages.map((p) =>
      waitFor(`${p.record.name} to listen on ${p.port}`, async () => ((await portAnswers(p.port)) ? true : undefined), {
        timeoutMs: input.timeoutMs(),
        abort: input.abort,
      }),
    ),
  );

  await Promise.all(packages.map((p, i) => tools.peer(["lifecycle", "chaincode", "install", p.pkg.file], admin(i))));
  await Promise.all(
    packages.map((p, i) =>
      tools.peer(
        ["lifecycle", "chaincode", "approveformyorg", ...ordererArgs, ...definition, "--package-id", p.id],
        admin(i),
      ),
    ),
  );
  const endorsers = admins.flatMap((a) => ["--peerAddresses", a.peerAddress, "--tlsRootCertFiles", a.peerTlsCa]);
  await tools.peer(["lifecycle", "chaincode", "commit", ...ordererArgs, ...definition, ...endorsers], admin(0));
  await Promise.all(
    admins.map((a) =>
      waitFor(
        `${FABRIC_NETWORK_CHAINCODE} committed on ${a.peerAddress} (querycommitted)`,
        async () => {
          const out = await tools.peer(
            ["lifecycle", "chaincode", "querycommitted", "-C", channel, "-n", FABRIC_NETWORK_CHAINCODE, "-O", "json"],
            a,
          );
          const committed = JSON.parse(out.slice(out.indexOf("{"))) as CommittedDefinition;
          const approved = PEER_ORGS.every((org) => committed.approvals[org.mspId] === true);
          if (committed.sequence === 1 && approved) return true;
          throw new Error(`querycommitted answered ${out.trim()}`);
        },
        { timeoutMs: input.timeoutMs(), abort: input.abort },
      ),
    ),
  );
  return Object.fromEntries(packages.map((p) => [p.org.mspId, p.id]));
}
