/**
 * The root of every error this package throws.
 *
 * `instanceof` works across two copies of the package (for example the program's copy and the copy the dynamic
 * provider process loads): each instance carries, under a `Symbol.for` key, the kinds of every class in its
 * chain, and `Symbol.hasInstance` checks that list instead of the prototype chain.
 */
const KINDS = Symbol.for("pulumi-opsledger.error-kinds");
/** Node's util.inspect hook (`util.inspect.custom`), spelled so this module needs no Node import. */
const INSPECT = Symbol.for("nodejs.util.inspect.custom");

export interface OpsLedgerErrorProperties {
  readonly message: string;
  readonly cause?: unknown;
}

export class OpsLedgerError extends Error {
  /** The stable kind name of this class; subclasses override it. */
  static readonly kind: string = "OpsLedgerError";

  declare readonly [KINDS]: readonly string[];

  constructor(properties: Readonly<OpsLedgerErrorProperties>) {
    super(properties.message, properties.cause === undefined ? undefined : { cause: properties.cause });
    const kinds: string[] = [];
    for (let c: unknown = new.target; typeof c === "function" && c !== Error; c = Object.getPrototypeOf(c)) {
      const kind = (c as { kind?: unknown }).kind;
      if (typeof kind === "string" && !kinds.includes(kind)) kinds.push(kind);
    }
    Object.defineProperty(this, KINDS, { value: kinds, enumerable: false });
    this.name = kinds[0] ?? "OpsLedgerError";
  }

  /**
   * What util.inspect prints, and so what a CLI shows for an unhandled error (Pulumi's language host prints unhandled
   * errors with util.inspect): the one-paragraph message, not a dump of every property with its stack. The
   * properties stay on the object for programs; `cause` is left out too (it is on the object).
   */
  [INSPECT](): string {
    return `${this.name}: ${this.message}`;
  }

  static override [Symbol.hasInstance](value: unknown): boolean {
    if (typeof value !== "object" || value === null) return false;
    const kinds = (value as { [KINDS]?: unknown })[KINDS];
    return Array.isArray(kinds) && kinds.includes(this.kind);
  }
}

/** True for any error thrown by this package, from any copy of it. */
export function isOpsLedgerError(value: unknown): value is OpsLedgerError {
  return value instanceof OpsLedgerError;
}
