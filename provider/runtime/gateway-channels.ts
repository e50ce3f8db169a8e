/**
 * The process's gateway connections: one pool (provider/ledger/channel-pool.ts) that the ledger resources' creates,
 * reads and deletes, and the ledger data sources, share for as long as the provider (or program) process runs.
 */
import { newGatewayChannelPool } from "../ledger/channel-pool";
import type { ChannelLease } from "../ledger/channel-pool";
import type { GatewayTlsOptions } from "../ledger/gateway-grpc-client";

const channels = newGatewayChannelPool();

/** A lease on the process's channel for these settings (GatewayChannelPool.lease). */
export function leaseGatewayChannel(address: string, tls: GatewayTlsOptions | undefined): ChannelLease {
  return channels.lease(address, tls);
}
