import { ValidationError } from "../validation-error";

/**
 * A policy in the peer CLI's signature-policy language that does not parse: `field` is the input, `position` the
 * 1-based column where parsing stopped, `expected` what would have been accepted there and `found` what was there.
 * The one failure reads `<field>: at column N of "<text>": expected …, found …`.
 */
export class PolicySyntaxError extends ValidationError {
  static override readonly kind: string = "PolicySyntaxError";
  readonly field: string;
  readonly text: string;
  readonly position: number;
  readonly expected: string;
  readonly found: string;

  constructor(
    properties: Readonly<{
      subject: string;
      field: string;
      text: string;
      position: number;
      expected: string;
      found: string;
    }>,
  ) {
    super({
      subject: properties.subject,
      failures: [
        {
          property: properties.field,
          reason:
            `at column ${String(properties.position)} of ${JSON.stringify(properties.text)}: expected ` +
            `${properties.expected}, found ${properties.found}`,
        },
      ],
    });
    this.field = properties.field;
    this.text = properties.text;
    this.position = properties.position;
    this.expected = properties.expected;
    this.found = properties.found;
  }
}
