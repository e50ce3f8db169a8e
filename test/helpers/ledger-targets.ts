/**
 * One test body per ledger behaviour, run against the Fabric sandbox and against a real Fabric network: a target is
 * either, behind one interface (a channel, a chaincode, each organization's gateway and identities, the trust roots).
 *
 *   for (const target of ledgerTargets()) {
 *     describe(`our gateway client (${target.label})`, function () {
 *       this.timeout(120_000);
 *       let ledger: LedgerTarget;
 *       before(async () => (ledger = await target.start()));
 *       after(() => ledger.close());
 *       it("submits VALID", async () => { ... ledger.connectOurs() ... });
 *     });
 *   }
 *
 * Both have the same shape: organizations Org1MSP and Org2MSP, the `assets` chaincode, endorsement policy "both
 * organizations" (the sandbox is started with `endorsementPolicy: "all"` over those two), TLS on. The sandbox serves
 * every organization from one gateway address (its first organization's); the network has a gateway peer each.
 * A real-network target uses the run's shared network of its release (test/helpers/fabric-network-fixture.ts, which
 * starts it when a test first asks) unless the caller asks for a network of its own or, with `start({ shared })`, for
 * a shared one of a special kind (SmartBFT; Ed25519 and P-384 organizations); a test that stops, kills or restarts
 * nodes must ask for its own (`start({ own: true })`).
 *
 * What a body reads without branching on the kind: `endorserAddress(mspId)` (the ErrorDetail address of a peer),
 * `newGrpcClient()` (raw gateway calls with the target's TLS), `qscc(fn, args)`, `readBlock(n)`, `blockHeight()`, and
 * `waitForBlock(n)` (every organization's peer has committed block n: on a network a commit status is the word of
 * the gateway's own peer only).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { connect as connectOfficialClient } from "@hyperledger/fabric-gateway";
import { common } from "@hyperledger/fabric-protos";
import { connect } from "../../provider/ledger/gateway-client";
import { newIdentity } from "../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import type { TrustedMsp } from "../../provider/ledger/cert-chain";
import type { ConnectOptions, Gateway } from "../../provider/ledger/gateway-client";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox } from "../../sandbox/fabric";
import {
  officialSigning,
  startFabricNetwork,
  type FabricConsensus,
  type FabricKeyType,
  type FabricNetwork,
  type FabricVersion,
} from "../../sandbox/fabric-network";
import { waitForBlock as waitForPeerBlock } from "./fabric-network-client";
import { SHARED_NETWORKS, findSharedNetwork, sharedFabricNetwork } from "./fabric-network-fixture";
import type { SharedNetworkName } from "./fabric-network-fixture";

/** An identity as the ledger component and our client take it. */
export interface TargetIdentity {
  readonly mspId: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

/** How to reach one organization's gateway (the component's `gateway` input has the same fields). */
export interface TargetGateway {
  readonly address: string;
  readonly tlsRootCertPem: string;
  readonly serverNameOverride?: string;
  /** The organization's client TLS certificate and key, when its peer requires one (clientAuthRequired). */
  readonly clientTls?: { readonly certificatePem: string; readonly privateKeyPem: string };
}

export interface LedgerTarget {
  /** "Fabric sandbox", "Fabric 2.5.16", ... */
  readonly label: string;
  readonly kind: "sandbox" | "fabric";
  readonly channel: string;
  readonly chaincode: string;
  /** The organizations, gateway organization first. */
  readonly organizations: readonly string[];
  /** Root CA PEM by MSP id: the component's trustedRootCertificates. */
  readonly caCertificates: Readonly<Record<string, string>>;
  /** The gateway of `mspId` (default the first organization). */
  gateway(mspId?: string): TargetGateway;
  /** A client identity of `mspId` (default the first organization). */
  client(mspId?: string): TargetIdentity;
  /** A peer identity of `mspId`, to craft endorsements with. */
  peer(mspId: string): TargetIdentity;
  /** Our gateway client (provider/ledger) connected to `mspId`'s gateway as `identity` (default its client). */
  connectOurs(options?: {
    readonly mspId?: string;
    readonly identity?: TargetIdentity;
    readonly overrides?: Partial<Omit<ConnectOptions, "identity">>;
  }): Gateway;
  /** The official @hyperledger/fabric-gateway client connected to `mspId`'s gateway as its client identity. */
  connectOfficial(mspId?: string): OfficialConnection;
  /** The address `mspId`'s peer has in the gateways' ErrorDetail entries. */
  endorserAddress(mspId: string): string;
  /** A grpc-js client to `mspId`'s gateway with its TLS settings, for raw gateway calls (the caller closes it). */
  newGrpcClient(mspId?: string): grpc.Client;
  /** qscc `fn` with `args` after the channel, evaluated by the official client through `mspId`'s gateway. */
  qscc(fn: QsccFunction, args?: readonly string[], mspId?: string): Promise<Uint8Array>;
  /** Block `blockNumber` as qscc GetBlockByNumber returns it: a serialized common.Block. */
  readBlock(blockNumber: bigint, mspId?: string): Promise<Uint8Array>;
  /** The ledger height (qscc GetChainInfo) of `mspId`'s peer. */
  blockHeight(mspId?: string): Promise<bigint>;
  /**
   * Resolves once every organization's peer has committed block `blockNumber` (a commit status is the word of the
   * gateway's own peer only). The network: each peer's deliver service. The sandbox has one ledger, committed before
   * CommitStatus answers: it resolves when the block is there and fails at once otherwise.
   */
  waitForBlock(blockNumber: bigint): Promise<void>;
  /** The sandbox behind a sandbox target (for what only a fake can show); undefined for a network. */
  readonly sandbox: FabricSandbox | undefined;
  /** The network behind a real target (to stop, kill or restart its nodes); undefined for the sandbox. */
  readonly network: FabricNetwork | undefined;
  /** Stops what start() started (a shared network stays up for the other files). */
  close(): Promise<void>;
}

export type QsccFunction =
  "GetChainInfo" | "GetBlockByNumber" | "GetBlockByHash" | "GetTransactionByID" | "GetBlockByTxID";

/** The official client's Gateway and the grpc-js client under it; close() closes both. */
export interface OfficialConnection {
  readonly gateway: ReturnType<typeof connectOfficialClient>;
  readonly client: grpc.Client;
  close(): void;
}

export interface LedgerTargetFactory {
  readonly label: string;
  readonly kind: "sandbox" | "fabric";
  /**
   * `own`: a network of this test's own even when the run shares one (required to stop or kill its nodes).
   * `batchTimeoutMs`: the orderers' BatchTimeout of an own network (a shared one keeps the default).
   * `keyTypes`: the organizations' key types of an own network (FabricNetworkOptions.keyTypes; implies `own`).
   * `consensus`: the ordering service of an own network (FabricNetworkOptions.consensus; "BFT" implies `own`).
   * `clientAuth`: peers that require client TLS certificates (implies `own`); every client of the target presents
   * its organization's client TLS certificate.
   */
  start(options?: TargetStartOptions): Promise<LedgerTarget>;
}

export interface TargetStartOptions {
  readonly own?: boolean;
  readonly batchTimeoutMs?: number;
  readonly keyTypes?: Readonly<Record<string, FabricKeyType>>;
  readonly consensus?: FabricConsensus;
  /** Peers that require client TLS certificates (FabricNetworkOptions.clientAuth; implies `own`). */
  readonly clientAuth?: boolean;
  /** The channel's capability of an own network (FabricNetworkOptions.channelCapability; implies `own`). */
  readonly channelCapability?: "V2_0" | "V3_0";
  /**
   * One of the run's shared networks of a special kind (test/helpers/fabric-network-fixture.ts's SHARED_NETWORKS,
   * of the target's release) in place of the release's plain one; the options above are then not read.
   */
  readonly shared?: SharedNetworkName;
}

const ORGANIZATIONS = ["Org1MSP", "Org2MSP"] as const;

function trustedMsps(caCertificates: Readonly<Record<string, string>>): TrustedMsp[] {
  return Object.entries(caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] }));
}

function connectWith(
  gateway: TargetGateway,
  identity: TargetIdentity,
  caCertificates: Readonly<Record<string, string>>,
  overrides: Partial<Omit<ConnectOptions, "identity">>,
): Gateway {
  return connect({
    address: gateway.address,
    tls: {
      rootCertificates: gateway.tlsRootCertPem,
      ...(gateway.serverNameOverride === undefined ? {} : { serverNameOverride: gateway.serverNameOverride }),
      ...(gateway.clientTls === undefined
        ? {}
        : { clientCertificate: gateway.clientTls.certificatePem, clientPrivateKey: gateway.clientTls.privateKeyPem }),
    },
    identity: newIdentity(identity.mspId, identity.certificatePem),
    signer: newPrivateKeySigner(identity.privateKeyPem),
    trustedMsps: trustedMsps(caCertificates),
    ...overrides,
  });
}

/** TLS credentials for `gateway`: its root, and its client certificate when the peer requires one. */
export function targetCredentials(gateway: TargetGateway): grpc.ChannelCredentials {
  const client = gateway.clientTls;
  return grpc.credentials.createSsl(
    Buffer.from(gateway.tlsRootCertPem),
    client === undefined ? null : Buffer.from(client.privateKeyPem),
    client === undefined ? null : Buffer.from(client.certificatePem),
  );
}

function grpcClientFor(gateway: TargetGateway): grpc.Client {
  return new grpc.Client(
    gateway.address,
    targetCredentials(gateway),
    gateway.serverNameOverride === undefined ? {} : { "grpc.ssl_target_name_override": gateway.serverNameOverride },
  );
}

function connectOfficialWith(gateway: TargetGateway, identity: TargetIdentity): OfficialConnection {
  const client = grpcClientFor(gateway);
  const official = connectOfficialClient({
    client,
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
    ...officialSigning(identity.privateKeyPem),
  });
  return {
    gateway: official,
    client,
    close: () => {
      official.close();
      client.close();
    },
  };
}

/** The readers every target shares, over its official-client connections. */
function qsccReaders(
  channel: string,
  connectOfficial: (mspId?: string) => OfficialConnection,
): Pick<LedgerTarget, "qscc" | "readBlock" | "blockHeight"> {
  const qscc = async (fn: QsccFunction, args: readonly string[] = [], mspId?: string): Promise<Uint8Array> => {
    const connection = connectOfficial(mspId);
    try {
      return await connection.gateway
        .getNetwork(channel)
        .getContract("qscc")
        .evaluateTransaction(fn, channel, ...args);
    } finally {
      connection.close();
    }
  };
  return {
    qscc,
    readBlock: (blockNumber, mspId) => qscc("GetBlockByNumber", [blockNumber.toString()], mspId),
    blockHeight: async (mspId) =>
      BigInt(common.BlockchainInfo.deserializeBinary(await qscc("GetChainInfo", [], mspId)).getHeight()),
  };
}

/** The signing identity in a cryptogen MSP folder (signcerts/ and keystore/ hold one file each). */
function identityInMspDir(mspId: string, mspDir: string): TargetIdentity {
  const only = (folder: string): string => {
    const files = fs.readdirSync(path.join(mspDir, folder));
    if (files.length !== 1) throw new Error(`${path.join(mspDir, folder)} holds ${files.length} files, expected one`);
    return fs.readFileSync(path.join(mspDir, folder, files[0] ?? ""), "utf8");
  };
  return { mspId, certificatePem: only("signcerts"), privateKeyPem: only("keystore") };
}

async function startSandboxTarget(): Promise<LedgerTarget> {
  const sandbox = await startFabricSandbox({ organizations: [...ORGANIZATIONS], endorsementPolicy: "all", tls: true });
  const tlsRootCertPem = sandbox.tlsRootCertPem ?? "";
  // One client and one peer identity per organization, as a real network's cryptogen material has.
  const identities = new Map<string, TargetIdentity>();
  const once = (key: string, make: () => TargetIdentity): TargetIdentity => {
    const made = identities.get(key) ?? make();
    identities.set(key, made);
    return made;
  };
  const client = (mspId: string = ORGANIZATIONS[0]): TargetIdentity =>
    once(`client ${mspId}`, () => sandbox.newClientIdentity(mspId, "User1"));
  // The server certificate names localhost (and 127.0.0.1, which Node will not take as a TLS server name).
  const gateway = (): TargetGateway => ({ address: sandbox.address, tlsRootCertPem, serverNameOverride: "localhost" });
  const connectOfficial = (mspId?: string): OfficialConnection => connectOfficialWith(gateway(), client(mspId));
  return {
    label: "Fabric sandbox",
    kind: "sandbox",
    channel: sandbox.channel,
    chaincode: sandbox.chaincode,
    organizations: ORGANIZATIONS,
    caCertificates: sandbox.caCertificates,
    gateway,
    client,
    peer: (mspId) => once(`peer ${mspId}`, () => sandbox.newPeerIdentity(mspId)),
    connectOurs: (options = {}) =>
      connectWith(
        gateway(),
        options.identity ?? client(options.mspId),
        sandbox.caCertificates,
        options.overrides ?? {},
      ),
    connectOfficial,
    // The sandbox's peers are names only (sandbox/fabric/msp.ts createOrganization).
    endorserAddress: (mspId) => `peer0.${mspId.toLowerCase()}:7051`,
    newGrpcClient: () => grpcClientFor(gateway()),
    ...qsccReaders(sandbox.channel, connectOfficial),
    waitForBlock: (blockNumber) => {
      const height = BigInt(sandbox.blocks().length);
      return height > blockNumber
        ? Promise.resolve()
        : Promise.reject(new Error(`the sandbox has no block ${String(blockNumber)} (height ${String(height)})`));
    },
    sandbox,
    network: undefined,
    close: () => sandbox.close(),
  };
}

async function startNetworkTarget(version: FabricVersion, options: TargetStartOptions): Promise<LedgerTarget> {
  const { batchTimeoutMs, keyTypes, consensus, clientAuth, channelCapability, shared } = options;
  if (shared !== undefined) {
    const wanted = SHARED_NETWORKS[shared].version;
    if (wanted !== version) throw new Error(`shared network "${shared}" runs Fabric ${wanted}, not ${version}`);
    return networkTarget(await sharedFabricNetwork(shared));
  }
  const own =
    (options.own ?? false) ||
    keyTypes !== undefined ||
    consensus === "BFT" ||
    clientAuth === true ||
    channelCapability !== undefined;
  const found = own ? undefined : await findSharedNetwork(version);
  if (found !== undefined) return networkTarget(found);
  const network = await startFabricNetwork({
    version,
    ...(batchTimeoutMs === undefined ? {} : { batchTimeoutMs }),
    ...(keyTypes === undefined ? {} : { keyTypes }),
    ...(consensus === undefined ? {} : { consensus }),
    ...(clientAuth === undefined ? {} : { clientAuth }),
    ...(channelCapability === undefined ? {} : { channelCapability }),
  });
  return networkTarget(network);
}

/**
 * A target over a running network (a handle from startFabricNetwork, or openFabricNetwork over one that `npm run
 * fabric:up` started): close() stops it only when the handle owns it.
 */
export function networkTarget(network: FabricNetwork): LedgerTarget {
  const organization = (mspId: string = ORGANIZATIONS[0]) => network.organization(mspId);
  const gateway = (mspId?: string): TargetGateway => {
    const o = organization(mspId);
    return {
      address: o.gatewayAddress,
      tlsRootCertPem: o.tlsRootCertPem,
      serverNameOverride: o.tlsServerName,
      ...(o.clientAuthRequired
        ? { clientTls: { certificatePem: o.client.tlsCertificatePem, privateKeyPem: o.client.tlsPrivateKeyPem } }
        : {}),
    };
  };
  const client = (mspId?: string): TargetIdentity => {
    const c = organization(mspId).client;
    return { mspId: c.mspId, certificatePem: c.certificatePem, privateKeyPem: c.privateKeyPem };
  };
  const connectOfficial = (mspId?: string): OfficialConnection => connectOfficialWith(gateway(mspId), client(mspId));
  return {
    label: `Fabric ${network.version}`,
    kind: "fabric",
    channel: network.channel,
    chaincode: network.chaincode,
    organizations: network.organizations.map((o) => o.mspId),
    caCertificates: network.caCertificates,
    gateway,
    client,
    peer: (mspId) => identityInMspDir(mspId, organization(mspId).peerMspDir),
    connectOurs: (options = {}) =>
      connectWith(
        gateway(options.mspId),
        options.identity ?? client(options.mspId),
        network.caCertificates,
        options.overrides ?? {},
      ),
    connectOfficial,
    endorserAddress: (mspId) => organization(mspId).gatewayAddress,
    newGrpcClient: (mspId) => grpcClientFor(gateway(mspId)),
    ...qsccReaders(network.channel, connectOfficial),
    waitForBlock: async (blockNumber) => {
      await Promise.all(network.organizations.map((o) => waitForPeerBlock(network, o.mspId, blockNumber)));
    },
    sandbox: undefined,
    network,
    // A shared network's handle is only forgotten (its owner, the global fixture, stops it).
    close: () => network.close(),
  };
}

/** The targets a ledger behaviour runs against: the sandbox and real Fabric of each release in `versions`. */
export function ledgerTargets(versions: readonly FabricVersion[] = ["2.5.16"]): LedgerTargetFactory[] {
  return [
    { label: "Fabric sandbox", kind: "sandbox", start: startSandboxTarget },
    ...versions.map((version): LedgerTargetFactory => ({
      label: `Fabric ${version}`,
      kind: "fabric",
      start: (options) => startNetworkTarget(version, options ?? {}),
    })),
  ];
}
