/**
 * The real network's channel as a declaration (provider/ledger/channel's ChannelDeclaration), read from its folder:
 * each organization from its MSP folder (cacerts/, intermediatecerts/, tlscacerts/, admincerts/: the PEM files as
 * configtxgen reads them), the orderers' consenters from their TLS and enrolment certificates, and the settings
 * sandbox/fabric-network/channel-config.ts writes into configtx.yaml — so configtxgen's genesis block of that profile
 * and buildChannelConfig of this declaration can be compared, and a test can create a channel of its own on a running
 * network's orderers.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { ChannelDeclaration } from "../../provider/ledger/channel/genesis-block";
import type { OrganizationDeclaration } from "../../provider/ledger/channel/organization-declaration";
import type { SmartBftOptions } from "../../provider/ledger/config-messages";
import { smartBftOptions } from "../../sandbox/fabric-network/channel-config";
import { NetworkLayout, ORDERER_MSP_ID, ordererName, type PeerOrgSpec } from "../../sandbox/fabric-network/topology";
import type { FabricConsensus, FabricIdentityFiles } from "../../sandbox/fabric-network";

function pems(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .sort()
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"));
}

/** An organization declared from its MSP folder (the default node OUs: cryptogen's config.yaml). */
export function mspFolderDeclaration(
  mspDir: string,
  mspId: string,
  extra: Partial<OrganizationDeclaration> = {},
): OrganizationDeclaration {
  return {
    mspId,
    rootCertificates: pems(path.join(mspDir, "cacerts")),
    intermediateCertificates: pems(path.join(mspDir, "intermediatecerts")),
    tlsRootCertificates: pems(path.join(mspDir, "tlscacerts")),
    admins: pems(path.join(mspDir, "admincerts")),
    ...extra,
  };
}

export interface NetworkChannelSettings {
  readonly channelId: string;
  readonly version: string;
  readonly consensus: FabricConsensus;
  /** Each orderer: its host name in the layout (orderer0, ...) and its listen port. */
  readonly orderers: readonly { readonly host: string; readonly port: number }[];
  /** Each peer organization with its anchor peer's port. */
  readonly peers: readonly { readonly org: PeerOrgSpec; readonly port: number }[];
  readonly batchTimeoutMs: number;
  readonly maxMessageCount: number;
  readonly raftTickIntervalMs?: number;
  readonly raftElectionTick?: number;
  readonly capabilities: ChannelDeclaration["capabilities"];
}

const signature = (rule: string) => ({ type: "Signature" as const, rule });

/** SmartBFT's options as configtx.yaml has them (channel-config.ts), in the proto's shape. */
function smartBft(batchTimeoutMs: number, maxMessageCount: number): Partial<SmartBftOptions> {
  const yaml = smartBftOptions(batchTimeoutMs, maxMessageCount);
  const out: Record<string, string | bigint> = {};
  for (const [key, value] of Object.entries(yaml)) {
    const name = key.charAt(0).toLowerCase() + key.slice(1);
    out[name] = typeof value === "number" ? BigInt(value) : value;
  }
  return out;
}

/** The channel configtx.yaml describes for a network folder (channel-config.ts's profile), as a declaration. */
export function networkChannelDeclaration(dir: string, s: NetworkChannelSettings): ChannelDeclaration {
  const layout = new NetworkLayout(dir);
  const read = (file: string) => fs.readFileSync(file, "utf8");
  const consenters = s.orderers.map((o, i) => {
    const name = ordererName(o.host);
    const tls = read(layout.ordererTls(name).cert);
    return {
      host: "127.0.0.1",
      port: o.port,
      clientTlsCert: tls,
      serverTlsCert: tls,
      ...(s.consensus === "BFT"
        ? { id: i + 1, mspId: ORDERER_MSP_ID, identity: read(layout.ordererSigncert(name)) }
        : {}),
    };
  });
  const id = ORDERER_MSP_ID;
  return {
    channelId: s.channelId,
    fabricVersion: s.version,
    capabilities: s.capabilities,
    orderer: {
      consensus: s.consensus,
      organizations: [
        mspFolderDeclaration(layout.ordererOrgMsp(), id, {
          endpoints: s.orderers.map((o) => `127.0.0.1:${String(o.port)}`),
          policies: {
            Readers: signature(`OR('${id}.member')`),
            Writers: signature(`OR('${id}.member')`),
            Admins: signature(`OR('${id}.admin')`),
          },
        }),
      ],
      consenters,
      batchTimeout: `${String(s.batchTimeoutMs)}ms`,
      batchSize: {
        maxMessageCount: s.maxMessageCount,
        absoluteMaxBytes: 10 * 1024 * 1024,
        preferredMaxBytes: 2 * 1024 * 1024,
      },
      ...(s.consensus === "BFT"
        ? { smartBftOptions: smartBft(s.batchTimeoutMs, s.maxMessageCount) }
        : {
            etcdRaftOptions: {
              tickInterval: `${String(s.raftTickIntervalMs ?? 200)}ms`,
              electionTick: s.raftElectionTick ?? 10,
              heartbeatTick: 1,
              maxInflightBlocks: 5,
              snapshotIntervalSize: 16 * 1024 * 1024,
            },
          }),
    },
    application: {
      organizations: s.peers.map((p) =>
        mspFolderDeclaration(layout.orgMsp(p.org), p.org.mspId, { anchorPeers: [{ host: "127.0.0.1", port: p.port }] }),
      ),
    },
  };
}

/** The signing files of the orderer organization's admin (cryptogen's users/Admin@example.com). */
export function ordererAdminFiles(dir: string): FabricIdentityFiles {
  const tls = new NetworkLayout(dir).ordererAdminTls();
  const user = path.dirname(path.dirname(tls.cert));
  const mspDir = path.join(user, "msp");
  return {
    mspId: ORDERER_MSP_ID,
    mspDir,
    certificatePath: path.join(mspDir, "signcerts", `${path.basename(user)}-cert.pem`),
    privateKeyPath: path.join(mspDir, "keystore", "priv_sk"),
    tlsCertificatePath: tls.cert,
    tlsPrivateKeyPath: tls.key,
  };
}
