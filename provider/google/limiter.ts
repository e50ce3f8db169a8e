/**
 * A concurrency limiter and a process-wide registry of them, keyed by service root, so every client talking to the
 * same service shares one bound on in-flight requests (Google's per-user rate limits are per service, not per client
 * object).
 */
import { abortReason } from "./delay";

export interface Limiter {
  /** The maximum number of `run` callbacks in flight at once. */
  readonly limit: number;
  readonly inFlight: number;
  /** Callers waiting for a slot. */
  readonly queued: number;
  /** Runs `task` when a slot is free. Aborting `signal` while waiting rejects with its reason and frees the place. */
  run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T>;
}

interface Waiter {
  readonly grant: () => void;
}

class ConcurrencyLimiter implements Limiter {
  #limit: number;
  #inFlight = 0;
  readonly #queue: Waiter[] = [];

  constructor(limit: number) {
    this.#limit = checkLimit(limit);
  }

  get limit(): number {
    return this.#limit;
  }

  get inFlight(): number {
    return this.#inFlight;
  }

  get queued(): number {
    return this.#queue.length;
  }

  setLimit(limit: number): void {
    this.#limit = checkLimit(limit);
    this.#drain();
  }

  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      this.#inFlight--;
      this.#drain();
    }
  }

  #acquire(signal: AbortSignal | undefined): Promise<void> {
    if (signal?.aborted === true) return Promise.reject(abortReason(signal));
    if (this.#inFlight < this.#limit && this.#queue.length === 0) {
      this.#inFlight++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        reject(abortReason(signal));
      };
      const waiter: Waiter = {
        grant: () => {
          signal?.removeEventListener("abort", onAbort);
          resolve();
        },
      };
      this.#queue.push(waiter);
      signal?.addEventListener("abort", onAbort, { once: true });
    });
  }

  #drain(): void {
    while (this.#inFlight < this.#limit) {
      const next = this.#queue.shift();
      if (next === undefined) return;
      this.#inFlight++;
      next.grant();
    }
  }
}

function checkLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1)
    throw new RangeError(`limiter limit must be a positive integer, got ${limit}`);
  return limit;
}

/** A new, unshared limiter. */
export function createLimiter(limit: number): Limiter {
  return new ConcurrencyLimiter(limit);
}

const registry = new Map<string, ConcurrencyLimiter>();

/**
 * The process-wide limiter of a service root. The latest `limit` asked for wins, so a client created with a new
 * maxConcurrentRequests setting applies it to the shared bound.
 */
export function sharedLimiter(serviceRoot: string, limit: number): Limiter {
  const existing = registry.get(serviceRoot);
  if (existing !== undefined) {
    if (existing.limit !== limit) existing.setLimit(limit);
    return existing;
  }
  const created = new ConcurrencyLimiter(limit);
  registry.set(serviceRoot, created);
  return created;
}
