import { OpsLedgerError } from "./opsledger-error";

/** One rejected input: the property path and what is wrong with it, phrased with the fix. */
export interface FieldFailure {
  readonly property: string;
  readonly reason: string;
}

/**
 * Bad input, found before any request was sent. The message names every failing field and how to fix it.
 * `failures` has the same shape as a dynamic provider's `check` failures.
 */
export class ValidationError extends OpsLedgerError {
  static override readonly kind: string = "ValidationError";
  readonly failures: readonly FieldFailure[];
  /** What was being validated, for example "FirewallPolicyMove" or "compute.firewallPolicies.move". */
  readonly subject: string;

  constructor(properties: Readonly<{ subject: string; failures: readonly FieldFailure[] }>) {
    super({
      message: `${properties.subject}: invalid input: ${properties.failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`,
    });
    this.subject = properties.subject;
    this.failures = properties.failures;
  }
}
