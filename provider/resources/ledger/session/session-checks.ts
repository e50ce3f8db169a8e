/**
 * The plain checks of what a ledger session is opened from — the gateway (its address, TLS root, visibility modes and
 * mutual TLS: client-tls.ts), the channel, the identity (ledger-signers.ts), a channel-capability assertion and the
 * trusted roots — each bad input a failure naming the field and the fix, found from the inputs alone: nothing read,
 * opened or sent (ledger-session.ts runs the checks that need more). Every PEM goes through the core's one certificate
 * parser (provider/ledger's certificateOf).
 */
import type { FieldFailure } from "../../../errors";
import { certificateOf, VISIBILITY_MODES } from "../../../ledger";
import type { Visibility } from "../../../ledger";
import type { LedgerChannelCapability } from "../ledger-shapes";
import { hasUnknown, isRecord } from "../ledger-values";
import { clientTlsFailures } from "./client-tls";
import { identityFailures } from "./ledger-signers";

/** The values of LedgerChannelCapability. */
export const CHANNEL_CAPABILITIES: readonly LedgerChannelCapability[] = ["V2_0", "V3_0"];

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** A failure unless the value is a non-blank string (or not known yet). */
export function nonEmpty(property: string, value: unknown, what: string): FieldFailure[] {
  if (hasUnknown(value)) return [];
  return typeof value === "string" && value.trim() !== "" ? [] : [{ property, reason: `is required: ${what}` }];
}

/** Failures of the `gateway` input: its address, TLS roots, mutual TLS certificate and key, and visibility modes. */
export function gatewayFailures(gateway: unknown): FieldFailure[] {
  if (!isRecord(gateway)) {
    return [{ property: "gateway", reason: "is required: { address: 'host:port', tlsRootCertPem?: PEM, ... }" }];
  }
  const reach: FieldFailure[] = [];
  const address = gateway["address"];
  const match = typeof address === "string" ? /^(\[[^\]]+\]|[^:\s[\]]+):(\d{1,5})$/.exec(address) : null;
  if (!hasUnknown(address) && match === null) {
    reach.push({
      property: "gateway.address",
      reason: "must be 'host:port' of the gateway peer, e.g. '127.0.0.1:7051'",
    });
  }
  const tls = gateway["tlsRootCertPem"];
  if (tls === undefined) {
    if (match?.[1] !== undefined && !LOOPBACK.test(match[1])) {
      reach.push({
        property: "gateway.tlsRootCertPem",
        reason: `is required for the non-loopback address '${String(address)}': the PEM of the CA that signed the gateway's TLS certificate`,
      });
    }
  } else if (!hasUnknown(tls) && certificateOf(tls) === undefined) {
    reach.push({
      property: "gateway.tlsRootCertPem",
      reason: "is not a PEM X.509 certificate; pass the CA certificate's PEM text",
    });
  }
  const modes = gateway["supportsVisibility"];
  const visibility =
    modes !== undefined &&
    !hasUnknown(modes) &&
    (!Array.isArray(modes) || modes.some((m) => !VISIBILITY_MODES.includes(m as Visibility)))
      ? [{ property: "gateway.supportsVisibility", reason: "must be a list of 'full', 'hash' or 'nothing'" }]
      : [];
  return [...reach, ...clientTlsFailures(gateway), ...visibility];
}

/**
 * A `channelCapability` that is not one. Whether the identity's key type fits the channel is decided against the
 * channel's own configuration before anything is signed (channel-capability-check.ts), `channelCapability` being an
 * optional assertion checked against it (docs/decisions/0045-channel-capabilities-read-from-the-channel.md).
 */
export function capabilityFailures(capability: unknown): FieldFailure[] {
  if (capability === undefined || hasUnknown(capability)) return [];
  if (CHANNEL_CAPABILITIES.includes(capability as LedgerChannelCapability)) return [];
  const shown = typeof capability === "string" ? capability : JSON.stringify(capability);
  return [
    {
      property: "channelCapability",
      reason: `'${shown}' is not a channel capability; use 'V3_0' for a Fabric 3 channel with V3_0 enabled, else 'V2_0', or leave it out (the channel's configuration is read)`,
    },
  ];
}

/**
 * Failures of `trustedRootCertificates`: a map of MSP id to root CA certificate PEM, which a resource needs (every
 * endorsement is verified before signing) and a read may leave out.
 */
export function trustFailures(roots: unknown, required: boolean): FieldFailure[] {
  if (hasUnknown(roots) || (!required && roots === undefined)) return [];
  if (!isRecord(roots) || (required && Object.keys(roots).length === 0)) {
    const reason = required
      ? "is required: a map of MSP id to root CA certificate PEM, used to verify every endorsement before signing"
      : "must be a map of MSP id to root CA certificate PEM";
    return [{ property: "trustedRootCertificates", reason }];
  }
  return Object.entries(roots)
    .filter(([, pem]) => certificateOf(pem) === undefined)
    .map(([msp]) => ({ property: `trustedRootCertificates.${msp}`, reason: "is not a PEM X.509 certificate" }));
}

/**
 * Every plain problem with what a session is opened from — gateway, channel, identity, channel capability, trusted
 * roots, in that order — as failures naming the field and the fix. Never throws. `trust: "required"` for a resource
 * (it verifies endorsements before signing), `"optional"` for a read.
 */
export function sessionFailures(inputs: unknown, trust: "required" | "optional"): FieldFailure[] {
  const n = isRecord(inputs) ? inputs : {};
  const channel = nonEmpty("channel", n["channel"], "the channel name, e.g. 'mychannel'");
  const capability = capabilityFailures(n["channelCapability"]);
  const roots = trustFailures(n["trustedRootCertificates"], trust === "required");
  // Each part checked once, in turn: the gateway's mutual TLS (client-tls.ts), then the identity (ledger-signers.ts).
  const gateway = gatewayFailures(n["gateway"]);
  const identity = identityFailures(n["identity"]);
  return [...gateway, ...channel, ...identity, ...capability, ...roots];
}
