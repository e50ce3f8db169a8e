/**
 * The channel-capability check of every ledger resource and data source: before anything is signed for ordering — at
 * check, so in preview too, and again before a step that submits (a cached answer then) — the channel's capabilities
 * are read from the channel through the gateway with the session's identity (provider/ledger/channel-capabilities.ts),
 * and an identity whose key type the channel cannot accept, or a `channelCapability` assertion the channel disagrees
 * with, is a failure naming the field, what the channel has, and the fix. A channel the identity may not read falls
 * back to the assertion, with a warning saying so (docs/decisions/0045-channel-capabilities-read-from-the-channel.md).
 */
import { createHash } from "node:crypto";
import { ChannelCapabilityError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { certificateOf, keyTypeOf, resolveChannelCapabilities } from "../../../ledger";
import type { ChannelCapabilityResolution, Gateway } from "../../../ledger";
import { log } from "../../../runtime/context";
import type { LedgerChannelCapability, LedgerGateway } from "../ledger-shapes";
import { clientTlsRefusal } from "./client-tls";

/** What the check needs of a session's inputs (all known). */
export interface CapabilityCheckInputs {
  gateway: LedgerGateway;
  channel: string;
  identity: { certificatePem: string };
  channelCapability?: LedgerChannelCapability | undefined;
}

/** The network a gateway reaches, for the per-process cache: its address, TLS root and server name, hashed. */
export function gatewayNetworkKey(g: LedgerGateway): string {
  return createHash("sha256")
    .update(JSON.stringify([g.address, g.tlsRootCertPem ?? null, g.serverNameOverride ?? null]))
    .digest("hex");
}

/**
 * The channel-capability check over an open `gateway` (signed with the inputs' identity): undefined when the identity
 * may be used on the channel, else the failure naming the field. A fallback to the assertion is logged as a warning on
 * `urn`. Errors other than the check's own (the gateway unreachable with nothing asserted…) are failures too.
 */
export async function capabilityFailure(
  gateway: Gateway,
  inputs: CapabilityCheckInputs,
  urn?: string,
): Promise<FieldFailure | undefined> {
  const key = certificateOf(inputs.identity.certificatePem)?.publicKey;
  const keyType = key === undefined ? undefined : keyTypeOf(key);
  if (keyType === undefined) return undefined; // identityFailures named it already
  let resolution: ChannelCapabilityResolution;
  try {
    resolution = await resolveChannelCapabilities(gateway, {
      channelId: inputs.channel,
      keyType,
      asserted: inputs.channelCapability,
      network: gatewayNetworkKey(inputs.gateway),
    });
  } catch (error) {
    if (!(error instanceof ChannelCapabilityError)) throw error;
    // A peer that refused the TLS handshake answered nothing: name the client certificate, not the capability.
    const refusal = error.problem === "UNREADABLE" ? clientTlsRefusal(error.cause, inputs.gateway) : undefined;
    if (refusal !== undefined) return { property: "gateway.clientCertPem", reason: refusal };
    return { property: error.field, reason: error.message };
  }
  if (resolution.notice !== undefined) log("warning", resolution.notice, urn);
  return undefined;
}
