/**
 * What a fuzz run accepts as the end of an input: success, or a typed, readable error — an instance of the
 * package's error tree (OpsLedgerError: LedgerDecodeError, VerificationError, GatewayError, the CLI's UsageError,
 * ...), with a message. Anything else (a RangeError or TypeError from deep inside, an empty message) is a
 * finding and is thrown on as an UntypedFailure.
 */
import { OpsLedgerError } from "../../provider/errors";

/** A target's input ended in something other than success or a typed, readable error. */
export class UntypedFailure extends Error {
  constructor(readonly original: unknown) {
    super(
      original instanceof Error
        ? `${original.name}: ${original.message}`
        : `a non-Error value was thrown: ${String(original)}`,
      { cause: original },
    );
    this.name = "UntypedFailure";
  }
}

/** True for an error the package defines, with a message naming what is wrong. */
export function isTypedError(error: unknown): boolean {
  return error instanceof OpsLedgerError && error.message.trim().length > 0;
}

/** Swallows a typed error; throws anything else on as an UntypedFailure. */
export function expectTyped(error: unknown): void {
  if (!isTypedError(error)) throw new UntypedFailure(error);
}

/** Runs `body`; resolves when it succeeds or fails with a typed error. */
export async function typedOutcome(body: () => unknown): Promise<void> {
  try {
    await body();
  } catch (error) {
    expectTyped(error);
  }
}

/** One fuzz target. */
export interface FuzzTarget {
  readonly name: string;
  /** What the input bytes are. */
  readonly description: string;
  /** The modules whose block coverage the run reports (file names under provider/ledger/, or "<generated>"). */
  readonly modules: readonly string[];
  /** Feeds the input to the code under test: resolves on success, rejects with what the code threw. */
  call(input: Uint8Array): Promise<unknown>;
}

/** Runs one input: resolves for success or a typed error, rejects with UntypedFailure otherwise. */
export function runInput(target: FuzzTarget, input: Uint8Array): Promise<void> {
  return typedOutcome(() => target.call(input));
}
