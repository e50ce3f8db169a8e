/**
 * Many calls of one kind with a bound on how many are in flight: a batch's submissions, a refresh's lookups. Items
 * start in list order, at most `limit` at once; each settles on its own, so one failure neither stops the others nor
 * loses their results (unless `stopAfter` says to start no more).
 */

/** One item's outcome: the value its work resolved with, or the error it failed with. */
export type Settled<R> = { readonly ok: true; readonly value: R } | { readonly ok: false; readonly error: unknown };

export interface MapBoundedOptions<R> {
  /** Told each outcome as it settles; `true` starts no more items (those in flight still finish). */
  readonly stopAfter?: (outcome: Settled<R>) => boolean;
}

export interface MapBoundedResult<R> {
  /** Each item's outcome, in the items' order; undefined for an item never started. */
  readonly outcomes: readonly (Settled<R> | undefined)[];
  /** How many items were never started (`stopAfter` ended the starting). */
  readonly notStarted: number;
}

/**
 * Runs `work` on each of `items`, at most `limit` at once, and resolves once every started item has settled.
 * `limit` must be a whole number of at least 1 (a RangeError otherwise, before any work starts).
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
  options: MapBoundedOptions<R> = {},
): Promise<MapBoundedResult<R>> {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new RangeError(`mapBounded: limit must be a whole number of at least 1, got ${String(limit)}`);
  }
  const outcomes: (Settled<R> | undefined)[] = Array.from({ length: items.length }, () => undefined);
  let next = 0;
  let stopped = false;
  const runner = async (): Promise<void> => {
    while (!stopped && next < items.length) {
      const index = next++;
      let outcome: Settled<R>;
      try {
        outcome = { ok: true, value: await work(items[index] as T, index) };
      } catch (error) {
        outcome = { ok: false, error };
      }
      outcomes[index] = outcome;
      if (options.stopAfter?.(outcome) === true) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, runner));
  return { outcomes, notStarted: items.length - next };
}
