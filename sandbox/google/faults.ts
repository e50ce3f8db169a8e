/**
 * Fault injection: rules matched per request, a seeded PRNG for `rate`, and the errors a "status" fault sends.
 */
import { errorInfo, googleError, resourceExhausted, retryInfo, unavailable, type ApiMethod } from "./google-errors";
import type { GoogleFailure } from "./results";
import { SandboxInputError } from "./sandbox-input-error";
import type { FaultRule } from "./types";

/** Status of a "status" fault without one. */
export const DEFAULT_FAULT_STATUS = 503;
/** Delay of a "latency" fault without latencyMs. */
export const DEFAULT_FAULT_LATENCY_MS = 1000;
/** Fault PRNG seed when the options give none. */
export const DEFAULT_FAULT_SEED = 1;

/** mulberry32: small, fast and deterministic; returns floats in [0, 1). */
export function createPrng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Throws SandboxInputError for a rule that cannot work. */
export function validateFaultRule(rule: FaultRule, index: number): void {
  const fail = (message: string): never => {
    throw new SandboxInputError({ operation: "setFaults", message: `rule ${index}: ${message}` });
  };
  if (!["status", "drop", "latency", "corruptChecksum"].includes(rule.kind)) {
    fail(`kind must be "status", "drop", "latency" or "corruptChecksum"`);
  }
  if (rule.rate !== undefined && !(rule.rate >= 0 && rule.rate <= 1)) fail(`rate must be between 0 and 1`);
  if (rule.times !== undefined && !(Number.isInteger(rule.times) && rule.times >= 0))
    fail(`times must be an integer >= 0`);
  const phase: string | undefined = rule.phase; // rules also arrive as JSON on the control plane
  if (phase !== undefined && phase !== "before" && phase !== "after") fail(`phase must be "before" or "after"`);
  if (rule.status !== undefined && !(Number.isInteger(rule.status) && rule.status >= 400 && rule.status <= 599)) {
    fail(`status must be an HTTP error status (400..599)`);
  }
  if (rule.latencyMs !== undefined && !(Number.isFinite(rule.latencyMs) && rule.latencyMs >= 0)) {
    fail(`latencyMs must be >= 0`);
  }
  if (
    rule.retryAfterSeconds !== undefined &&
    !(Number.isInteger(rule.retryAfterSeconds) && rule.retryAfterSeconds >= 0)
  ) {
    fail(`retryAfterSeconds must be an integer >= 0`);
  }
  if (rule.retryInfoDelay !== undefined && !/^[0-9]+(\.[0-9]{1,9})?s$/.test(rule.retryInfoDelay)) {
    fail(`retryInfoDelay must be a duration such as "2s"`);
  }
}

/** A rule that fired, with how it is written in the request log. */
export interface FiredFault {
  readonly rule: FaultRule;
  readonly phase: "before" | "after";
  /** "status:503:before", "drop:after", "latency:200". */
  readonly label: string;
}

export class FaultInjector {
  private rules: { rule: FaultRule; remaining: number }[] = [];
  private random: () => number;

  constructor(private readonly seed: number) {
    this.random = createPrng(seed);
  }

  set(rules: readonly FaultRule[]): void {
    rules.forEach(validateFaultRule);
    this.rules = rules.map((rule) => ({ rule: { ...rule }, remaining: rule.times ?? Number.POSITIVE_INFINITY }));
  }

  clear(): void {
    this.rules = [];
  }

  /** Clears the rules and restarts the PRNG from the seed. */
  reset(): void {
    this.clear();
    this.random = createPrng(this.seed);
  }

  /** The first matching rule that fires for this request, if any (its `times` budget is spent). */
  pick(routeId: string, method: string): FiredFault | undefined {
    for (const entry of this.rules) {
      const { rule } = entry;
      if (rule.route !== undefined && rule.route !== routeId) continue;
      if (rule.method !== undefined && rule.method.toUpperCase() !== method) continue;
      if (entry.remaining <= 0) continue;
      const rate = rule.rate ?? 1;
      if (rate < 1 && this.random() >= rate) continue;
      entry.remaining -= 1;
      const phase = rule.phase ?? "before";
      const label =
        rule.kind === "status"
          ? `status:${rule.status ?? DEFAULT_FAULT_STATUS}:${phase}`
          : rule.kind === "drop"
            ? `drop:${phase}`
            : rule.kind === "corruptChecksum"
              ? "corruptChecksum"
              : `latency:${rule.latencyMs ?? DEFAULT_FAULT_LATENCY_MS}`;
      return { rule, phase, label };
    }
    return undefined;
  }
}

/** The Google error a "status" fault sends. */
export function faultError(rule: FaultRule, api: ApiMethod): GoogleFailure {
  const status = rule.status ?? DEFAULT_FAULT_STATUS;
  const retryAfter =
    rule.retryAfterSeconds === undefined ? undefined : { "retry-after": String(rule.retryAfterSeconds) };
  if (status === 429) {
    return resourceExhausted(api, {
      ...(rule.reason === undefined ? {} : { reason: rule.reason }),
      ...(rule.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: rule.retryAfterSeconds }),
      ...(rule.retryInfoDelay === undefined ? {} : { retryInfoDelay: rule.retryInfoDelay }),
    });
  }
  const base =
    status === 503
      ? unavailable()
      : googleError({ httpStatus: status, message: `Injected fault: HTTP ${status}.`, reason: "backendError" });
  const details = [...base.details];
  if (rule.reason !== undefined) {
    details.push(errorInfo(rule.reason, "googleapis.com", { service: api.service, method: api.method }));
  }
  if (rule.retryInfoDelay !== undefined) details.push(retryInfo(rule.retryInfoDelay));
  return {
    ...base,
    details,
    ...(retryAfter === undefined ? {} : { headers: { ...base.headers, ...retryAfter } }),
  };
}
