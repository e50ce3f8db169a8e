/**
 * ledger.LedgerTransactionSubmission inputs and outputs, and their checks: every bad input is a failure naming the
 * field and the fix, found before anything is sent (see ledger-transaction.ts).
 */
import * as crypto from "node:crypto";
import type { FieldFailure } from "../../errors";
import { VISIBILITY_MODES } from "../../ledger";
import type { Visibility } from "../../ledger";
import { checkTimeouts } from "../common";
import type {
  LedgerBytes,
  LedgerChannelCapability,
  LedgerCredentials,
  LedgerGateway,
  LedgerTransactionShape,
} from "./ledger-shapes";
import { clientTlsFailures } from "./session/client-tls";
import type { Timeouts } from "../common";
import { identityFailures, isRecord } from "./session/session-checks";
import type { LedgerKmsInputs, LedgerPkcs11Inputs } from "./session/session-checks";

export * from "./session/session-checks";

/** The value Pulumi puts in place of an input that is not known yet (preview). */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

export type { LedgerBytes, LedgerChannelCapability };

/** The gateway (declared in ledger-shapes.ts). */
export type LedgerGatewayInputs = LedgerGateway;

export interface LedgerPayload {
  utf8: string;
  base64: string;
}

/** The values of LedgerChannelCapability. */
export const CHANNEL_CAPABILITIES: readonly LedgerChannelCapability[] = ["V2_0", "V3_0"];

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
  previewResult?: LedgerPayload;
}

/** The identity as outputs keep it: the certificate and the signer reference, never a key or a PIN. */
export interface LedgerIdentityOutputs {
  mspId: string;
  certificatePem: string;
  keyFile?: string;
  keyEnv?: string;
  pkcs11?: Omit<LedgerPkcs11Inputs, "pin">;
  kms?: LedgerKmsInputs;
}

export interface LedgerTransactionOutputs
  extends
    Omit<LedgerTransactionInputs, "gateway" | "identity" | "transientData" | "__generation" | "txId">,
    Omit<LedgerOutcome, "generation"> {
  /** The generation of the committed transaction (LedgerOutcome.generation, under its plumbing key). */
  __generation: number;
  gateway: Omit<LedgerGatewayInputs, "clientKeyPem">;
  identity: LedgerIdentityOutputs;
  /**
   * Marked secret by the SDK; read (qscc) and delete (onDestroy) sign with what they find here and in `identity`.
   * Holds the private key only for an identity given as `privateKeyPem`, the PIN only when given as a value.
   */
  credentials: LedgerCredentials;
}

/** The committed transaction a submission reports (or adopts). */
export interface LedgerOutcome {
  generation: number;
  txId: string;
  validationCode: string;
  validationCodeNumber: number;
  blockNumber: string;
  result: LedgerPayload;
  endorsers: string[];
  processedTransaction: string;
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

// ---- input checks ----

export const hasUnknown = (value: unknown): boolean => value !== undefined && JSON.stringify(value).includes(UNKNOWN);
export { isRecord };
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Whether a value is the PEM text of an X.509 certificate. */
export function parsesAsCertificate(pem: unknown): boolean {
  if (typeof pem !== "string" || !pem.includes("-----BEGIN CERTIFICATE-----")) return false;
  try {
    new crypto.X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
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

/** A failure unless the value is a non-blank string (or not known yet). */
export function nonEmpty(property: string, value: unknown, what: string): FieldFailure[] {
  if (hasUnknown(value)) return [];
  return typeof value === "string" && value.trim() !== "" ? [] : [{ property, reason: `is required: ${what}` }];
}

function booleanFailures(news: Record<string, unknown>, keys: readonly string[]): FieldFailure[] {
  return keys
    .filter((k) => news[k] !== undefined && typeof news[k] !== "boolean" && !hasUnknown(news[k]))
    .map((k) => ({ property: k, reason: "must be true or false" }));
}

/** Failures of the `gateway` input: its address, TLS roots, mutual TLS certificate and key, and visibility modes. */
export function gatewayFailures(gateway: unknown): FieldFailure[] {
  if (!isRecord(gateway)) {
    return [{ property: "gateway", reason: "is required: { address: 'host:port', tlsRootCertPem?: PEM, ... }" }];
  }
  const failures: FieldFailure[] = [];
  const address = gateway["address"];
  const match = typeof address === "string" ? /^(\[[^\]]+\]|[^:\s[\]]+):(\d{1,5})$/.exec(address) : null;
  if (!hasUnknown(address) && match === null) {
    failures.push({
      property: "gateway.address",
      reason: "must be 'host:port' of the gateway peer, e.g. '127.0.0.1:7051'",
    });
  }
  const tls = gateway["tlsRootCertPem"];
  if (tls === undefined) {
    if (match?.[1] !== undefined && !LOOPBACK.test(match[1])) {
      failures.push({
        property: "gateway.tlsRootCertPem",
        reason: `is required for the non-loopback address '${String(address)}': the PEM of the CA that signed the gateway's TLS certificate`,
      });
    }
  } else if (!hasUnknown(tls) && !parsesAsCertificate(tls)) {
    failures.push({
      property: "gateway.tlsRootCertPem",
      reason: "is not a PEM X.509 certificate; pass the CA certificate's PEM text",
    });
  }
  failures.push(...clientTlsFailures(gateway, hasUnknown));
  const modes = gateway["supportsVisibility"];
  if (modes !== undefined && !hasUnknown(modes)) {
    if (!Array.isArray(modes) || modes.some((m) => !VISIBILITY_MODES.includes(m as Visibility))) {
      failures.push({
        property: "gateway.supportsVisibility",
        reason: "must be a list of 'full', 'hash' or 'nothing'",
      });
    }
  }
  return failures;
}

/**
 * A `channelCapability` that is not one. Whether the identity's key type fits the channel is decided against the
 * channel's own configuration before anything is signed (ledger-capabilities.ts), `channelCapability` being an
 * optional assertion checked against it (docs/decisions/0045-channel-capabilities-read-from-the-channel.md).
 */
export function capabilityFailures(n: Record<string, unknown>): FieldFailure[] {
  const capability = n["channelCapability"];
  if (hasUnknown(capability)) return [];
  if (capability !== undefined && !CHANNEL_CAPABILITIES.includes(capability as LedgerChannelCapability)) {
    const shown = typeof capability === "string" ? capability : JSON.stringify(capability);
    return [
      {
        property: "channelCapability",
        reason: `'${shown}' is not a channel capability; use 'V3_0' for a Fabric 3 channel with V3_0 enabled, else 'V2_0', or leave it out (the channel's configuration is read)`,
      },
    ];
  }
  return [];
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
  failures.push(...identityFailures(n["identity"], hasUnknown), ...capabilityFailures(n));
  const orgs = n["endorsingOrganizations"];
  if (orgs !== undefined && !hasUnknown(orgs)) {
    if (!Array.isArray(orgs) || orgs.some((o) => typeof o !== "string" || o.trim() === "")) {
      failures.push({
        property: "endorsingOrganizations",
        reason: "must be a list of non-empty MSP ids, e.g. ['Org1MSP', 'Org2MSP']",
      });
    }
  }
  const visibility = n["visibility"];
  if (visibility !== undefined && !hasUnknown(visibility)) {
    const shown = typeof visibility === "string" ? visibility : JSON.stringify(visibility);
    const supported = (news.gateway?.supportsVisibility ?? ["full"]) as readonly unknown[];
    if (!VISIBILITY_MODES.includes(visibility as Visibility)) {
      failures.push({
        property: "visibility",
        reason: `'${shown}' is not a visibility mode; use 'full', 'hash' or 'nothing'`,
      });
    } else if (!supported.includes(visibility)) {
      failures.push({
        property: "visibility",
        reason: `'${shown}' requires a gateway that supports it: add it to gateway.supportsVisibility (real Fabric peers support only 'full')`,
      });
    }
  }
  const roots = n["trustedRootCertificates"];
  if (!hasUnknown(roots)) {
    if (!isRecord(roots) || Object.keys(roots).length === 0) {
      failures.push({
        property: "trustedRootCertificates",
        reason:
          "is required: a map of MSP id to root CA certificate PEM, used to verify every endorsement before signing",
      });
    } else {
      for (const [msp, pem] of Object.entries(roots)) {
        if (!parsesAsCertificate(pem))
          failures.push({ property: `trustedRootCertificates.${msp}`, reason: "is not a PEM X.509 certificate" });
      }
    }
  }
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
