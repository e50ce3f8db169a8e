/**
 * A channel declared from test PKI (test/unit/ledger/fixtures.ts): an orderer organization with three Raft consenters,
 * and peer organizations each with a root CA, a TLS CA, an admin (node OU admin) and a client (node OU client) — the
 * shape cryptogen gives — built with buildChannelConfig as configtxgen would.
 */
import type { Config } from "../../../../provider/ledger/config-messages";
import type { ChannelDeclaration } from "../../../../provider/ledger/channel/genesis-block";
import { buildChannelConfig } from "../../../../provider/ledger/channel/genesis-block";
import type { OrganizationDeclaration } from "../../../../provider/ledger/channel/organization-declaration";
import type { SigningIdentity } from "../../../../provider/ledger/channel/config-update-signing";
import { newMember, newOrg, newTlsServerCertificate } from "../fixtures";
import type { TestOrg } from "../fixtures";

export interface TestOrganization {
  readonly mspId: string;
  readonly ca: TestOrg;
  readonly tlsCa: TestOrg;
  readonly admin: SigningIdentity;
  readonly client: SigningIdentity;
  /** The admin's certificate and private key (PEM), for inputs that name a key as a resource's identity does. */
  readonly adminPem: { readonly certificatePem: string; readonly privateKeyPem: string };
  readonly declaration: OrganizationDeclaration;
}

export async function testOrganization(mspId: string, anchorPort = 7051): Promise<TestOrganization> {
  const ca = await newOrg(mspId);
  const tlsCa = await newOrg(mspId);
  const admin = await newMember(ca, `Admin@${mspId}`, { ou: "admin" });
  const client = await newMember(ca, `User1@${mspId}`, { ou: "client" });
  return {
    mspId,
    ca,
    tlsCa,
    admin: { identity: admin.identity, signer: admin.signer },
    client: { identity: client.identity, signer: client.signer },
    adminPem: {
      certificatePem: Buffer.from(admin.identity.credentials).toString("utf8"),
      privateKeyPem: admin.privateKeyPem,
    },
    declaration: {
      mspId,
      rootCertificates: [ca.caPem],
      tlsRootCertificates: [tlsCa.caPem],
      anchorPeers: [{ host: `peer0.${mspId.toLowerCase()}.example.com`, port: anchorPort }],
    },
  };
}

export interface TestChannel {
  readonly channelId: string;
  readonly declaration: ChannelDeclaration;
  readonly config: Config;
  readonly orderer: TestOrganization;
  readonly peers: readonly TestOrganization[];
  /** The consenters' TLS certificates (PEM), in order. */
  readonly consenterCerts: readonly string[];
}

/** A Raft channel with `peerOrgs` application organizations ("Org1MSP", "Org2MSP", ...). */
export async function testChannel(peerOrgs = 2, channelId = "testchannel"): Promise<TestChannel> {
  const orderer = await testOrganization("OrdererMSP");
  const peers = await Promise.all(
    Array.from({ length: peerOrgs }, (_v, i) => testOrganization(`Org${String(i + 1)}MSP`, 7051 + i)),
  );
  const consenterCerts = await Promise.all(
    [0, 1, 2].map(async () => (await newTlsServerCertificate(orderer.tlsCa)).certPem),
  );
  const declaration: ChannelDeclaration = {
    channelId,
    capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
    orderer: {
      consensus: "etcdraft",
      organizations: [
        {
          ...orderer.declaration,
          anchorPeers: [],
          endpoints: ["orderer0:7050", "orderer1:7050", "orderer2:7050"],
          policies: {
            Readers: { type: "Signature", rule: "OR('OrdererMSP.member')" },
            Writers: { type: "Signature", rule: "OR('OrdererMSP.member')" },
            Admins: { type: "Signature", rule: "OR('OrdererMSP.admin')" },
          },
        },
      ],
      consenters: consenterCerts.map((cert, i) => ({
        host: `orderer${String(i)}`,
        port: 7050,
        clientTlsCert: cert,
        serverTlsCert: cert,
      })),
      batchTimeout: "2s",
    },
    application: { organizations: peers.map((p) => p.declaration) },
  };
  return { channelId, declaration, config: buildChannelConfig(declaration), orderer, peers, consenterCerts };
}
