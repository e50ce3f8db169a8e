/**
 * Pacing to a per-minute rate quota. Google counts requests per quota group and project in synchronized windows (a
 * minute for Compute: a project that reaches its limit at 10:00:15 is refilled at 10:01:00) and rejects the rest with
 * RATE_LIMIT_EXCEEDED (429 RESOURCE_EXHAUSTED, or Compute's 403 rateLimitExceeded), naming the quota in ErrorInfo
 * metadata (`quota_metric`, `quota_limit`, `quota_limit_value`, `quota_unit`) and, with RetryInfo or Retry-After,
 * when it refills.
 *
 * Retrying each rejected request on its own backoff wastes requests and, with hundreds of callers, ends in failures
 * once their attempts run out. A pacer instead holds every request of the quota group until the window refills and
 * then lets through at most the limit per window, in arrival order. It is shared by every client of the process
 * (one per service root and quota), because the quota is the project's, not a client object's: Pulumi runs the
 * resources of a stack in one dynamic-provider process per provider, so all the moves of a `pulumi up` share one.
 * Another process spending the same quota causes more rejections, and each one re-synchronizes the pacer.
 *
 * Reservations are computed synchronously from a clock (no timers of its own), so tests replay them exactly.
 */

/** The window Google counts a rate quota over when the error does not say (`quota_unit` "1/min/{project}"). */
export const DEFAULT_QUOTA_WINDOW_MS = 60_000;
/** The shortest hold after a rejection, however short the server's delay (a Retry-After of 0 must not spin). */
export const MIN_QUOTA_HOLD_MS = 1_000;

/** What a rate-limit rejection said about the quota. */
export interface RateLimitNotice {
  /** The server's wait until the refill (RetryInfo or Retry-After), when it gave one. */
  readonly serverDelayMs?: number | undefined;
  /** ErrorInfo metadata.quota_metric, e.g. "compute.googleapis.com/write_requests". */
  readonly quotaMetric?: string | undefined;
  /** ErrorInfo metadata.quota_limit, e.g. "WriteRequestsPerMinutePerProject". */
  readonly quotaLimit?: string | undefined;
  /** ErrorInfo metadata.quota_limit_value: requests per window. */
  readonly limitPerWindow?: number | undefined;
  /** The window, from quota_unit ("1/min/{project}" = 60 s, "1/s/..." = 1 s, "1/100s/..." = 100 s). */
  readonly windowMs?: number | undefined;
}

/** Reads a rate-limit notice from ErrorInfo metadata and the server's delay. */
export function rateLimitNotice(
  metadata: Readonly<Record<string, string>>,
  serverDelayMs: number | undefined,
): RateLimitNotice {
  const value = Number(metadata["quota_limit_value"]);
  return {
    serverDelayMs,
    quotaMetric: metadata["quota_metric"],
    quotaLimit: metadata["quota_limit"],
    limitPerWindow: Number.isInteger(value) && value > 0 ? value : undefined,
    windowMs: quotaUnitWindowMs(metadata["quota_unit"]),
  };
}

/** The window of a quota unit such as "1/min/{project}", "1/d/{project}", "1/100s/{project}/{user}". */
export function quotaUnitWindowMs(unit: string | undefined): number | undefined {
  const m = /^1\/(\d*)(s|min|h|d)\b/.exec(unit ?? "");
  if (m === null) return undefined;
  const count = m[1] === undefined || m[1] === "" ? 1 : Number(m[1]);
  const unitMs = { s: 1000, min: 60_000, h: 3_600_000, d: 86_400_000 }[m[2] as "s" | "min" | "h" | "d"];
  return count * unitMs;
}

export interface QuotaPacerOptions {
  /** @default Date.now */
  readonly now?: () => number;
}

/** One quota group's pacer. */
export class QuotaPacer {
  readonly #now: () => number;
  /** Nothing is sent before this instant (the refill the server announced). */
  #blockedUntil = 0;
  #windowStart = 0;
  #windowMs = DEFAULT_QUOTA_WINDOW_MS;
  #limit: number | undefined;
  #admitted = 0;
  #notice: RateLimitNotice = {};
  #rejections = 0;

  constructor(options: QuotaPacerOptions = {}) {
    this.#now = options.now ?? Date.now;
  }

  /** The latest rejection's description of the quota. */
  get notice(): RateLimitNotice {
    return this.#notice;
  }

  /** The limit per window, once a rejection has told it. */
  get limitPerWindow(): number | undefined {
    return this.#limit;
  }

  /** When the last rejection said the quota refills (0 before any). */
  get refillsAt(): number {
    return this.#blockedUntil;
  }

  /** Rejections seen so far. */
  get rejections(): number {
    return this.#rejections;
  }

  /**
   * Records a rejection: nothing more is sent until the refill (the server's delay, else a whole window), and from then
   * on at most the limit per window.
   */
  reject(notice: RateLimitNotice): void {
    const now = this.#now();
    this.#rejections++;
    this.#notice = notice;
    if (notice.windowMs !== undefined) this.#windowMs = notice.windowMs;
    if (notice.limitPerWindow !== undefined) this.#limit = notice.limitPerWindow;
    // Before the announced refill, a rejection answers a request sent in the same window (before the pacer held the
    // group): it changes nothing. After it, the count was wrong (another process spends the quota too): re-synchronize.
    if (now < this.#blockedUntil) return;
    this.#blockedUntil = now + Math.max(MIN_QUOTA_HOLD_MS, notice.serverDelayMs ?? this.#windowMs);
    this.#windowStart = this.#blockedUntil;
    this.#admitted = 0;
  }

  /**
   * Reserves the next place: the instant at which this request may be sent (now, when nothing holds it). Each call
   * takes one place, so concurrent callers are let through in the order they asked, at most the limit per window.
   */
  reserve(): number {
    const now = this.#now();
    const at = Math.max(now, this.#blockedUntil);
    // Unknown limit: everything waits for the refill, then goes (a new rejection blocks again).
    if (this.#limit === undefined) return at;
    if (at >= this.#windowStart + this.#windowMs) {
      // Whole windows have passed since the last reservation: start the window that holds `at`.
      const skipped = Math.floor((at - this.#windowStart) / this.#windowMs);
      this.#windowStart += skipped * this.#windowMs;
      this.#admitted = 0;
    }
    if (this.#admitted >= this.#limit) {
      this.#windowStart += this.#windowMs;
      this.#admitted = 0;
    }
    this.#admitted++;
    return Math.max(at, this.#windowStart);
  }
}

const pacers = new Map<string, QuotaPacer>();
const endpointPacers = new Map<string, Set<QuotaPacer>>();

function quotaKey(serviceRoot: string, notice: RateLimitNotice): string {
  return `${serviceRoot}|${notice.quotaMetric ?? ""}|${notice.quotaLimit ?? ""}`;
}

/**
 * The process-wide pacer of the quota a rejection names, remembered as governing `endpointId` at `serviceRoot` from now
 * on (the quota groups of an API are learned from its rejections).
 */
export function sharedQuotaPacer(
  serviceRoot: string,
  endpointId: string,
  notice: RateLimitNotice,
  options: QuotaPacerOptions = {},
): QuotaPacer {
  const key = quotaKey(serviceRoot, notice);
  let pacer = pacers.get(key);
  if (pacer === undefined) {
    pacer = new QuotaPacer(options);
    pacers.set(key, pacer);
  }
  const endpointKey = `${serviceRoot}|${endpointId}`;
  let set = endpointPacers.get(endpointKey);
  if (set === undefined) {
    set = new Set();
    endpointPacers.set(endpointKey, set);
  }
  set.add(pacer);
  return pacer;
}

/** The pacers that govern an endpoint at a service root (none until it has been rate limited). */
export function pacersFor(serviceRoot: string, endpointId: string): readonly QuotaPacer[] {
  return [...(endpointPacers.get(`${serviceRoot}|${endpointId}`) ?? [])];
}

/** Forgets every pacer (tests). */
export function clearQuotaPacers(): void {
  pacers.clear();
  endpointPacers.clear();
}
