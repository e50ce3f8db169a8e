/**
 * The last readiness signal, and a helper tests share: an endorsement through an organization's Gateway service with
 * the official @hyperledger/fabric-gateway client. The chaincode's policy needs both organizations, so the gateway
 * succeeds only once it knows the other organization's peer (gossip through the anchor peers, discovery) and both
 * peers reach their chaincode servers. The endorsed transaction is never submitted: the ledger does not change.
 */
import { createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers, type ConnectOptions, type Gateway } from "@hyperledger/fabric-gateway";
import { common, gateway as gatewayProtos, msp, peer } from "@hyperledger/fabric-protos";
import type { FabricIdentity, FabricOrganization } from "./types";

export interface GatewayConnection {
  readonly client: grpc.Client;
  readonly gateway: Gateway;
  close(): void;
}

/**
 * The official client's `signer` and `hash` for a private key: an Ed25519 key signs the message itself (`hash.none`,
 * as Fabric verifies it; fabric-gateway#757), ECDSA keys its SHA-256 digest (the client's default).
 */
export function officialSigning(privateKeyPem: string): Pick<ConnectOptions, "signer" | "hash"> {
  const key = createPrivateKey(privateKeyPem);
  return {
    signer: signers.newPrivateKeySigner(key),
    ...(key.asymmetricKeyType === "ed25519" ? { hash: hash.none } : {}),
  };
}

/**
 * The official client connected to `org`'s gateway peer over TLS as `identity` (the org's client by default),
 * presenting the identity's TLS client certificate when the peer requires one.
 */
export function connectGateway(org: FabricOrganization, identity: FabricIdentity = org.client): GatewayConnection {
  const credentials = org.clientAuthRequired
    ? grpc.credentials.createSsl(
        Buffer.from(org.tlsRootCertPem),
        Buffer.from(identity.tlsPrivateKeyPem),
        Buffer.from(identity.tlsCertificatePem),
      )
    : grpc.credentials.createSsl(Buffer.from(org.tlsRootCertPem));
  const client = new grpc.Client(org.gatewayAddress, credentials, {
    "grpc.ssl_target_name_override": org.tlsServerName,
  });
  const gateway = connect({
    client,
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
    ...officialSigning(identity.privateKeyPem),
    evaluateOptions: () => ({ deadline: Date.now() + 10_000 }),
    endorseOptions: () => ({ deadline: Date.now() + 15_000 }),
    submitOptions: () => ({ deadline: Date.now() + 10_000 }),
    commitStatusOptions: () => ({ deadline: Date.now() + 60_000 }),
  });
  return {
    client,
    gateway,
    close: () => {
      gateway.close();
      client.close();
    },
  };
}

/** The MSP ids of the endorsers in a transaction envelope (serialized common.Envelope), in order. */
export function endorserMspIds(envelope: Uint8Array): string[] {
  const payload = common.Payload.deserializeBinary(common.Envelope.deserializeBinary(envelope).getPayload_asU8());
  const transaction = peer.Transaction.deserializeBinary(payload.getData_asU8());
  return transaction.getActionsList().flatMap(
    (action) =>
      peer.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8())
        .getAction()
        ?.getEndorsementsList()
        .map((e) => msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid()) ?? [],
  );
}

/**
 * Endorses `AssetExists` through `org`'s gateway and resolves to the endorsing organizations (sorted), or throws the
 * gateway's error.
 */
export async function endorseThroughGateway(
  org: FabricOrganization,
  channel: string,
  chaincode: string,
): Promise<string[]> {
  const connection = connectGateway(org);
  try {
    const proposal = connection.gateway
      .getNetwork(channel)
      .getContract(chaincode)
      .newProposal("AssetExists", { arguments: ["opsledger-readiness-probe"] });
    const transaction = await proposal.endorse();
    // getBytes() is a gateway.PreparedTransaction: {transaction_id, envelope}.
    const envelope = gatewayProtos.PreparedTransaction.deserializeBinary(transaction.getBytes()).getEnvelope();
    if (envelope === undefined) throw new Error("the gateway returned a prepared transaction without an envelope");
    return [...new Set(endorserMspIds(envelope.serializeBinary()))].sort();
  } finally {
    connection.close();
  }
}
