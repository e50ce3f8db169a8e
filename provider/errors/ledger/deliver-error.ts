import { LedgerError } from "./ledger-error";

/**
 * A Deliver stream (an orderer's or a peer's) ended without what was asked: a status other than SUCCESS (NOT_FOUND:
 * no such channel on that node; FORBIDDEN: the identity may not read it; SERVICE_UNAVAILABLE), a failed stream, or the
 * wait's deadline. `status` is the common.Status (0 when the stream failed or the deadline passed).
 */
export class DeliverError extends LedgerError {
  static override readonly kind: string = "DeliverError";
  readonly channelId: string;
  readonly node: string;
  readonly status: number;
  /** True for an answer about the node's state (SERVICE_UNAVAILABLE, a stream UNAVAILABLE), not about the request. */
  readonly retryable: boolean;

  constructor(
    properties: Readonly<{
      channelId: string;
      node: string;
      status: number;
      message: string;
      retryable?: boolean;
      cause?: unknown;
    }>,
  ) {
    super({ message: properties.message, cause: properties.cause });
    this.channelId = properties.channelId;
    this.node = properties.node;
    this.status = properties.status;
    this.retryable = properties.retryable ?? false;
  }
}
