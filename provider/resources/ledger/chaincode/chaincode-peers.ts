/**
 * A peer's own Endorser service as an organization's admin: what an installation talks to (InstallChaincode and
 * QueryInstalledChaincodes are channelless proposals no gateway forwards) and what an approval asks whether its
 * package is installed. Connected over the process's shared gRPC channel for the peer's settings (the one a gateway of
 * the same address and TLS uses, provider/runtime/gateway-channels.ts), with the peer's own client TLS key for mutual
 * TLS (session/client-tls.ts, its failures named after the peer's input). The installation's session is this: the
 * signer opened and checked against the certificate, the peer connected, no channel.
 */
import { ConfigError, LedgerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { newIdentity } from "../../../ledger";
import type { Signer } from "../../../ledger";
import { connectEndorser } from "../../../ledger/endorser-client";
import type { Endorser } from "../../../ledger/endorser-client";
import { leaseGatewayChannel } from "../../../runtime/gateway-channels";
import { messageOf } from "../../common";
import type { LedgerIdentity, LedgerReadGateway } from "../ledger-shapes";
import { underPeer } from "./chaincode-inputs";
import { checkedClientTlsKey, clientTlsRefusal, readClientTlsKey } from "../session/client-tls";
import { connectionOf, gatewayTlsOf } from "../session/gateway-connection";
import { openLedgerSigner, signerCheckFailure } from "../session/ledger-signers";

/**
 * An Endorser for `peer` signing as `identity` with `signer` (opened by the caller). Throws ConfigError naming
 * `field`'s client TLS key when it cannot be read; nothing is sent.
 */
export function openPeer(
  peer: LedgerReadGateway,
  identity: Pick<LedgerIdentity, "mspId" | "certificatePem">,
  signer: Signer,
  field: string,
): Endorser {
  let clientKey: string | undefined;
  try {
    clientKey = readClientTlsKey(peer);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError({ setting: underPeer(error.setting, field), message: underPeer(error.message, field) });
  }
  const lease = leaseGatewayChannel(
    peer.address,
    gatewayTlsOf(connectionOf({ gateway: peer, identity }, signer, clientKey)),
  );
  let endorser: Endorser;
  try {
    endorser = connectEndorser({
      address: peer.address,
      client: lease.client,
      identity: newIdentity(identity.mspId, identity.certificatePem),
      signer,
    });
  } catch (error) {
    lease.release();
    throw error;
  }
  // The Endorser does not own a client it was given: closing it releases the lease.
  const close = endorser.close.bind(endorser);
  endorser.close = () => {
    close();
    lease.release();
  };
  return endorser;
}

/** Endorsers for each of `peers` (closed together), signing as `identity` with `signer`. */
export function openPeers(
  peers: readonly LedgerReadGateway[],
  identity: Pick<LedgerIdentity, "mspId" | "certificatePem">,
  signer: Signer,
  field: (index: number) => string,
): { readonly endorsers: readonly Endorser[]; close(): void } {
  const endorsers: Endorser[] = [];
  const close = (): void => {
    for (const e of endorsers) e.close();
  };
  try {
    peers.forEach((p, i) => endorsers.push(openPeer(p, identity, signer, field(i))));
  } catch (error) {
    close();
    throw error;
  }
  return { endorsers, close };
}

/**
 * A check's channelless session: the peer's client TLS key read, the signer opened and checked against the
 * certificate, each refusal a failure naming its field; else `then` with the peer's Endorser, closed after.
 */
export async function checkPeerSession<T>(
  peer: LedgerReadGateway,
  identity: LedgerIdentity,
  field: string,
  then: (endorser: Endorser) => Promise<T>,
): Promise<T | { readonly failures: FieldFailure[] }> {
  const tls = checkedClientTlsKey(peer);
  if ("failures" in tls) {
    return { failures: tls.failures.map((f) => ({ property: underPeer(f.property, field), reason: f.reason })) };
  }
  let opened: Awaited<ReturnType<typeof openLedgerSigner>>;
  try {
    opened = await openLedgerSigner(identity);
  } catch (error) {
    return { failures: [signerCheckFailure(identity, error)] };
  }
  try {
    const endorser = openPeer(peer, identity, opened.signer, field);
    try {
      return await then(endorser);
    } finally {
      endorser.close();
    }
  } catch (error) {
    const refusal = clientTlsRefusal(error, peer);
    if (refusal === undefined) throw error;
    return { failures: [{ property: `${field}.clientCertPem`, reason: underPeer(refusal, field) }] };
  } finally {
    opened.close();
  }
}

/**
 * A step's channelless session: the signer opened and checked (a refusal a LedgerError naming `subject`, nothing
 * sent), the peer connected, `work`, all closed. A refused TLS handshake names the peer's client certificate.
 */
export async function withPeerSession<T>(
  peer: LedgerReadGateway,
  identity: LedgerIdentity,
  subject: string,
  work: (endorser: Endorser) => Promise<T>,
): Promise<T> {
  let opened: Awaited<ReturnType<typeof openLedgerSigner>>;
  try {
    opened = await openLedgerSigner(identity);
  } catch (error) {
    throw new LedgerError({ message: `${subject}: the signer cannot be used, nothing was sent: ${messageOf(error)}` });
  }
  try {
    const endorser = openPeer(peer, identity, opened.signer, "peer");
    try {
      return await work(endorser);
    } finally {
      endorser.close();
    }
  } catch (error) {
    const refusal = clientTlsRefusal(error, peer);
    if (refusal === undefined) throw error;
    throw new LedgerError({ message: `${subject}: ${underPeer(refusal, "peer")}; nothing was sent`, cause: error });
  } finally {
    opened.close();
  }
}
