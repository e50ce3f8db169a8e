import { LedgerError } from "./ledger-error";

/** One failing endorser or orderer, from google.rpc.Status.details (gateway.ErrorDetail). */
export interface ErrorDetail {
  readonly address: string;
  readonly mspId: string;
  readonly message: string;
}

export interface GatewayErrorProperties {
  code: number;
  details: readonly ErrorDetail[];
  method: string;
  message: string;
  transactionId?: string | undefined;
  cause?: unknown;
}

/**
 * A gRPC call to the gateway failed. `details` are the per-endorser/orderer ErrorDetail entries from the
 * grpc-status-details-bin trailer (google.rpc.Status); `code` is the gRPC status code.
 */
export class GatewayError extends LedgerError {
  static override readonly kind: string = "GatewayError";
  readonly code: number;
  readonly details: readonly ErrorDetail[];
  /** The gRPC method, for example "/gateway.Gateway/Endorse". */
  readonly method: string;

  constructor(properties: Readonly<GatewayErrorProperties>) {
    const details = properties.details.map((d) => `${d.mspId}@${d.address}: ${d.message}`).join("; ");
    super({
      message: `${properties.method} failed (gRPC ${properties.code}): ${properties.message}${details === "" ? "" : ` [${details}]`}`,
      transactionId: properties.transactionId,
      cause: properties.cause,
    });
    this.code = properties.code;
    this.details = properties.details;
    this.method = properties.method;
  }
}
