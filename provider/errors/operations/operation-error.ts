import { OpsLedgerError } from "../opsledger-error";
import {
  describeOperation,
  formatComputeFailure,
  formatNeitherFailure,
  formatRpcStatusFailure,
} from "./operation-format";
import type { ComputeOperationErrorItem, ComputeOperationWarning, RpcStatus } from "./operation-failure-types";

export interface OperationErrorProperties {
  /** "compute" for compute#operation (status DONE with errors), "longrunning" for google.longrunning.Operation. */
  readonly kind: "compute" | "longrunning";
  readonly operationName?: string | undefined;
  /** The waiter's target ("move of firewall policy 123"), for the message. */
  readonly target?: string | undefined;
  /** Compute: the HTTP status the operation failed with. */
  readonly httpErrorStatusCode?: number | undefined;
  /** Compute: the HTTP status text, for example "FORBIDDEN". */
  readonly httpErrorMessage?: string | undefined;
  /** Compute: error.errors[], each with code, location, message and errorDetails. */
  readonly errors?: readonly ComputeOperationErrorItem[] | undefined;
  /** Long-running: the google.rpc.Status; absent when the operation was done with neither response nor error. */
  readonly status?: RpcStatus | undefined;
  /** Compute: the operation's warnings[]. */
  readonly warnings?: readonly ComputeOperationWarning[] | undefined;
  readonly cause?: unknown;
}

/**
 * An operation finished and reported failure (or, for a long-running operation, finished without an outcome).
 * The message renders every error and detail on one screen (operation-format.ts); the fields keep the data as sent.
 * Note: the instance field `kind` is the operation's kind; the static `OperationError.kind` is the error's kind.
 */
export class OperationError extends OpsLedgerError {
  static override readonly kind: string = "OperationError";
  readonly kind: "compute" | "longrunning";
  readonly operationName: string | undefined;
  readonly target: string | undefined;
  readonly httpErrorStatusCode: number | undefined;
  readonly httpErrorMessage: string | undefined;
  readonly errors: readonly ComputeOperationErrorItem[];
  readonly status: RpcStatus | undefined;
  readonly warnings: readonly ComputeOperationWarning[];

  constructor(properties: OperationErrorProperties) {
    const subject = describeOperation(properties.operationName, properties.target);
    const errors = properties.errors ?? [];
    const warnings = properties.warnings ?? [];
    let message: string;
    if (properties.kind === "compute") {
      message = formatComputeFailure({
        subject,
        httpErrorStatusCode: properties.httpErrorStatusCode,
        httpErrorMessage: properties.httpErrorMessage,
        errors,
        warnings,
      });
    } else {
      message =
        properties.status === undefined
          ? formatNeitherFailure(subject)
          : formatRpcStatusFailure(subject, properties.status);
    }
    super({ message, cause: properties.cause });
    this.kind = properties.kind;
    this.operationName = properties.operationName;
    this.target = properties.target;
    this.httpErrorStatusCode = properties.httpErrorStatusCode;
    this.httpErrorMessage = properties.httpErrorMessage;
    this.errors = errors;
    this.status = properties.status;
    this.warnings = warnings;
  }
}
