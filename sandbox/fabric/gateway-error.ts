/**
 * A gateway failure as Fabric's gateway reports it: a gRPC status code and message, plus one gateway.ErrorDetail
 * per failing endorser or orderer in the `grpc-status-details-bin` trailer (a google.rpc.Status whose details are
 * google.protobuf.Any values wrapping the ErrorDetail), which the official client surfaces as `error.details`.
 */
import { Metadata, status, type StatusObject } from "@grpc/grpc-js";
import type { ErrorDetail } from "./messages";
import { encode } from "./wire";

export const ERROR_DETAIL_TYPE_URL = "type.googleapis.com/gateway.ErrorDetail";
export const STATUS_DETAILS_KEY = "grpc-status-details-bin";

export class GatewayError extends Error {
  readonly code: status;
  readonly details: readonly ErrorDetail[];

  constructor(properties: Readonly<{ code: status; message: string; details?: readonly ErrorDetail[] }>) {
    super(properties.message);
    this.name = "GatewayError";
    this.code = properties.code;
    this.details = properties.details ?? [];
  }
}

/** The serialized google.rpc.Status for an error. */
export function statusDetails(error: GatewayError): Buffer {
  return encode("google.rpc.Status", {
    code: error.code,
    message: error.message,
    details: error.details.map((d) => ({ type_url: ERROR_DETAIL_TYPE_URL, value: encode("gateway.ErrorDetail", d) })),
  });
}

/** What a grpc-js handler passes to its callback (or emits on a stream) for `err`. */
export function toServerStatus(err: unknown): StatusObject {
  const error =
    err instanceof GatewayError
      ? err
      : new GatewayError({
          code: status.INTERNAL,
          message: `sandbox gateway failure: ${err instanceof Error ? err.message : String(err)}`,
        });
  const metadata = new Metadata();
  metadata.set(STATUS_DETAILS_KEY, statusDetails(error));
  return { code: error.code, details: error.message, metadata };
}
