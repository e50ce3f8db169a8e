/**
 * A pool of gRPC connections to gateway peers, one per connection settings, shared by the creates, reads and deletes
 * of a process instead of a new TLS handshake, HTTP/2 session and gRPC channel for each of them. A `pulumi up` of many
 * LedgerTransactions runs them all in one provider process; its CPU went mostly to opening those connections, and the
 * engine's next Check waited for that CPU (docs/benchmarks.md, "The ledger through the engine"). The provider process's
 * own pool is provider/runtime/gateway-channels.ts.
 *
 * Settings that differ in anything (address, TLS roots, client certificate or key, server name) get their own channel;
 * the key is a hash, so no client TLS key is kept readable. A channel that a lease leaves in TRANSIENT_FAILURE or
 * SHUTDOWN is closed and forgotten, so a broken connection is not handed to the next create (the next one connects
 * anew); a channel no lease has used for `idleCloseMs` is closed, with a timer that holds no process open, so it
 * neither keeps a process alive nor outlives the network it pointed at for long.
 */
import { createHash } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { newGatewayGrpcClient } from "./gateway-grpc-client";
import type { GatewayTlsOptions } from "./gateway-grpc-client";

/** How long a channel no lease uses stays open. */
export const DEFAULT_IDLE_CLOSE_MS = 30_000;

/** A timer `schedule` started: `cancel()` stops it from running. */
export interface ScheduledRun {
  cancel(): void;
}

export interface GatewayChannelPoolOptions {
  /**
   * How long a channel no lease uses stays open.
   * @default DEFAULT_IDLE_CLOSE_MS
   */
  readonly idleCloseMs?: number;
  /**
   * Runs `run` after `ms` unless cancelled first; the timer must not hold the process open (tests record the delays).
   * @default an unref'd setTimeout
   */
  readonly schedule?: (run: () => void, ms: number) => ScheduledRun;
}

/** A use of a shared channel: `release()` once the Gateway built on `client` is closed. */
export interface ChannelLease {
  readonly client: grpc.Client;
  release(): void;
}

export interface GatewayChannelPool {
  /**
   * A lease on the pool's channel for these settings, opening it on first use. Throws ConfigError naming the setting
   * for settings no channel can be opened with (newGatewayGrpcClient's checks).
   */
  lease(address: string, tls: GatewayTlsOptions | undefined): ChannelLease;
  /** How many channels are open. */
  openChannels(): number;
  /** Closes every channel no lease is using now. */
  closeIdle(): void;
}

function scheduleUnref(run: () => void, ms: number): ScheduledRun {
  const timer = setTimeout(run, ms);
  timer.unref();
  return {
    cancel() {
      clearTimeout(timer);
    },
  };
}

/** A new, empty pool. */
export function newGatewayChannelPool(options: GatewayChannelPoolOptions = {}): GatewayChannelPool {
  return new ChannelPool(options.idleCloseMs ?? DEFAULT_IDLE_CLOSE_MS, options.schedule ?? scheduleUnref);
}

interface Entry {
  readonly client: grpc.Client;
  leases: number;
  idle: ScheduledRun | undefined;
}

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

class ChannelPool implements GatewayChannelPool {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly idleCloseMs: number,
    private readonly schedule: (run: () => void, ms: number) => ScheduledRun,
  ) {}

  lease(address: string, tls: GatewayTlsOptions | undefined): ChannelLease {
    const key = keyOf(address, tls);
    let entry = this.entries.get(key);
    if (entry !== undefined && broken(entry.client)) {
      // Leases still running keep their client; a new one gets a new connection.
      this.entries.delete(key);
      if (entry.leases === 0) this.forget(key, entry);
      entry = undefined;
    }
    if (entry === undefined) {
      entry = {
        client: newGatewayGrpcClient({ address, ...(tls === undefined ? {} : { tls }) }),
        leases: 0,
        idle: undefined,
      };
      this.entries.set(key, entry);
    }
    const leased = entry;
    leased.leases += 1;
    leased.idle?.cancel();
    leased.idle = undefined;
    let released = false;
    return {
      client: leased.client,
      release: () => {
        if (released) return;
        released = true;
        leased.leases -= 1;
        if (leased.leases > 0) return;
        if (this.entries.get(key) !== leased || broken(leased.client)) {
          this.forget(key, leased);
          return;
        }
        leased.idle = this.schedule(() => {
          this.forget(key, leased);
        }, this.idleCloseMs);
      },
    };
  }

  openChannels(): number {
    return this.entries.size;
  }

  closeIdle(): void {
    for (const [key, entry] of [...this.entries]) if (entry.leases === 0) this.forget(key, entry);
  }

  private forget(key: string, entry: Entry): void {
    if (this.entries.get(key) === entry) this.entries.delete(key);
    entry.idle?.cancel();
    entry.client.close();
  }
}
