/**
 * One peer organization's node as the network sets it up: its peer's folder and generated core.yaml, the process
 * record network.json keeps for it, and the organization's record (its gateway, TLS settings and identities) — for
 * the organizations in the channel's genesis (start.ts) and for the one that joins later (joining-org.ts) alike.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { coreYaml } from "./node-config";
import { peerName, type NetworkLayout, type PeerOrgSpec } from "./topology";
import type * as T from "./types";

export interface PeerPorts {
  readonly listen: number;
  readonly chaincode: number;
  readonly operations: number;
}

export interface PeerNodeInput {
  readonly layout: NetworkLayout;
  readonly fabricHome: string;
  readonly org: PeerOrgSpec;
  readonly ports: PeerPorts;
  readonly logSpec: string;
  /** With client authentication: the TLS CAs whose certificates the peer accepts (mutual TLS). */
  readonly clientRootCAs?: readonly string[];
  readonly keyType: T.FabricKeyType;
}

/** Writes the peer's core.yaml into its folder; returns its process record (not started) and its organization's record. */
export function preparePeerNode(input: PeerNodeInput): {
  readonly process: T.FabricProcessRecord;
  readonly organization: T.FabricOrganizationRecord;
} {
  const { layout, org, ports } = input;
  const name = peerName(org);
  const nodeDir = layout.node(name);
  mkdirSync(nodeDir, { recursive: true });
  writeFileSync(
    join(nodeDir, "core.yaml"),
    coreYaml({
      fabricHome: input.fabricHome,
      nodeDir,
      name,
      mspDir: layout.peerMsp(org),
      mspId: org.mspId,
      tls: layout.peerTls(org),
      ...(input.clientRootCAs === undefined ? {} : { clientAuth: { clientRootCAs: input.clientRootCAs } }),
      ports,
    }),
  );
  return {
    process: {
      name,
      role: "peer",
      mspId: org.mspId,
      pid: null,
      ports: { ...ports },
      log: layout.log(name),
      command: [join(input.fabricHome, "bin", "peer"), "node", "start"],
      cwd: nodeDir,
      env: { FABRIC_CFG_PATH: nodeDir, FABRIC_LOGGING_SPEC: input.logSpec },
    },
    organization: {
      mspId: org.mspId,
      domain: org.domain,
      peerName: name,
      keyType: input.keyType,
      gatewayAddress: `127.0.0.1:${String(ports.listen)}`,
      tlsServerName: name,
      tlsRootCertPath: layout.orgTlsCa(org),
      clientAuthRequired: input.clientRootCAs !== undefined,
      caCertificatePath: layout.orgCa(org),
      peerMspDir: layout.peerMsp(org),
      client: { mspId: org.mspId, ...layout.user(org, "User1") },
      admin: { mspId: org.mspId, ...layout.user(org, "Admin") },
    },
  };
}
