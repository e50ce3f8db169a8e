import { LedgerError } from "./ledger-error";
import type { ErrorDetail } from "./gateway-error";

/**
 * A proposal sent to one peer's Endorser service (ProcessProposal) failed: the call itself (`code` is its gRPC
 * status, `status` undefined), or the peer answered with a response status of 400 or more (`status` and the peer's
 * `responseMessage`; `code` undefined). `address` is the peer's, `chaincodeName` and `functionName` what was asked.
 */
export class EndorserError extends LedgerError {
  static override readonly kind: string = "EndorserError";
  readonly address: string;
  readonly method: string;
  readonly chaincodeName: string;
  readonly functionName: string;
  /** The gRPC status code of a failed call; undefined when the peer answered. */
  readonly code: number | undefined;
  /** The response status the peer answered with (500 for most refusals); undefined when the call failed. */
  readonly status: number | undefined;
  /** The peer's response message, or the gRPC error's text. */
  readonly responseMessage: string;
  /** ErrorDetail entries of a failed call's grpc-status-details-bin (peers send none today). */
  readonly details: readonly ErrorDetail[];

  constructor(
    properties: Readonly<{
      address: string;
      method: string;
      chaincodeName: string;
      functionName: string;
      code?: number | undefined;
      status?: number | undefined;
      responseMessage: string;
      details?: readonly ErrorDetail[];
      transactionId?: string | undefined;
      cause?: unknown;
    }>,
  ) {
    const what = `${properties.chaincodeName} ${properties.functionName} on the peer at ${properties.address}`;
    const message =
      properties.status === undefined
        ? `${what}: ${properties.method} failed (gRPC ${String(properties.code)}): ${properties.responseMessage}`
        : `${what}: the peer answered status ${String(properties.status)}: ${properties.responseMessage}`;
    super({ message, transactionId: properties.transactionId, cause: properties.cause });
    this.address = properties.address;
    this.method = properties.method;
    this.chaincodeName = properties.chaincodeName;
    this.functionName = properties.functionName;
    this.code = properties.code;
    this.status = properties.status;
    this.responseMessage = properties.responseMessage;
    this.details = properties.details ?? [];
  }
}
