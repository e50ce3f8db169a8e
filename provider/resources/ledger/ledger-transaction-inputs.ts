/**
 * ledger.LedgerTransactionSubmission inputs and outputs, and their checks: every bad input is a failure naming the
 * field and the fix, found before anything is sent (see ledger-transaction.ts). What the session is opened from is
 * checked by the session's own checks (session/session-checks.ts), in the order a reader meets the fields.
 */
import type { FieldFailure } from "../../errors";
import { VISIBILITY_MODES } from "../../ledger";
import type { Visibility } from "../../ledger";
import { checkTimeouts } from "../common";
import type { Timeouts } from "../common";
import type { LedgerOutcome, LedgerTransactionShape } from "./ledger-shapes";
import { hasUnknown, isRecord } from "./ledger-values";
import { identityFailures } from "./session/ledger-signers";
import { capabilityFailures, gatewayFailures, nonEmpty, trustFailures } from "./session/session-checks";
import type { SessionOutputs } from "./session/ledger-session";

/** The inputs as the provider gets them: the shape (ledger-shapes.ts), its plumbing, and what check sets. */
export interface LedgerTransactionInputs extends Omit<LedgerTransactionShape, "timeouts"> {
  /** Plumbing (decision 0007): the resource's URN, which the nonce is derived from. `resourceUrn` in 0.1 state. */
  __urn: string;
  timeouts?: Timeouts;
  /**
   * Plumbing set by check: the generation of the transaction (bumped when a transaction input changes). `generation` in
   * 0.1 state; the SDK shows it as the `generation` output.
   */
  __generation?: number;
  /** State written by 0.1 only: an HMAC of the transaction inputs keyed by the private key. Read, never written. */
  transactionDigest?: string;
  /** Set by check: the txId the next submission uses. */
  txId?: string;
  /** Set by check when previewEndorse: the simulated chaincode response. */
  previewResult?: LedgerOutcome["result"];
}

/** The outputs: the inputs without transient data, the gateway and identity as the state keeps them, the outcome. */
export interface LedgerTransactionOutputs
  extends
    Omit<LedgerTransactionInputs, "gateway" | "identity" | "transientData" | "__generation" | "txId">,
    Omit<LedgerOutcome, "generation">,
    SessionOutputs {
  /** The generation of the committed transaction (LedgerOutcome.generation, under its plumbing key). */
  __generation: number;
}

/**
 * Inputs or outputs written before the plumbing moved under `__` keys (`resourceUrn`, `generation`), read as today's
 * shape: the same URN and generation, so the txId, and so the transaction on the ledger, stay the same.
 */
export function fromLegacyLedgerState<T extends { __urn?: string; __generation?: number }>(props: T): T {
  const legacy = props as T & { resourceUrn?: string; generation?: number };
  if (legacy.__urn !== undefined || legacy.resourceUrn === undefined) return props;
  const { resourceUrn, generation, ...rest } = legacy;
  return { ...rest, __urn: resourceUrn, ...(generation === undefined ? {} : { __generation: generation }) } as T;
}

function bytesFailures(property: string, value: unknown): FieldFailure[] {
  if (typeof value === "string") return [];
  if (isRecord(value) && typeof value["base64"] === "string") {
    const b64 = value["base64"];
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(b64) && b64.length % 4 === 0) return [];
    return [{ property, reason: "{ base64 } must hold standard base64 text (A-Z, a-z, 0-9, +, /, = padding)" }];
  }
  return [{ property, reason: "must be a string (sent as UTF-8) or { base64: string } (bytes)" }];
}

/** Failures of a list of chaincode arguments (strings or `{ base64 }`), each named by its index. */
export function argsFailures(property: string, args: unknown): FieldFailure[] {
  if (args === undefined || hasUnknown(args)) return [];
  if (!Array.isArray(args)) return [{ property, reason: "must be a list of strings or { base64: string } objects" }];
  return args.flatMap((a, i) => bytesFailures(`${property}[${String(i)}]`, a));
}

/** Failures of `endorsingOrganizations`: a list of non-empty MSP ids, when given. */
export function organizationsFailures(orgs: unknown): FieldFailure[] {
  if (orgs === undefined || hasUnknown(orgs)) return [];
  if (Array.isArray(orgs) && orgs.every((o) => typeof o === "string" && o.trim() !== "")) return [];
  return [
    { property: "endorsingOrganizations", reason: "must be a list of non-empty MSP ids, e.g. ['Org1MSP', 'Org2MSP']" },
  ];
}

function visibilityFailures(visibility: unknown, gateway: unknown): FieldFailure[] {
  if (visibility === undefined || hasUnknown(visibility)) return [];
  const shown = typeof visibility === "string" ? visibility : JSON.stringify(visibility);
  if (!VISIBILITY_MODES.includes(visibility as Visibility)) {
    return [{ property: "visibility", reason: `'${shown}' is not a visibility mode; use 'full', 'hash' or 'nothing'` }];
  }
  const supported = (isRecord(gateway) ? gateway["supportsVisibility"] : undefined) ?? ["full"];
  if (Array.isArray(supported) && supported.includes(visibility)) return [];
  return [
    {
      property: "visibility",
      reason: `'${shown}' requires a gateway that supports it: add it to gateway.supportsVisibility (real Fabric peers support only 'full')`,
    },
  ];
}

function booleanFailures(news: Record<string, unknown>, keys: readonly string[]): FieldFailure[] {
  return keys
    .filter((k) => news[k] !== undefined && typeof news[k] !== "boolean" && !hasUnknown(news[k]))
    .map((k) => ({ property: k, reason: "must be true or false" }));
}

/** Every problem with the inputs, as check failures (property + reason naming the fix). Never throws. */
export function ledgerTransactionInputFailures(news: Partial<LedgerTransactionInputs>): FieldFailure[] {
  const n = news as Record<string, unknown>;
  const failures: FieldFailure[] = [
    ...gatewayFailures(n["gateway"]),
    ...nonEmpty("channel", n["channel"], "the channel name, e.g. 'mychannel'"),
    ...nonEmpty("chaincode", n["chaincode"], "the chaincode name, e.g. 'basic'"),
    ...nonEmpty("function", n["function"], "the chaincode function to invoke, e.g. 'CreateAsset'"),
    ...argsFailures("args", n["args"]),
  ];
  const transient = n["transientData"];
  if (transient !== undefined && !hasUnknown(transient)) {
    if (!isRecord(transient))
      failures.push({ property: "transientData", reason: "must be a map of key to string or { base64 }" });
    else for (const [k, v] of Object.entries(transient)) failures.push(...bytesFailures(`transientData.${k}`, v));
  }
  failures.push(
    ...identityFailures(n["identity"]),
    ...capabilityFailures(n["channelCapability"]),
    ...organizationsFailures(n["endorsingOrganizations"]),
    ...visibilityFailures(n["visibility"], n["gateway"]),
    ...trustFailures(n["trustedRootCertificates"], true),
  );
  const onDestroy = n["onDestroy"];
  if (onDestroy !== undefined && !hasUnknown(onDestroy)) {
    if (!isRecord(onDestroy)) failures.push({ property: "onDestroy", reason: "must be { function, args? }" });
    else {
      failures.push(...nonEmpty("onDestroy.function", onDestroy["function"], "the compensating chaincode function"));
      failures.push(...argsFailures("onDestroy.args", onDestroy["args"]));
    }
  }
  failures.push(...booleanFailures(n, ["allowInvalid", "previewEndorse"]), ...checkTimeouts(n["timeouts"]));
  return failures;
}
