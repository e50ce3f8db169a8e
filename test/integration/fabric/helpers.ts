/**
 * Shared set-up for the Fabric sandbox tests: the official @hyperledger/fabric-gateway client connected to a
 * sandbox, raw gateway calls with @hyperledger/fabric-protos messages, and small decoding helpers.
 */
import { createHash, createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { connect, signers, type Contract, type Gateway } from "@hyperledger/fabric-gateway";
import { common, gateway as gw, google, msp, peer } from "@hyperledger/fabric-protos";
import type { FabricSandbox, SandboxIdentity } from "../../../sandbox/fabric";

export interface Connection {
  readonly client: grpc.Client;
  readonly gateway: Gateway;
  readonly contract: Contract;
  readonly identity: SandboxIdentity;
  close(): void;
}

/** Connects the official client to the sandbox as `identity` (insecure gRPC, or TLS with the given root). */
export function connectOfficial(
  sandbox: FabricSandbox,
  identity: SandboxIdentity,
  tlsRootCertPem?: string,
): Connection {
  const credentials =
    tlsRootCertPem === undefined
      ? grpc.credentials.createInsecure()
      : grpc.credentials.createSsl(Buffer.from(tlsRootCertPem));
  const client = new grpc.Client(sandbox.address, credentials);
  const gateway = connect({
    client,
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
    signer: signers.newPrivateKeySigner(createPrivateKey(identity.privateKeyPem)),
  });
  const contract = gateway.getNetwork(sandbox.channel).getContract(sandbox.chaincode);
  return {
    client,
    gateway,
    contract,
    identity,
    close: () => {
      gateway.close();
      client.close();
    },
  };
}

export function sha256(...parts: readonly Uint8Array[]): Buffer {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
}

/** Signs SHA-256(message) the way the official client does (DER, low-S). */
export async function signWith(identity: SandboxIdentity, message: Uint8Array): Promise<Uint8Array> {
  return signers.newPrivateKeySigner(createPrivateKey(identity.privateKeyPem))(sha256(message));
}

export function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** Calls a unary gateway method with raw request bytes; resolves with the response bytes or the gRPC error. */
export function callGateway(
  sandbox: FabricSandbox,
  method: "Endorse" | "Submit" | "CommitStatus" | "Evaluate",
  request: Uint8Array,
): Promise<Buffer> {
  const client = new grpc.Client(sandbox.address, grpc.credentials.createInsecure());
  return new Promise<Buffer>((resolve, reject) => {
    client.makeUnaryRequest(
      `/gateway.Gateway/${method}`,
      (b: Uint8Array) => Buffer.from(b),
      (b: Buffer) => b,
      request,
      (err, value) => {
        client.close();
        if (err !== null) reject(err);
        else if (value === undefined) reject(new Error("no response"));
        else resolve(value);
      },
    );
  });
}

/**
 * Submits envelope bytes as a client would, through the gateway's Submit: the orderer's admission, then a block of
 * their own. Resolves when the orderer accepted them (the block follows); rejects with the gateway's gRPC error.
 */
export function submitEnvelope(sandbox: FabricSandbox, envelope: Uint8Array, transactionId: string): Promise<Buffer> {
  const request = new gw.SubmitRequest();
  request.setTransactionId(transactionId);
  request.setChannelId(sandbox.channel);
  request.setPreparedTransaction(common.Envelope.deserializeBinary(envelope));
  return callGateway(sandbox, "Submit", request.serializeBinary());
}

export interface DecodedErrorDetail {
  readonly address: string;
  readonly mspId: string;
  readonly message: string;
}

/** The gateway.ErrorDetail entries of a gRPC error's grpc-status-details-bin trailer, decoded independently. */
export function errorDetailsOf(err: grpc.ServiceError): DecodedErrorDetail[] {
  const raw = err.metadata.get("grpc-status-details-bin")[0];
  if (!(raw instanceof Buffer)) return [];
  const status = google.rpc.Status.deserializeBinary(raw);
  return status.getDetailsList().map((any) => {
    const d = gw.ErrorDetail.deserializeBinary(any.getValue_asU8());
    return { address: d.getAddress(), mspId: d.getMspId(), message: d.getMessage() };
  });
}

export function isServiceError(err: unknown): err is grpc.ServiceError {
  return err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === "number";
}

/** Expects `promise` to reject with a gRPC ServiceError and returns it. */
export async function rejection(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    if (isServiceError(err)) return err;
    throw err;
  }
  throw new Error("expected the call to fail");
}

/** The MSP ids of the endorsers of a stored envelope, decoded independently. */
export function endorserMspIds(envelope: Uint8Array): string[] {
  const payload = common.Payload.deserializeBinary(common.Envelope.deserializeBinary(envelope).getPayload_asU8());
  const tx = peer.Transaction.deserializeBinary(payload.getData_asU8());
  const action = peer.ChaincodeActionPayload.deserializeBinary(tx.getActionsList()[0]!.getPayload_asU8());
  return (action.getAction()?.getEndorsementsList() ?? []).map((e) =>
    msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid(),
  );
}
