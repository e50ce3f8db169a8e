import { LedgerError } from "./ledger-error";

/** What an orderer's refusal of a broadcast envelope means, as far as its words tell. */
export type BroadcastProblem =
  | "STALE_READ_SET"
  | "VERSION_CONFLICT"
  | "POLICY_NOT_SATISFIED"
  | "CHANNEL_ID_MISMATCH"
  | "UNSUPPORTED_CAPABILITY"
  | "INVALID_CONFIG"
  | "NOT_A_WRITER"
  | "CHANNEL_NOT_FOUND"
  | "UNAVAILABLE"
  | "REFUSED";

/** common.Status names of the statuses an orderer answers Broadcast with. */
export const STATUS_NAMES: Readonly<Record<number, string>> = {
  200: "SUCCESS",
  400: "BAD_REQUEST",
  403: "FORBIDDEN",
  404: "NOT_FOUND",
  413: "REQUEST_ENTITY_TOO_LARGE",
  500: "INTERNAL_SERVER_ERROR",
  501: "NOT_IMPLEMENTED",
  503: "SERVICE_UNAVAILABLE",
};

/**
 * The orderer refused an envelope (its BroadcastResponse was not SUCCESS), or the Broadcast stream failed. `status`
 * is the common.Status (0 when the stream failed before any answer), `info` the orderer's own words, `problem` what
 * they mean and the message how to fix it. `retryable` is true for a refusal that is about the orderer's state (no
 * leader yet, service unavailable), not about the envelope.
 */
export class BroadcastError extends LedgerError {
  static override readonly kind: string = "BroadcastError";
  readonly channelId: string;
  readonly orderer: string;
  readonly status: number;
  readonly info: string;
  readonly problem: BroadcastProblem;
  readonly retryable: boolean;

  constructor(
    properties: Readonly<{
      channelId: string;
      orderer: string;
      status: number;
      info: string;
      problem: BroadcastProblem;
      explanation: string;
      retryable: boolean;
      cause?: unknown;
    }>,
  ) {
    const status =
      properties.status === 0 ? "the stream failed" : (STATUS_NAMES[properties.status] ?? String(properties.status));
    super({
      message:
        `orderer ${properties.orderer} refused the envelope for channel '${properties.channelId}' (${status}: ` +
        `${properties.info}): ${properties.explanation}`,
      cause: properties.cause,
    });
    this.channelId = properties.channelId;
    this.orderer = properties.orderer;
    this.status = properties.status;
    this.info = properties.info;
    this.problem = properties.problem;
    this.retryable = properties.retryable;
  }
}
