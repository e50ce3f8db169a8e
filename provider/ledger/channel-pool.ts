/**
 * One gRPC connection to a gateway peer per provider process and connection settings, shared by the creates, reads and
 * deletes that run in that process, instead of a new TLS handshake, HTTP/2 session and gRPC channel for each of them.
 * A `pulumi up` of many LedgerTransactions runs them all in one provider process; its CPU went mostly to opening those
 * connections, and the engine's next Check waited for that CPU (docs/benchmarks.md, "The ledger through the engine").
 *
 * Settings that differ in anything (address, TLS roots, client certificate or key, server name) get their own channel;
 * the key is a hash, so no client TLS key is kept readable. A channel that a lease leaves in TRANSIENT_FAILURE or
 * SHUTDOWN is closed and forgotten, so a broken connection is not handed to the next create (the next one connects
 * anew, as it did before channels were shared); a channel no lease has used for IDLE_CLOSE_MS is closed, with an unref'd
 * timer, so it neither holds a process open nor outlives the network it pointed at for long.
 */
import { createHash } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { newGatewayGrpcClient } from "./gateway-grpc-client";
import type { GatewayTlsOptions } from "./gateway-grpc-client";

/** How long a channel no lease uses stays open. */
export const IDLE_CLOSE_MS = 30_000;

/** A use of a shared channel: `release()` once the Gateway built on `client` is closed. */
export interface ChannelLease {
  readonly client: grpc.Client;
  release(): void;
}

interface Entry {
  readonly client: grpc.Client;
  leases: number;
  idle: NodeJS.Timeout | undefined;
}

const entries = new Map<string, Entry>();

function keyOf(address: string, tls: GatewayTlsOptions | undefined): string {
  const text = (v: string | Uint8Array | undefined) => (v === undefined ? null : Buffer.from(v).toString("base64"));
  return createHash("sha256")
    .update(
      JSON.stringify([
        address,
        text(tls?.rootCertificates),
        text(tls?.clientCertificate),
        text(tls?.clientPrivateKey),
        tls?.serverNameOverride ?? null,
      ]),
    )
    .digest("hex");
}

function broken(client: grpc.Client): boolean {
  const state = client.getChannel().getConnectivityState(false);
  return state === grpc.connectivityState.TRANSIENT_FAILURE || state === grpc.connectivityState.SHUTDOWN;
}

function forget(key: string, entry: Entry): void {
  if (entries.get(key) === entry) entries.delete(key);
  if (entry.idle !== undefined) clearTimeout(entry.idle);
  entry.client.close();
}

/**
 * A lease on the process's channel for these settings, opening it on first use. Throws ConfigError naming the setting
 * for settings no channel can be opened with (newGatewayGrpcClient's checks).
 */
export function leaseGatewayChannel(address: string, tls: GatewayTlsOptions | undefined): ChannelLease {
  const key = keyOf(address, tls);
  let entry = entries.get(key);
  if (entry !== undefined && broken(entry.client)) {
    // Leases still running keep their client; a new one gets a new connection.
    entries.delete(key);
    if (entry.leases === 0) forget(key, entry);
    entry = undefined;
  }
  if (entry === undefined) {
    entry = {
      client: newGatewayGrpcClient({ address, ...(tls === undefined ? {} : { tls }) }),
      leases: 0,
      idle: undefined,
    };
    entries.set(key, entry);
  }
  const leased = entry;
  leased.leases += 1;
  if (leased.idle !== undefined) {
    clearTimeout(leased.idle);
    leased.idle = undefined;
  }
  let released = false;
  return {
    client: leased.client,
    release() {
      if (released) return;
      released = true;
      leased.leases -= 1;
      if (leased.leases > 0) return;
      if (entries.get(key) !== leased || broken(leased.client)) {
        forget(key, leased);
        return;
      }
      leased.idle = setTimeout(() => {
        forget(key, leased);
      }, IDLE_CLOSE_MS);
      leased.idle.unref();
    },
  };
}

/** How many channels are open (for tests). */
export function openGatewayChannels(): number {
  return entries.size;
}

/** Closes every channel no lease is using now (for tests and shutdown). */
export function closeIdleGatewayChannels(): void {
  for (const [key, entry] of [...entries]) if (entry.leases === 0) forget(key, entry);
}
