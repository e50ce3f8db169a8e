/**
 * What the channel library's tests on a real network hold in hand (set-up only, no test body): the organizations,
 * Org3MSP started, each admin as a signing identity (Org2's key held in a SoftHSM2 token, the others key files), an
 * orderer client whose Broadcast calls and Deliver streams are counted (to show that nothing was sent), and the
 * participation API's options for each orderer (the orderer organization admin's TLS pair).
 */
import { createPublicKey } from "node:crypto";
import * as fs from "node:fs";
import type * as grpc from "@grpc/grpc-js";
import type { ChannelParticipationOptions } from "../../provider/ledger/channel/channel-participation";
import type { SigningIdentity } from "../../provider/ledger/channel/config-update-signing";
import type { DeliverTarget } from "../../provider/ledger/channel/deliver-client";
import { connectOrderer } from "../../provider/ledger/channel/orderer-client";
import type { OrdererClient } from "../../provider/ledger/channel/orderer-client";
import { openHsmSigner } from "../../provider/ledger/hsm-signer";
import { newIdentity } from "../../provider/ledger/identity";
import { fabricSki } from "../../provider/ledger/signer-keys";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import {
  readNetworkFile,
  startJoiningOrganization,
  type FabricIdentityFiles,
  type FabricJoiningOrganization,
  type FabricNetwork,
  type FabricOrganization,
} from "../../sandbox/fabric-network";
import { waitForChannelLeader } from "../../sandbox/fabric-network/consensus";
import { ordererAdminFiles } from "./channel-declaration";
import { createSoftHsmToken } from "./softhsm";

export function keyFileIdentity(files: FabricIdentityFiles): SigningIdentity {
  return {
    identity: newIdentity(files.mspId, fs.readFileSync(files.certificatePath, "utf8")),
    signer: newPrivateKeySigner(fs.readFileSync(files.privateKeyPath, "utf8")),
  };
}

/** An orderer client whose Broadcast calls and Deliver streams are counted. */
export interface CountedOrderer {
  readonly client: OrdererClient;
  readonly deliver: DeliverTarget;
  readonly counts: { broadcasts: number; streams: number };
}

function counted(orderer: OrdererClient): CountedOrderer {
  const counts = { broadcasts: 0, streams: 0 };
  const grpcClient: grpc.Client = new Proxy(orderer.client, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === "makeBidiStreamRequest" && typeof value === "function")
        return (...args: unknown[]) => {
          counts.streams++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  const client: OrdererClient = {
    address: orderer.address,
    client: grpcClient,
    broadcast: (envelope, channelId) => {
      counts.broadcasts++;
      return orderer.broadcast(envelope, channelId);
    },
    close: () => {
      orderer.close();
    },
  };
  return { client, deliver: { client: grpcClient, address: orderer.address, kind: "orderer" }, counts };
}

export interface ChannelNetwork {
  readonly org1: FabricOrganization;
  readonly org2: FabricOrganization;
  readonly org3: FabricJoiningOrganization;
  readonly admins: {
    readonly org1: SigningIdentity;
    /** Org2's admin, its key in a SoftHSM2 token (PKCS#11). */
    readonly org2Hsm: SigningIdentity;
    readonly org3: SigningIdentity;
    readonly orderer: SigningIdentity;
  };
  /** A client of the first orderer. */
  readonly orderer: CountedOrderer;
  /** The participation API's options for the orderer named. */
  participation(name: string): ChannelParticipationOptions;
  /** Waits until `channelId` has a leader (Raft's, or the BFT leader every orderer names), as the network's start does. */
  waitForLeader(channelId: string, timeoutMs: number): Promise<void>;
  close(): void;
}

/** Opens what the tests need on `network` (Org3's processes started; see the module comment). */
export async function openChannelNetwork(network: FabricNetwork): Promise<ChannelNetwork> {
  const org3 = await startJoiningOrganization(network);
  const org1 = network.organization("Org1MSP");
  const org2 = network.organization("Org2MSP");
  const description = readNetworkFile(network.networkFile);
  const ordererCa = fs.readFileSync(description.ordererTlsRootCertPath, "utf8");
  const adminTls = {
    clientCertificate: fs.readFileSync(description.ordererAdminTls.certPath, "utf8"),
    clientPrivateKey: fs.readFileSync(description.ordererAdminTls.keyPath, "utf8"),
  };
  const first = network.orderers[0];
  if (first === undefined) throw new Error(`${network.networkFile} names no orderer`);
  const orderer = counted(
    connectOrderer({
      address: first.address,
      tls: { rootCertificates: ordererCa, serverNameOverride: first.tlsServerName },
    }),
  );
  const token = createSoftHsmToken("channel-admins", "8642");
  const ski = Buffer.from(fabricSki(createPublicKey(org2.admin.privateKeyPem))).toString("hex");
  token.importKey(org2.admin.privateKeyPem, ski);
  token.activate();
  const hsm = openHsmSigner({
    library: token.library,
    tokenLabel: token.label,
    pin: token.pin,
    keyId: Buffer.from(ski, "hex"),
  });
  return {
    org1,
    org2,
    org3,
    admins: {
      org1: keyFileIdentity(org1.admin),
      org2Hsm: { identity: newIdentity("Org2MSP", org2.admin.certificatePem), signer: hsm.signer },
      org3: keyFileIdentity(org3.admin),
      orderer: keyFileIdentity(ordererAdminFiles(network.dir)),
    },
    orderer,
    participation(name) {
      const o = network.orderers.find((x) => x.name === name);
      if (o === undefined) throw new Error(`no orderer ${name}`);
      return {
        adminAddress: o.adminAddress,
        tls: { rootCertificates: ordererCa, ...adminTls, serverNameOverride: o.tlsServerName },
      };
    },
    waitForLeader: (channelId, timeoutMs) =>
      waitForChannelLeader(
        network.consensus,
        network.orderers,
        ordererCa,
        { certPem: adminTls.clientCertificate, keyPem: adminTls.clientPrivateKey },
        channelId,
        {
          timeoutMs,
          abort: () => undefined,
        },
      ),
    close() {
      orderer.client.close();
      hsm.close();
      token.dispose();
    },
  };
}
