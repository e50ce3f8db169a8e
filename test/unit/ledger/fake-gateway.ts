/**
 * A scripted gateway.Gateway on 127.0.0.1:0 for the client's unit tests. It decodes requests with
 * @hyperledger/fabric-protos (not our codec), checks the client's signatures, records every call, and assembles
 * prepared transactions as Fabric's gateway does (fixtures.ts), optionally tampered.
 */
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as fp from "@hyperledger/fabric-protos";
import { Any } from "google-protobuf/google/protobuf/any_pb";
import { codecs } from "../../../provider/ledger/codec";
import { parseProposal } from "../../../provider/ledger/proposal";
import { chaincodeAction, endorse, prepare, proposalResponsePayload } from "./fixtures";
import type { PrepareOverrides, TestMember } from "./fixtures";

export interface RecordedCall {
  readonly method: string;
  readonly transactionId: string;
  /** Whether the client's signature verified (low-S, over the right bytes, with the creator's key). */
  readonly signatureValid: boolean;
}

export interface FakeGatewayOptions {
  readonly endorsers: readonly TestMember[];
  /** Tampering applied to the prepared transaction: from the built proposal to PrepareOverrides. */
  tamper?: (proposal: ReturnType<typeof parseProposal>) => PrepareOverrides;
  /** When set, Endorse fails with this gRPC code and one ErrorDetail. */
  endorseFailure?: { code: grpc.status; detail: { address: string; mspId: string; message: string } };
  commitResult?: number;
  blockNumber?: number;
  /** @default insecure */
  readonly credentials?: grpc.ServerCredentials;
  /** ChaincodeEvents: responses sent at once, then the stream stays open until cancelled, or ends with `failure`. */
  chaincodeEvents?: {
    readonly responses: readonly FakeEventsResponse[];
    readonly failure?: { code: grpc.status; detail: { address: string; mspId: string; message: string } };
  };
}

export interface FakeEventsResponse {
  readonly blockNumber: number;
  readonly events: readonly { chaincodeId: string; txId: string; eventName: string; payload: string }[];
}

/** A ChaincodeEvents call as the fake saw it, decoded with fabric-protos. */
export interface RecordedEventsCall {
  readonly request: fp.gateway.ChaincodeEventsRequest;
  readonly signatureValid: boolean;
  /** Resolves when the client cancels the stream. */
  readonly cancelled: Promise<void>;
}

export interface FakeGateway {
  readonly address: string;
  readonly calls: RecordedCall[];
  readonly eventsCalls: RecordedEventsCall[];
  readonly options: FakeGatewayOptions;
  close(): Promise<void>;
}

/** The group orders of the curves Fabric accepts (independent of provider/ledger/ecdsa.ts on purpose). */
const ORDERS: Readonly<Record<string, bigint>> = {
  prime256v1: 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n,
  secp384r1: 0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973n,
};

function isLowS(der: Uint8Array, n: bigint): boolean {
  const rLength = der[3] ?? 0;
  const sLength = der[5 + rLength] ?? 0;
  const s = BigInt(`0x${Buffer.from(der.subarray(6 + rLength, 6 + rLength + sLength)).toString("hex") || "0"}`);
  return s <= n >> 1n;
}

/** As Fabric's MSP: ECDSA low-S per curve over SHA-256, Ed25519 over the message itself. */
function verifiedBy(creator: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  try {
    const cert = fp.msp.SerializedIdentity.deserializeBinary(creator).getIdBytes_asU8();
    const key = new crypto.X509Certificate(Buffer.from(cert)).publicKey;
    if (key.asymmetricKeyType === "ed25519") return crypto.verify(null, message, key, signature);
    const n = ORDERS[key.asymmetricKeyDetails?.namedCurve ?? ""];
    return n !== undefined && isLowS(signature, n) && crypto.verify("sha256", message, key, signature);
  } catch {
    return false;
  }
}

function creatorOfPayload(payload: Uint8Array): Uint8Array {
  const header = fp.common.Payload.deserializeBinary(payload).getHeader()!;
  return fp.common.SignatureHeader.deserializeBinary(header.getSignatureHeader_asU8()).getCreator_asU8();
}

function statusError(
  code: grpc.status,
  message: string,
  detail?: { address: string; mspId: string; message: string },
): grpc.ServiceError {
  const metadata = new grpc.Metadata();
  if (detail !== undefined) {
    const d = new fp.gateway.ErrorDetail();
    d.setAddress(detail.address);
    d.setMspId(detail.mspId);
    d.setMessage(detail.message);
    const any = new Any();
    any.setTypeUrl("type.googleapis.com/gateway.ErrorDetail");
    any.setValue(d.serializeBinary());
    const status = new fp.google.rpc.Status();
    status.setCode(code);
    status.setMessage(message);
    status.setDetailsList([any]);
    metadata.set("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code, details: message, metadata });
}

export async function startFakeGateway(options: FakeGatewayOptions): Promise<FakeGateway> {
  const calls: RecordedCall[] = [];
  const eventsCalls: RecordedEventsCall[] = [];
  const committed = new Map<string, Uint8Array>();
  const server = new grpc.Server();
  const implementation: fp.gateway.IGatewayServer = {
    endorse: (call, callback) => {
      const signed = call.request.getProposedTransaction()!;
      const built = parseProposal(signed.getProposalBytes_asU8());
      const signatureValid = verifiedBy(built.creator, signed.getProposalBytes_asU8(), signed.getSignature_asU8());
      calls.push({ method: "Endorse", transactionId: call.request.getTransactionId(), signatureValid });
      if (options.endorseFailure !== undefined) {
        callback(
          statusError(options.endorseFailure.code, "failed to endorse transaction", options.endorseFailure.detail),
        );
        return;
      }
      const input = codecs.ChaincodeInvocationSpec.decode(codecs.ChaincodeProposalPayload.decode(built.payload).input);
      const fn = new TextDecoder().decode(input.chaincodeSpec?.input?.args[0]);
      const prp = proposalResponsePayload(
        built.proposalHash,
        chaincodeAction(built.chaincodeName, { payload: new TextEncoder().encode(`result of ${fn}`) }),
      );
      void Promise.all(options.endorsers.map((e) => endorse(e, prp))).then((endorsements) => {
        const envelope = prepare(built, prp, endorsements, options.tamper?.(built) ?? {});
        const response = new fp.gateway.EndorseResponse();
        response.setPreparedTransaction(fp.common.Envelope.deserializeBinary(envelope));
        callback(null, response);
      });
    },
    submit: (call, callback) => {
      const envelope = call.request.getPreparedTransaction()!;
      const payload = envelope.getPayload_asU8();
      const signatureValid = verifiedBy(creatorOfPayload(payload), payload, envelope.getSignature_asU8());
      calls.push({ method: "Submit", transactionId: call.request.getTransactionId(), signatureValid });
      committed.set(call.request.getTransactionId(), envelope.serializeBinary());
      callback(null, new fp.gateway.SubmitResponse());
    },
    commitStatus: (call, callback) => {
      const request = fp.gateway.CommitStatusRequest.deserializeBinary(call.request.getRequest_asU8());
      const signatureValid = verifiedBy(
        request.getIdentity_asU8(),
        call.request.getRequest_asU8(),
        call.request.getSignature_asU8(),
      );
      calls.push({ method: "CommitStatus", transactionId: request.getTransactionId(), signatureValid });
      const response = new fp.gateway.CommitStatusResponse();
      response.setResult((options.commitResult ?? 0) as fp.peer.TxValidationCodeMap[keyof fp.peer.TxValidationCodeMap]);
      response.setBlockNumber(options.blockNumber ?? 7);
      callback(null, response);
    },
    evaluate: (call, callback) => {
      const signed = call.request.getProposedTransaction()!;
      const built = parseProposal(signed.getProposalBytes_asU8());
      const signatureValid = verifiedBy(built.creator, signed.getProposalBytes_asU8(), signed.getSignature_asU8());
      calls.push({ method: "Evaluate", transactionId: call.request.getTransactionId(), signatureValid });
      const args =
        codecs.ChaincodeInvocationSpec.decode(codecs.ChaincodeProposalPayload.decode(built.payload).input).chaincodeSpec
          ?.input?.args ?? [];
      const text = args.map((a) => new TextDecoder().decode(a));
      const result = new fp.peer.Response();
      result.setStatus(200);
      if (built.chaincodeName === "qscc") {
        const envelope = committed.get(text[2] ?? "");
        if (envelope === undefined) {
          const message = `Failed to get transaction with id ${text[2] ?? ""}, error no such transaction ID [${text[2] ?? ""}] in index`;
          callback(
            statusError(
              grpc.status.UNKNOWN,
              `evaluate call to endorser returned error: chaincode response 500, ${message}`,
              { address: "peer0:7051", mspId: "Org1MSP", message },
            ),
          );
          return;
        }
        const processed = new fp.peer.ProcessedTransaction();
        processed.setTransactionenvelope(fp.common.Envelope.deserializeBinary(envelope));
        processed.setValidationcode(options.commitResult ?? 0);
        result.setPayload(processed.serializeBinary());
      } else {
        result.setPayload(new TextEncoder().encode(`evaluated ${text.join(" ")}`));
      }
      const response = new fp.gateway.EvaluateResponse();
      response.setResult(result);
      callback(null, response);
    },
    chaincodeEvents: (call) => {
      const request = fp.gateway.ChaincodeEventsRequest.deserializeBinary(call.request.getRequest_asU8());
      const signatureValid = verifiedBy(
        request.getIdentity_asU8(),
        call.request.getRequest_asU8(),
        call.request.getSignature_asU8(),
      );
      const cancelled = new Promise<void>((resolve) =>
        call.once("cancelled", () => {
          resolve();
        }),
      );
      eventsCalls.push({ request, signatureValid, cancelled });
      const script = options.chaincodeEvents;
      if (script === undefined) {
        call.emit("error", statusError(grpc.status.UNIMPLEMENTED, "not implemented"));
        return;
      }
      for (const r of script.responses) {
        const response = new fp.gateway.ChaincodeEventsResponse();
        response.setBlockNumber(r.blockNumber);
        response.setEventsList(
          r.events.map((e) => {
            const event = new fp.peer.ChaincodeEvent();
            event.setChaincodeId(e.chaincodeId);
            event.setTxId(e.txId);
            event.setEventName(e.eventName);
            event.setPayload(new TextEncoder().encode(e.payload));
            return event;
          }),
        );
        call.write(response);
      }
      if (script.failure !== undefined) {
        call.emit("error", statusError(script.failure.code, "chaincode events failed", script.failure.detail));
      }
    },
  };
  server.addService(fp.gateway.GatewayService, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", options.credentials ?? grpc.ServerCredentials.createInsecure(), (error, p) => {
      if (error === null) resolve(p);
      else reject(error);
    });
  });
  return {
    address: `127.0.0.1:${port}`,
    calls,
    eventsCalls,
    options,
    close: () =>
      new Promise<void>((resolve) => {
        // An events stream a failed test left open would hold tryShutdown forever.
        if (eventsCalls.length > 0) {
          server.forceShutdown();
          resolve();
          return;
        }
        server.tryShutdown(() => {
          resolve();
        });
      }),
  };
}
