import { LedgerError } from "../ledger-error";

/**
 * A policy's text does not parse: `position` is where the parser stopped (0-based), and the message says what it
 * expected there.
 */
export class PolicyTextError extends LedgerError {
  static override readonly kind: string = "PolicyTextError";
  readonly text: string;
  readonly position: number;

  constructor(properties: Readonly<{ text: string; position: number; message: string }>) {
    super({ message: properties.message });
    this.text = properties.text;
    this.position = properties.position;
  }
}
