/**
 * What the chaincode lifecycle bodies need of a ledger target (test/helpers/ledger-targets.ts) beyond a client: each
 * organization's admin, our gateway client and an Endorser connection to its peer as that admin (optionally over a
 * grpc-js client that records every call, to prove what was sent), a chaincode server for a chaincode deployed now,
 * and on a real network the peer CLI as that admin (the oracle for what Fabric's own tools send).
 *
 * The sandbox's peers are one gRPC server: an Endorser proposal reaches the peer of the organization that signed it,
 * and any installed package runs the sandbox's assets chaincode (so its chaincode "server" is only an address in the
 * package). A real network's chaincode server is a process serving the assets contract under the new name
 * (sandbox/fabric-network/chaincode-server.ts), started for the package id its package gives.
 */
import * as grpc from "@grpc/grpc-js";
import { connectEndorser } from "../../provider/ledger/endorser-client";
import type { Endorser } from "../../provider/ledger/endorser-client";
import type { Gateway } from "../../provider/ledger/gateway-client";
import { newIdentity } from "../../provider/ledger/identity";
import type { CcaasConnection } from "../../provider/ledger/lifecycle/chaincode-package";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import { AdminTools } from "../../sandbox/fabric-network/admin-tools";
import { reserveChaincodeServer, startChaincodeServer } from "../../sandbox/fabric-network/chaincode-server";
import { readNetworkFile } from "../../sandbox/fabric-network/network-file";
import type { LedgerTarget, TargetIdentity } from "./ledger-targets";
import { targetCredentials } from "./ledger-targets";

/** The gRPC method paths a recording client saw, in order. */
export interface RecordingClient {
  readonly client: grpc.Client;
  readonly methods: string[];
}

/** A chaincode server for one organization: the connection its package names, started for a package id. */
export interface TargetChaincodeServer {
  readonly connection: CcaasConnection;
  start(packageId: string): Promise<void>;
  stop(): Promise<void>;
}

export interface LifecycleTarget {
  readonly ledger: LedgerTarget;
  /** The admin of `mspId`. */
  admin(mspId: string): TargetIdentity;
  /** A grpc-js client to `mspId`'s peer (gateway and endorser) that records the method of every unary call. */
  recordingClient(mspId: string): RecordingClient;
  /** Our gateway client to `mspId`'s gateway as `identity` (default its admin), over `client` when given. */
  adminGateway(mspId: string, options?: { readonly identity?: TargetIdentity; readonly client?: grpc.Client }): Gateway;
  /** `mspId`'s peer's Endorser service as `identity` (default its admin), over `client` when given. */
  endorser(mspId: string, options?: { readonly identity?: TargetIdentity; readonly client?: grpc.Client }): Endorser;
  /** A chaincode server for `chaincodeName` in `mspId` (a real process on a network; an address in the sandbox). */
  chaincodeServer(mspId: string, chaincodeName: string): Promise<TargetChaincodeServer>;
  /** The peer CLI as `mspId`'s admin against its peer (a real network only): its output. */
  readonly peerCli: ((mspId: string, args: readonly string[]) => Promise<string>) | undefined;
}

/** Wraps a grpc-js client so that every unary call's method path is recorded before it is made. */
export function recording(client: grpc.Client): RecordingClient {
  const methods: string[] = [];
  const original = client.makeUnaryRequest.bind(client) as (...args: unknown[]) => grpc.ClientUnaryCall;
  (client as unknown as { makeUnaryRequest: (...args: unknown[]) => grpc.ClientUnaryCall }).makeUnaryRequest = (
    ...args: unknown[]
  ) => {
    methods.push(String(args[0]));
    return original(...args);
  };
  return { client, methods };
}

export function lifecycleTarget(ledger: LedgerTarget): LifecycleTarget {
  const sandbox = ledger.sandbox;
  const network = ledger.network;
  const admins = new Map<string, TargetIdentity>();
  const admin = (mspId: string): TargetIdentity => {
    let found = admins.get(mspId);
    if (found === undefined) {
      if (sandbox !== undefined) found = sandbox.newAdminIdentity(mspId);
      else if (network !== undefined) {
        const a = network.organization(mspId).admin;
        found = { mspId, certificatePem: a.certificatePem, privateKeyPem: a.privateKeyPem };
      } else throw new Error(`${ledger.label}: neither a sandbox nor a network`);
      admins.set(mspId, found);
    }
    return found;
  };
  const recordingClient = (mspId: string): RecordingClient => recording(ledger.newGrpcClient(mspId));
  const endorser: LifecycleTarget["endorser"] = (mspId, options = {}) => {
    const identity = options.identity ?? admin(mspId);
    const gateway = ledger.gateway(mspId);
    const client =
      options.client ??
      new grpc.Client(
        gateway.address,
        targetCredentials(gateway),
        gateway.serverNameOverride === undefined ? {} : { "grpc.ssl_target_name_override": gateway.serverNameOverride },
      );
    const peer = connectEndorser({
      client,
      identity: newIdentity(identity.mspId, identity.certificatePem),
      signer: newPrivateKeySigner(identity.privateKeyPem),
    });
    const close = peer.close.bind(peer);
    // connectEndorser does not close a client it was given: close the one made here with it.
    peer.close = () => {
      close();
      if (options.client === undefined) client.close();
    };
    return peer;
  };
  const chaincodeServer: LifecycleTarget["chaincodeServer"] = async (mspId, chaincodeName) => {
    if (network === undefined) {
      // The sandbox runs its own copy of the contract for any installed package: the address is never dialled.
      return {
        connection: { address: "127.0.0.1:7052" },
        start: () => Promise.resolve(),
        stop: () => Promise.resolve(),
      };
    }
    const endpoint = await reserveChaincodeServer(network, mspId, chaincodeName);
    let name: string | undefined;
    return {
      connection: endpoint.connection,
      start: async (packageId) => {
        name = await startChaincodeServer(network, endpoint, packageId);
      },
      stop: async () => {
        if (name !== undefined) await network.stopProcess(name);
      },
    };
  };
  let peerCli: LifecycleTarget["peerCli"];
  if (network !== undefined) {
    const description = readNetworkFile(network.networkFile);
    const tools = new AdminTools(description.fabricHome);
    peerCli = async (mspId, args) => {
      const org = network.organization(mspId);
      const peerProcess = description.processes.find((p) => p.role === "peer" && p.mspId === mspId);
      if (peerProcess === undefined) throw new Error(`no peer of ${mspId} in ${network.networkFile}`);
      return tools.peer(args, {
        mspId,
        mspDir: org.admin.mspDir,
        peerAddress: org.gatewayAddress,
        peerTlsCa: org.tlsRootCertPath,
        configDir: peerProcess.cwd,
        tls: { cert: org.admin.tlsCertificatePath, key: org.admin.tlsPrivateKeyPath },
      });
    };
  }
  return {
    ledger,
    admin,
    recordingClient,
    adminGateway: (mspId, options = {}) =>
      ledger.connectOurs({
        mspId,
        identity: options.identity ?? admin(mspId),
        ...(options.client === undefined ? {} : { overrides: { client: options.client } }),
      }),
    endorser,
    chaincodeServer,
    peerCli,
  };
}
