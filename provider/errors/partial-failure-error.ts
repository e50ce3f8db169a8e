import { OpsLedgerError } from "./opsledger-error";

/**
 * A create or update that made part of its effect: the resource's `id`, the outputs to record (`properties`) and the
 * `reasons` the engine shows. Both faces hand it to the engine as ErrorResourceInitFailed, which records the outputs
 * with the error, so the next `pulumi up` is an update from them
 * (docs/decisions/0047-partial-failure-as-resource-init-failed.md).
 */
export class PartialFailureError extends OpsLedgerError {
  static override readonly kind: string = "PartialFailureError";
  /** The resource's id: never empty. */
  readonly id: string;
  /** The outputs of what was done, as a success would return them. */
  readonly properties: Readonly<Record<string, unknown>>;
  /** What the engine shows in place of the message: a summary first, then each failure. */
  readonly reasons: readonly string[];

  constructor(
    properties: Readonly<{
      message: string;
      id: string;
      properties: Readonly<Record<string, unknown>>;
      reasons: readonly string[];
      cause?: unknown;
    }>,
  ) {
    super({ message: properties.message, cause: properties.cause });
    this.id = properties.id;
    this.properties = properties.properties;
    this.reasons = properties.reasons;
  }
}
