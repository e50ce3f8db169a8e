import { LedgerError } from "./ledger-error";

/**
 * An orderer's channel participation API (its admin endpoint) refused a request or could not be reached. `status` is
 * the HTTP status (0 when no answer came), `error` the orderer's own words (its JSON `error`), the message says what
 * to do.
 */
export class ChannelParticipationError extends LedgerError {
  static override readonly kind: string = "ChannelParticipationError";
  readonly orderer: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly error: string;

  constructor(
    properties: Readonly<{
      orderer: string;
      method: string;
      path: string;
      status: number;
      error: string;
      hint: string;
      cause?: unknown;
    }>,
  ) {
    const answer = properties.status === 0 ? "no answer" : `HTTP ${String(properties.status)}`;
    super({
      message:
        `${properties.method} https://${properties.orderer}${properties.path} failed (${answer}: ${properties.error})` +
        (properties.hint === "" ? "" : `: ${properties.hint}`),
      cause: properties.cause,
    });
    this.orderer = properties.orderer;
    this.method = properties.method;
    this.path = properties.path;
    this.status = properties.status;
    this.error = properties.error;
  }
}
