import { OpsLedgerError } from "./opsledger-error";

/** An overall deadline passed, or the caller aborted, before the work finished. */
export class DeadlineError extends OpsLedgerError {
  static override readonly kind: string = "DeadlineError";
  /** What was waited on, for example an operation name. */
  readonly target: string;
  readonly elapsedMs: number;
  /** True when an AbortSignal ended the wait rather than the deadline. */
  readonly aborted: boolean;

  constructor(
    properties: Readonly<{ target: string; elapsedMs: number; aborted: boolean; message: string; cause?: unknown }>,
  ) {
    super({ message: properties.message, cause: properties.cause });
    this.target = properties.target;
    this.elapsedMs = properties.elapsedMs;
    this.aborted = properties.aborted;
  }
}
