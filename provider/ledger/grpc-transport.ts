/**
 * The gRPC seam: unary calls to gateway.Gateway over @grpc/grpc-js with our protobufjs codec (byte passthrough
 * serializers; encoding and decoding happen in codec.ts), per-call options from suppliers, and gRPC errors turned
 * into GatewayError with the ErrorDetail entries of grpc-status-details-bin. The ChaincodeEvents stream is in
 * chaincode-events.ts.
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "./codec";
import type { MessageCodec, MessageInit } from "./codec";
import { CommitStatusError } from "../errors/ledger/commit-status-error";
import { EndorseError } from "../errors/ledger/endorse-error";
import { GatewayError } from "../errors/ledger/gateway-error";
import type { ErrorDetail } from "./gateway-messages";
import { SubmitError } from "../errors/ledger/submit-error";

export const GATEWAY_METHODS = {
  endorse: "/gateway.Gateway/Endorse",
  submit: "/gateway.Gateway/Submit",
  commitStatus: "/gateway.Gateway/CommitStatus",
  evaluate: "/gateway.Gateway/Evaluate",
  chaincodeEvents: "/gateway.Gateway/ChaincodeEvents",
} as const;

const STATUS_DETAILS_KEY = "grpc-status-details-bin";

/** The ErrorDetail entries in a gRPC error's grpc-status-details-bin trailer (google.rpc.Status.details). */
export function parseErrorDetails(metadata: grpc.Metadata | undefined): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const value of metadata?.get(STATUS_DETAILS_KEY) ?? []) {
    if (typeof value === "string") continue;
    try {
      for (const any of codecs.RpcStatus.decode(value).details) {
        // Like the official client, decode Any.value regardless of type_url.
        details.push(codecs.ErrorDetail.decode(any.value));
      }
    } catch {
      // An unparsable trailer leaves the details it could not decode out; the gRPC message remains.
    }
  }
  return details;
}

function isServiceError(error: unknown): error is grpc.ServiceError {
  return typeof error === "object" && error !== null && "code" in error && "metadata" in error;
}

export type CallKind = "endorse" | "submit" | "commitStatus" | "evaluate";

/** What a failed call's error says: the gRPC code (UNKNOWN for anything else), its message and ErrorDetails. */
export function serviceErrorProperties(
  error: unknown,
  method: string,
): { code: number; details: ErrorDetail[]; method: string; message: string; cause: unknown } {
  const code = isServiceError(error) ? error.code : grpc.status.UNKNOWN;
  const details = isServiceError(error) ? parseErrorDetails(error.metadata) : [];
  const message = isServiceError(error) ? error.details : error instanceof Error ? error.message : String(error);
  return { code, details, method, message, cause: error };
}

/** The GatewayError subclass for a call, carrying the transaction id (EndorseError, SubmitError, ...). */
export function toGatewayError(error: unknown, method: string, kind: CallKind, transactionId: string): GatewayError {
  const properties = { ...serviceErrorProperties(error, method), transactionId };
  if (kind === "endorse") return new EndorseError(properties);
  if (kind === "submit") return new SubmitError(properties);
  if (kind === "commitStatus") return new CommitStatusError(properties);
  return new GatewayError(properties);
}

export function passthrough(value: Uint8Array): Buffer {
  return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

export function bytes(value: Buffer): Uint8Array {
  return new Uint8Array(value);
}

/**
 * One unary call of any gRPC method with request and response as bytes: the answer, or the grpc-js error (a
 * ServiceError, or an Error when no answer came) for the caller to turn into its own error.
 */
export function unaryBytes(
  client: grpc.Client,
  method: string,
  request: Uint8Array,
  callOptions: grpc.CallOptions,
): Promise<Uint8Array> {
  return new Promise<Uint8Array>((resolve, reject) => {
    client.makeUnaryRequest(
      method,
      passthrough,
      bytes,
      request,
      new grpc.Metadata(),
      callOptions,
      (error: grpc.ServiceError | null, response?: Uint8Array) => {
        if (error !== null) reject(error);
        else if (response === undefined) reject(new Error("No result returned"));
        else resolve(response);
      },
    );
  });
}

/** One unary call with typed request and response, or GatewayError. */
export async function unaryCall<Req, Res>(
  client: grpc.Client,
  kind: CallKind,
  request: MessageInit<Req>,
  requestCodec: MessageCodec<Req>,
  responseCodec: MessageCodec<Res>,
  callOptions: grpc.CallOptions,
  transactionId: string,
): Promise<Res> {
  const method = GATEWAY_METHODS[kind];
  let response: Uint8Array;
  try {
    response = await unaryBytes(client, method, requestCodec.encode(request), callOptions);
  } catch (error) {
    throw toGatewayError(error, method, kind, transactionId);
  }
  try {
    return responseCodec.decode(response, { transactionId });
  } catch (decodeError) {
    throw toGatewayError(decodeError, method, kind, transactionId);
  }
}
