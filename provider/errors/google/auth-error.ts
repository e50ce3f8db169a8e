import { OpsLedgerError } from "../opsledger-error";
import { redactText, redactUrl } from "./redact";

/**
 * Obtaining an access token failed at a token service (OAuth 2.0, STS, IAM Credentials, metadata server). Carries no
 * credential material: the URL is stripped of its query and every text is redacted. The client turns it into an
 * ApiError naming the endpoint call that needed the token.
 */
export class AuthError extends OpsLedgerError {
  static override readonly kind: string = "AuthError";
  /** The token service URL, without query, or "" when the failure happened before any request. */
  readonly tokenUrl: string;
  /** 0 when no response arrived. */
  readonly httpStatus: number;
  /** An OAuth error code (invalid_grant), a Google reason, or a network error code. */
  readonly reason: string | undefined;
  readonly rpcStatus: string | undefined;
  readonly serverMessage: string;

  constructor(
    properties: Readonly<{
      tokenUrl: string;
      httpStatus: number;
      reason?: string | undefined;
      rpcStatus?: string | undefined;
      serverMessage: string;
    }>,
  ) {
    const serverMessage = redactText(properties.serverMessage);
    const url = properties.tokenUrl === "" ? "" : redactUrl(properties.tokenUrl);
    const status = [
      properties.httpStatus === 0 ? undefined : String(properties.httpStatus),
      properties.rpcStatus,
      properties.reason,
    ]
      .filter((s) => s !== undefined)
      .join(" ");
    super({
      message: `could not obtain an access token${url === "" ? "" : ` from ${url}`}${status === "" ? "" : ` (${status})`}: ${serverMessage}`,
    });
    this.tokenUrl = url;
    this.httpStatus = properties.httpStatus;
    this.reason = properties.reason;
    this.rpcStatus = properties.rpcStatus;
    this.serverMessage = serverMessage;
  }
}
