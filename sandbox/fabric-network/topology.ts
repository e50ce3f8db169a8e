/**
 * The network's shape and where everything lives in its folder: an orderer organization with its orderers (three
 * etcdraft or four BFT unless told otherwise: ordererHosts), two peer organizations with one peer and one chaincode server each. Names are the host names cryptogen
 * puts in the certificates; paths follow cryptogen's output layout.
 */
import { join } from "node:path";

export interface PeerOrgSpec {
  readonly mspId: string;
  /** cryptogen's organization name. */
  readonly name: string;
  readonly domain: string;
}

export const ORDERER_MSP_ID = "OrdererMSP";
export const ORDERER_DOMAIN = "example.com";
/** The three orderers of a Raft network by default. */
export const ORDERER_HOSTS = ["orderer0", "orderer1", "orderer2"] as const;

/** The host names of `count` orderers: orderer0, orderer1, ... */
export function ordererHosts(count: number): readonly string[] {
  return Array.from({ length: count }, (_, i) => `orderer${i}`);
}
export const PEER_ORGS: readonly PeerOrgSpec[] = [
  { mspId: "Org1MSP", name: "Org1", domain: "org1.example.com" },
  { mspId: "Org2MSP", name: "Org2", domain: "org2.example.com" },
];
/** The host name of each organization's chaincode server (its TLS certificate comes from the org's TLS CA). */
export const CHAINCODE_HOST = "assets";

export function ordererName(host: string): string {
  return `${host}.${ORDERER_DOMAIN}`;
}
export function peerName(org: PeerOrgSpec): string {
  return `peer0.${org.domain}`;
}
export function chaincodeServerName(org: PeerOrgSpec): string {
  return `${CHAINCODE_HOST}.${org.domain}`;
}

/** TLS material of a node as cryptogen writes it. */
export interface NodeTls {
  readonly cert: string;
  readonly key: string;
  /** The TLS CA of the node's organization. */
  readonly ca: string;
}

/** Paths inside the network folder. */
export class NetworkLayout {
  constructor(readonly dir: string) {}

  get networkFile(): string {
    return join(this.dir, "network.json");
  }
  get cryptoConfig(): string {
    return join(this.dir, "crypto-config.yaml");
  }
  get crypto(): string {
    return join(this.dir, "crypto");
  }
  get configtxDir(): string {
    return join(this.dir, "configtx");
  }
  get channelBlock(): string {
    return join(this.dir, "channel", "genesis.block");
  }
  get logs(): string {
    return join(this.dir, "logs");
  }
  log(name: string): string {
    return join(this.logs, `${name}.log`);
  }
  /** A node's own folder: its generated core.yaml / orderer.yaml and its ledger. */
  node(name: string): string {
    return join(this.dir, "nodes", name);
  }
  chaincode(org: PeerOrgSpec): string {
    return join(this.dir, "chaincode", org.domain);
  }

  private ordererOrg(): string {
    return join(this.crypto, "ordererOrganizations", ORDERER_DOMAIN);
  }
  private peerOrg(org: PeerOrgSpec): string {
    return join(this.crypto, "peerOrganizations", org.domain);
  }

  ordererOrgMsp(): string {
    return join(this.ordererOrg(), "msp");
  }
  ordererTlsCa(): string {
    return join(this.ordererOrg(), "tlsca", `tlsca.${ORDERER_DOMAIN}-cert.pem`);
  }
  ordererMsp(name: string): string {
    return join(this.ordererOrg(), "orderers", name, "msp");
  }
  /** The orderer's enrolment certificate: its identity in a BFT ConsenterMapping. */
  ordererSigncert(name: string): string {
    return join(this.ordererMsp(name), "signcerts", `${name}-cert.pem`);
  }
  ordererTls(name: string): NodeTls {
    const tls = join(this.ordererOrg(), "orderers", name, "tls");
    return { cert: join(tls, "server.crt"), key: join(tls, "server.key"), ca: join(tls, "ca.crt") };
  }
  /** The orderer organization's admin: its TLS client certificate opens the channel participation API. */
  ordererAdminTls(): NodeTls {
    const tls = join(this.ordererOrg(), "users", `Admin@${ORDERER_DOMAIN}`, "tls");
    return { cert: join(tls, "client.crt"), key: join(tls, "client.key"), ca: join(tls, "ca.crt") };
  }

  orgMsp(org: PeerOrgSpec): string {
    return join(this.peerOrg(org), "msp");
  }
  orgCa(org: PeerOrgSpec): string {
    return join(this.peerOrg(org), "ca", `ca.${org.domain}-cert.pem`);
  }
  orgTlsCa(org: PeerOrgSpec): string {
    return join(this.peerOrg(org), "tlsca", `tlsca.${org.domain}-cert.pem`);
  }
  peerMsp(org: PeerOrgSpec): string {
    return join(this.peerOrg(org), "peers", peerName(org), "msp");
  }
  peerTls(org: PeerOrgSpec): NodeTls {
    const tls = join(this.peerOrg(org), "peers", peerName(org), "tls");
    return { cert: join(tls, "server.crt"), key: join(tls, "server.key"), ca: join(tls, "ca.crt") };
  }
  chaincodeTls(org: PeerOrgSpec): NodeTls {
    const tls = join(this.peerOrg(org), "peers", chaincodeServerName(org), "tls");
    return { cert: join(tls, "server.crt"), key: join(tls, "server.key"), ca: join(tls, "ca.crt") };
  }
  /** A user's MSP folder, certificate and key, and TLS client certificate and key ("Admin" or "User1"). */
  user(
    org: PeerOrgSpec,
    user: "Admin" | "User1",
  ): {
    mspDir: string;
    certificatePath: string;
    privateKeyPath: string;
    tlsCertificatePath: string;
    tlsPrivateKeyPath: string;
  } {
    const id = `${user}@${org.domain}`;
    const mspDir = join(this.peerOrg(org), "users", id, "msp");
    const tls = join(this.peerOrg(org), "users", id, "tls");
    return {
      mspDir,
      certificatePath: join(mspDir, "signcerts", `${id}-cert.pem`),
      privateKeyPath: join(mspDir, "keystore", "priv_sk"),
      tlsCertificatePath: join(tls, "client.crt"),
      tlsPrivateKeyPath: join(tls, "client.key"),
    };
  }
}
