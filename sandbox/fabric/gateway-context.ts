/** What the gateway service's handlers share: the channel, its ledger and committer, the peers and the faults. */
import type { ChannelConfig } from "./channel-config";
import type { Committer } from "./committer";
import { GatewayError } from "./gateway-error";
import type { Ledger } from "./ledger";
import type { ErrorDetail } from "./messages";
import type { EndorsingPeer, Visibility } from "./peer";
import type { TamperMode } from "./prepared-transaction";
import { status } from "@grpc/grpc-js";

/** The fault knobs in force (see FabricSandbox.setFaults). */
export interface Faults {
  readonly failEndorsementFor: ReadonlySet<string>;
  readonly commitDelayMs: number;
  readonly tamperPreparedTransaction: TamperMode;
}

export interface GatewayContext {
  readonly config: ChannelConfig;
  readonly ledger: Ledger;
  readonly committer: Committer;
  /** One endorsing peer per organization, in organization order; the first is the gateway's own. */
  readonly peers: readonly EndorsingPeer[];
  readonly supportsVisibility: readonly Visibility[];
  readonly faults: () => Faults;
  readonly sleep: (ms: number) => Promise<void>;
  /** A serialized identity of `creator`'s MSP other than `creator` (for the "creator" tamper mode). */
  readonly otherCreator: (creator: Buffer) => Buffer;
  /** Told of every Evaluate request that names a chaincode and function (FabricSandbox.evaluations). */
  readonly onEvaluate?: (chaincode: string, fn: string) => void;
}

export function errorDetail(peer: EndorsingPeer, message: string): ErrorDetail {
  return { address: peer.address, mspId: peer.mspId, message };
}

/** FAILED_PRECONDITION unless `channel` is the sandbox's channel. */
export function requireChannel(ctx: GatewayContext, channel: string): void {
  if (channel !== ctx.config.channel) {
    throw new GatewayError({ code: status.FAILED_PRECONDITION, message: `channel '${channel}' not found` });
  }
}
