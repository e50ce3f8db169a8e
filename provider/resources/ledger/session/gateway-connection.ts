/**
 * The connection to a gateway peer that a session's calls go through: the gateway's settings, who signs and with what,
 * whom endorsements are verified against, and the deadlines; opened over the process's shared gRPC channel for those
 * settings (provider/runtime/gateway-channels.ts), with the client TLS key the session read (client-tls.ts).
 */
import { connect, newIdentity } from "../../../ledger";
import type { Gateway, GatewayTlsOptions, Signer } from "../../../ledger";
import { leaseGatewayChannel } from "../../../runtime/gateway-channels";
import { timeoutMs } from "../../common";
import type { Timeouts } from "../../common";
import type { LedgerGateway, LedgerIdentity } from "../ledger-shapes";

/** What a step's calls need: the gateway's settings, who signs and with what, whom to trust, the deadlines. */
export interface Connection {
  gateway: LedgerGateway;
  identity: { mspId: string; certificatePem: string };
  /** The identity's signer, opened (and checked against the certificate) for this step. */
  signer: Signer;
  trustedRootCertificates: Record<string, string>;
  timeouts?: Timeouts | undefined;
  /** The client TLS key's PEM for mutual TLS, read through its reference and checked (readClientTlsKey). */
  clientKey?: string | undefined;
}

/** A connection from a session's inputs, the opened signer and the client TLS key read for it. */
export function connectionOf(
  i: {
    gateway: LedgerGateway;
    identity: Pick<LedgerIdentity, "mspId" | "certificatePem">;
    trustedRootCertificates?: Record<string, string> | undefined;
    timeouts?: Timeouts | undefined;
  },
  signer: Signer,
  clientKey: string | undefined,
): Connection {
  return {
    gateway: i.gateway,
    identity: { mspId: i.identity.mspId, certificatePem: i.identity.certificatePem },
    signer,
    trustedRootCertificates: i.trustedRootCertificates ?? {},
    timeouts: i.timeouts,
    clientKey,
  };
}

/** The TLS settings of a connection: the gateway's root and server name, and its client certificate and key if any. */
export function gatewayTlsOf(c: Connection): GatewayTlsOptions | undefined {
  const g = c.gateway;
  if (g.tlsRootCertPem === undefined) return undefined;
  return {
    rootCertificates: g.tlsRootCertPem,
    ...(g.clientCertPem === undefined || c.clientKey === undefined
      ? {}
      : { clientCertificate: g.clientCertPem, clientPrivateKey: c.clientKey }),
    ...(g.serverNameOverride === undefined ? {} : { serverNameOverride: g.serverNameOverride }),
  };
}

/**
 * Connects to the gateway peer, with the client TLS certificate and key when the gateway names them, over the
 * process's shared channel for these settings: the Gateway's close() releases it.
 */
export function openGateway(c: Connection, step: keyof Timeouts): Gateway {
  const g = c.gateway;
  const deadlineMs = timeoutMs(c.timeouts, step);
  const tls = gatewayTlsOf(c);
  const lease = leaseGatewayChannel(g.address, tls);
  let gateway: Gateway;
  try {
    gateway = connect({
      client: lease.client,
      identity: newIdentity(c.identity.mspId, c.identity.certificatePem),
      signer: c.signer,
      trustedMsps: Object.entries(c.trustedRootCertificates).map(([mspId, pem]) => ({
        mspId,
        rootCertificates: [pem],
      })),
      supportedVisibility: g.supportsVisibility ?? ["full"],
      commitStatusOptions: () => ({ deadline: Date.now() + deadlineMs }),
    });
  } catch (error) {
    lease.release();
    throw error;
  }
  // The Gateway does not own a client it was given: its close() leaves the channel open, so close releases the lease.
  const close = gateway.close.bind(gateway);
  gateway.close = () => {
    close();
    lease.release();
  };
  return gateway;
}
