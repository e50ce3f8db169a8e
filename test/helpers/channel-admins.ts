/**
 * What the channel resources' e2e bodies hold in hand on a real network (set-up and plumbing, no test body): each
 * organization's admin as a program's identity input (key files in the network's folder; Org2's admin key in a
 * SoftHSM2 token, its PIN in an environment variable of the stack), the orderer as a program reaches it — through a
 * proxy that presents the orderer's own TLS certificate, records every Broadcast and can hold its answer — Org2's peer
 * the same way (a proxy recording every proposal and gateway call), and each
 * orderer's admin endpoint, a channel of the test's own declared from the network's folders, the `assets` chaincode
 * defined on that channel for the organizations in it (the chaincode lifecycle library), and a batch timeout changed
 * as another admin changes it: the peer CLI and configtxlator, by hand.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { createPublicKey } from "node:crypto";
import type { ChannelShape } from "../../provider/resources/ledger/channel/channel-shapes";
import { connect } from "../../provider/ledger/gateway-client";
import type { Gateway } from "../../provider/ledger/gateway-client";
import { newIdentity } from "../../provider/ledger/identity";
import { connectEndorser } from "../../provider/ledger/endorser-client";
import { installChaincode } from "../../provider/ledger/lifecycle/lifecycle-install";
import {
  approveChaincodeDefinition,
  commitChaincodeDefinition,
} from "../../provider/ledger/lifecycle/lifecycle-transactions";
import { fabricSki } from "../../provider/ledger/signer-keys";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import { readNetworkFile, type FabricNetwork } from "../../sandbox/fabric-network";
import { runTool } from "../../sandbox/fabric-network/processes";
import { NetworkLayout, PEER_ORGS } from "../../sandbox/fabric-network/topology";
import { mspFolderDeclaration, networkChannelDeclaration, ordererAdminFiles } from "./channel-declaration";
import { GATEWAY, startGatewayProxy } from "./gateway-proxy";
import type { GatewayProxy } from "./gateway-proxy";
import { createSoftHsmToken } from "./softhsm";
import type { SoftHsmToken } from "./softhsm";

/** The orderer's AtomicBroadcast methods. */
export const ORDERER = {
  broadcast: "/orderer.AtomicBroadcast/Broadcast",
  deliver: "/orderer.AtomicBroadcast/Deliver",
} as const;

/** An identity as a program's input takes it (a key file, or a PKCS#11 token with its PIN in an environment variable). */
export type IdentityInput = Readonly<Record<string, unknown>> & {
  readonly mspId: string;
  readonly certificatePem: string;
};

/** The environment variable holding the SoftHSM2 PIN of Org2's admin. */
export const HSM_PIN_ENV = "CHANNEL_ADMIN_HSM_PIN";

export interface ChannelAdmins {
  readonly network: FabricNetwork;
  /** Each admin: Org1's, Org3's and the orderer organization's by key file; Org2's in an HSM. */
  readonly identities: Readonly<Record<"org1" | "org2Hsm" | "org3" | "orderer", IdentityInput>>;
  /** The orderer's listen address as a program reaches it: the proxy. */
  readonly orderer: Readonly<Record<string, unknown>>;
  readonly proxy: GatewayProxy;
  /** The proxy in front of Org2's peer, which `peer("Org2MSP")` names. */
  readonly org2Proxy: GatewayProxy;
  /** Each orderer's admin endpoint (mutual TLS with the orderer organization admin's TLS pair, its key by file). */
  readonly ordererAdmins: readonly Readonly<Record<string, unknown>>[];
  /** The peer of an organization as a program reaches it. */
  peer(mspId: string): Readonly<Record<string, unknown>>;
  /** The stack environment the identities need (the HSM's configuration and PIN). */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

const read = (file: string): string => fs.readFileSync(file, "utf8");

function keyFileIdentity(files: { mspId: string; certificatePath: string; privateKeyPath: string }): IdentityInput {
  return { mspId: files.mspId, certificatePem: read(files.certificatePath), keyFile: files.privateKeyPath };
}

/** Opens what the bodies need on `network` (Org3 must be started: startJoiningOrganization). */
export async function openChannelAdmins(network: FabricNetwork, tokenLabel: string): Promise<ChannelAdmins> {
  const description = readNetworkFile(network.networkFile);
  const layout = new NetworkLayout(network.dir);
  const ordererCa = read(description.ordererTlsRootCertPath);
  const first = network.orderers[0];
  if (first === undefined) throw new Error(`${network.networkFile} names no orderer`);
  const tls = layout.ordererTls(first.name);
  const proxy = await startGatewayProxy({
    upstream: { address: first.address, tlsRootCertPem: ordererCa, serverName: first.tlsServerName },
    serverTls: { certificatePem: read(tls.cert), privateKeyPem: read(tls.key) },
    streamed: [ORDERER.deliver],
  });
  const org2 = network.organization("Org2MSP");
  const org2Spec = PEER_ORGS.find((o) => o.mspId === "Org2MSP");
  if (org2Spec === undefined) throw new Error("no Org2MSP in the topology");
  const org2Tls = layout.peerTls(org2Spec);
  const org2Proxy = await startGatewayProxy({
    upstream: { address: org2.gatewayAddress, tlsRootCertPem: org2.tlsRootCertPem, serverName: org2.tlsServerName },
    serverTls: { certificatePem: read(org2Tls.cert), privateKeyPem: read(org2Tls.key) },
  });
  const token: SoftHsmToken = createSoftHsmToken(tokenLabel, "4321");
  token.importKey(
    org2.admin.privateKeyPem,
    Buffer.from(fabricSki(createPublicKey(org2.admin.privateKeyPem))).toString("hex"),
  );
  const org3 = network.joiningOrganizations.find((o) => o.mspId === "Org3MSP");
  if (org3 === undefined) throw new Error(`${network.networkFile} prepares no Org3MSP`);
  return {
    network,
    identities: {
      org1: keyFileIdentity(network.organization("Org1MSP").admin),
      org2Hsm: {
        mspId: "Org2MSP",
        certificatePem: org2.admin.certificatePem,
        pkcs11: { library: token.library, tokenLabel: token.label, pinEnv: HSM_PIN_ENV },
      },
      org3: keyFileIdentity(org3.admin),
      orderer: keyFileIdentity(ordererAdminFiles(network.dir)),
    },
    orderer: { address: proxy.address, tlsRootCertPem: ordererCa, serverNameOverride: first.tlsServerName },
    proxy,
    org2Proxy,
    ordererAdmins: network.orderers.map((o) => ({
      address: o.adminAddress,
      tlsRootCertPem: ordererCa,
      serverNameOverride: o.tlsServerName,
      clientCertPem: read(description.ordererAdminTls.certPath),
      clientKeyFile: description.ordererAdminTls.keyPath,
    })),
    peer(mspId) {
      const org =
        mspId === "Org3MSP"
          ? (network.joiningOrganizations.find((o) => o.mspId === mspId) ?? org3)
          : network.organization(mspId);
      return {
        address: mspId === "Org2MSP" ? org2Proxy.address : org.gatewayAddress,
        tlsRootCertPem: read(org.tlsRootCertPath),
        serverNameOverride: org.tlsServerName,
      };
    },
    env: { ...token.env, [HSM_PIN_ENV]: token.pin },
    close: async () => {
      token.dispose();
      await proxy.close();
      await org2Proxy.close();
    },
  };
}

/** The Broadcast calls the proxy saw from index `from` on. */
export function broadcasts(proxy: GatewayProxy, from = 0): number {
  return proxy.paths(from).filter((p) => p === ORDERER.broadcast).length;
}

/**
 * A Channel's arguments for a channel of the test's own on `network`: its organizations from their MSP folders, its
 * consenters and settings as the network's own channel has them (channel-declaration.ts), the capabilities given.
 */
export function channelArgs(
  network: FabricNetwork,
  channel: string,
  capabilities: ChannelShape["capabilities"],
  ordererAdmins: readonly Readonly<Record<string, unknown>>[],
): Readonly<Record<string, unknown>> {
  const d = networkChannelDeclaration(network.dir, {
    channelId: channel,
    version: network.version,
    consensus: network.consensus,
    orderers: network.orderers.map((o) => ({
      host: o.name.split(".")[0] ?? "",
      port: Number(o.address.split(":")[1]),
    })),
    peers: PEER_ORGS.map((org) => ({
      org,
      port: Number(network.organization(org.mspId).gatewayAddress.split(":")[1]),
    })),
    batchTimeoutMs: readNetworkFile(network.networkFile).batchTimeoutMs,
    maxMessageCount: 10,
    capabilities,
  });
  // JSON: the SmartBFT options' counts as numbers (the library's bigints).
  const json = JSON.parse(JSON.stringify(d, (_k, v: unknown) => (typeof v === "bigint" ? Number(v) : v))) as Record<
    string,
    unknown
  >;
  const { channelId: _id, fabricVersion, ...rest } = json;
  return { channel, fabricVersion, ...rest, orderers: ordererAdmins };
}

/** Org3's MSP as a ChannelOrganization declares it (its MSP folder, as configtxgen reads it). */
export function org3Msp(network: FabricNetwork): Readonly<Record<string, unknown>> {
  const org3 = network.joiningOrganizations.find((o) => o.mspId === "Org3MSP");
  if (org3 === undefined) throw new Error("no Org3MSP");
  const { anchorPeers: _a, endpoints: _e, ...msp } = mspFolderDeclaration(org3.mspDir, "Org3MSP");
  return msp;
}

function adminGateway(network: FabricNetwork, mspId: string): Gateway {
  const org = network.joiningOrganizations.find((o) => o.mspId === mspId) ?? network.organization(mspId);
  const org3 = network.joiningOrganizations.find((o) => o.mspId === "Org3MSP");
  const roots = { ...network.caCertificates, ...(org3 === undefined ? {} : { Org3MSP: org3.caCertificatePem }) };
  return connect({
    address: org.gatewayAddress,
    tls: { rootCertificates: read(org.tlsRootCertPath), serverNameOverride: org.tlsServerName },
    identity: newIdentity(mspId, org.admin.certificatePem),
    signer: newPrivateKeySigner(org.admin.privateKeyPem),
    trustedMsps: Object.entries(roots).map(([id, pem]) => ({ mspId: id, rootCertificates: [pem] })),
  });
}

/**
 * The `assets` chaincode defined on `channel` for Org1, Org2 and Org3 (the phase-1 chaincode lifecycle library): Org3's
 * package installed on its peer, each organization's approval with its own package, the commit. Any one peer may
 * endorse its transactions (the policy `OR` of the three), so a transaction endorsed by Org3 alone is valid.
 */
export async function defineAssetsChaincode(network: FabricNetwork, channel: string): Promise<void> {
  const org3 = network.joiningOrganizations.find((o) => o.mspId === "Org3MSP");
  if (org3 === undefined) throw new Error("no Org3MSP");
  const endorser = connectEndorser({
    address: org3.gatewayAddress,
    tls: { rootCertificates: read(org3.tlsRootCertPath), serverNameOverride: org3.tlsServerName },
    identity: newIdentity("Org3MSP", org3.admin.certificatePem),
    signer: newPrivateKeySigner(org3.admin.privateKeyPem),
  });
  try {
    await installChaincode(endorser, fs.readFileSync(org3.chaincode.packageFile));
  } finally {
    endorser.close();
  }
  const definition = {
    name: "assets",
    version: "1.0",
    sequence: 1,
    endorsementPolicy: "OR('Org1MSP.peer','Org2MSP.peer','Org3MSP.peer')",
  };
  const packageIds: Record<string, string> = {
    ...readNetworkFile(network.networkFile).chaincode.packageIds,
    Org3MSP: org3.chaincode.packageId,
  };
  for (const mspId of ["Org1MSP", "Org2MSP", "Org3MSP"]) {
    const gateway = adminGateway(network, mspId);
    try {
      await approveChaincodeDefinition(gateway, { channelId: channel, definition, packageId: packageIds[mspId] ?? "" });
    } finally {
      gateway.close();
    }
  }
  const gateway = adminGateway(network, "Org1MSP");
  try {
    await commitChaincodeDefinition(gateway, {
      channelId: channel,
      definition,
      endorsingOrganizations: ["Org1MSP", "Org2MSP"],
    });
  } finally {
    gateway.close();
  }
}

/**
 * The batch timeout of `channel` changed as an admin without this package changes it: `peer channel fetch config` as
 * the orderer organization's admin, configtxlator's decode, the JSON edited, compute_update, the CONFIG_UPDATE
 * envelope encoded, and `peer channel update` (which signs it as that admin). Resolves with the peer CLI's output.
 */
export async function peerCliSetsBatchTimeout(
  network: FabricNetwork,
  channel: string,
  timeout: string,
): Promise<string> {
  const description = readNetworkFile(network.networkFile);
  const bin = (name: string): string => path.join(description.fabricHome, "bin", name);
  const work = fs.mkdtempSync(path.join(network.dir, `cli-${channel}-`));
  const file = (name: string): string => path.join(work, name);
  const orderer = network.orderers[0];
  if (orderer === undefined) throw new Error("no orderer");
  const admin = ordererAdminFiles(network.dir);
  const org1 = network.organization("Org1MSP");
  const env = {
    FABRIC_CFG_PATH: path.join(description.fabricHome, "config"),
    FABRIC_LOGGING_SPEC: "warning",
    CORE_PEER_LOCALMSPID: admin.mspId,
    CORE_PEER_MSPCONFIGPATH: admin.mspDir,
    CORE_PEER_TLS_ENABLED: "true",
    CORE_PEER_ADDRESS: org1.gatewayAddress,
    CORE_PEER_TLS_ROOTCERT_FILE: org1.tlsRootCertPath,
  };
  const ordererArgs = [
    "-o",
    orderer.address,
    "--ordererTLSHostnameOverride",
    orderer.tlsServerName,
    "--tls",
    "--cafile",
    description.ordererTlsRootCertPath,
  ];
  const lator = (args: readonly string[]) => runTool([bin("configtxlator"), ...args]);
  await runTool([bin("peer"), "channel", "fetch", "config", file("config_block.pb"), "-c", channel, ...ordererArgs], {
    env,
  });
  await lator([
    "proto_decode",
    "--input",
    file("config_block.pb"),
    "--type",
    "common.Block",
    "--output",
    file("block.json"),
  ]);
  const block = JSON.parse(read(file("block.json"))) as {
    data: { data: { payload: { data: { config: { channel_group: Record<string, unknown> } } } }[] };
  };
  const config = block.data.data[0]?.payload.data.config;
  if (config === undefined) throw new Error("the fetched block holds no configuration");
  fs.writeFileSync(file("config.json"), JSON.stringify(config));
  const modified = JSON.parse(JSON.stringify(config)) as {
    channel_group: { groups: { Orderer: { values: { BatchTimeout: { value: { timeout: string } } } } } };
  };
  modified.channel_group.groups.Orderer.values.BatchTimeout.value.timeout = timeout;
  fs.writeFileSync(file("modified.json"), JSON.stringify(modified));
  await lator([
    "proto_encode",
    "--input",
    file("config.json"),
    "--type",
    "common.Config",
    "--output",
    file("config.pb"),
  ]);
  await lator([
    "proto_encode",
    "--input",
    file("modified.json"),
    "--type",
    "common.Config",
    "--output",
    file("modified.pb"),
  ]);
  await lator([
    "compute_update",
    "--channel_id",
    channel,
    "--original",
    file("config.pb"),
    "--updated",
    file("modified.pb"),
    "--output",
    file("update.pb"),
  ]);
  await lator([
    "proto_decode",
    "--input",
    file("update.pb"),
    "--type",
    "common.ConfigUpdate",
    "--output",
    file("update.json"),
  ]);
  const envelope = {
    payload: {
      header: { channel_header: { channel_id: channel, type: 2 } },
      data: { config_update: JSON.parse(read(file("update.json"))) as unknown },
    },
  };
  fs.writeFileSync(file("envelope.json"), JSON.stringify(envelope));
  await lator([
    "proto_encode",
    "--input",
    file("envelope.json"),
    "--type",
    "common.Envelope",
    "--output",
    file("envelope.pb"),
  ]);
  const updated = await runTool(
    [bin("peer"), "channel", "update", "-f", file("envelope.pb"), "-c", channel, ...ordererArgs],
    {
      env,
    },
  );
  return updated.stdout + updated.stderr;
}

/** The calls of a path the proxy saw from `from` on. */
export function callsOf(proxy: GatewayProxy, route: string, from = 0): number {
  return proxy.paths(from).filter((p) => p === route).length;
}

export { GATEWAY };
