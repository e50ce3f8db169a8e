/**
 * Deliver: blocks of a channel streamed from an orderer (AtomicBroadcast/Deliver) or a peer (protos.Deliver/Deliver;
 * a peer sends a block once it has committed it), asked for with a signed DELIVER_SEEK_INFO envelope as `peer channel
 * fetch` asks. On top: one block, the newest configuration block, and the wait for the configuration block that
 * follows an update. Every wait is bounded: the call's deadline comes from a supplier (default DEFAULT_DELIVER_TIMEOUT_MS)
 * and an AbortSignal ends it early.
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "../codec";
import { newGatewayGrpcClient } from "../gateway-grpc-client";
import type { GatewayTlsOptions } from "../gateway-grpc-client";
import type { SeekPosition } from "../gateway-messages";
import { bytes, passthrough } from "../grpc-transport";
import { serializeIdentity } from "../identity";
import type { Block } from "../messages";
import { newNonce } from "../proposal";
import { HeaderType } from "../unwrap";
import { STATUS_NAMES } from "../../errors/ledger/broadcast-error";
import { lastConfigIndexOf, readConfigBlock } from "./config-block";
import type { ConfigBlock } from "./config-block";
import { signAs } from "./config-update-signing";
import type { SigningIdentity } from "./config-update-signing";
import { DeliverError } from "../../errors/ledger/deliver-error";

export const DELIVER_METHODS = {
  orderer: "/orderer.AtomicBroadcast/Deliver",
  peer: "/protos.Deliver/Deliver",
} as const;

/** How long a Deliver call may take by default (a configuration block follows an update within a batch timeout). */
export const DEFAULT_DELIVER_TIMEOUT_MS = 60_000;
/** The first pause before a node that answered SERVICE_UNAVAILABLE is asked again, then doubled. */
export const DELIVER_RETRY_DELAY_MS = 250;
export const DELIVER_RETRY_MAX_DELAY_MS = 2_000;

const DELIVER_SEEK_INFO = 5;
const MAX_BLOCK = 0xffffffffffffffffn;

/** A node to stream blocks from. */
export interface DeliverTarget {
  readonly client: grpc.Client;
  /** For messages. */
  readonly address: string;
  readonly kind: keyof typeof DELIVER_METHODS;
}

/** A Deliver client of its own to one node (close it when done). */
export function connectDeliver(options: {
  readonly address: string;
  readonly kind: DeliverTarget["kind"];
  /** Insecure only to a loopback address. */
  readonly tls?: GatewayTlsOptions;
}): DeliverTarget & { close(): void } {
  const client = newGatewayGrpcClient({
    address: options.address,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    settings: options.kind === "peer" ? "peer" : "orderer",
  });
  return {
    client,
    address: options.address,
    kind: options.kind,
    close: () => {
      client.close();
    },
  };
}

export interface DeliverOptions {
  /** Who asks: a member of the channel's Readers. */
  readonly reader: SigningIdentity;
  /** SHA-256 of the client's TLS certificate, for a node that requires client certificates (mutual TLS). */
  readonly tlsCertHash?: Uint8Array;
  /** Per-call options. @default a deadline DEFAULT_DELIVER_TIMEOUT_MS from the call */
  readonly callOptions?: () => grpc.CallOptions;
  readonly signal?: AbortSignal;
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** The pause between asking again (tests record it). @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
}

type Position = bigint | "newest" | "oldest";

function position(p: Position): SeekPosition {
  if (p === "newest") return { newest: {} };
  if (p === "oldest") return { oldest: {} };
  return { specified: { number: p } };
}

async function seekEnvelope(
  channelId: string,
  start: Position,
  stop: Position,
  options: DeliverOptions,
): Promise<Uint8Array> {
  const now = (options.now ?? (() => new Date()))();
  const channelHeader = codecs.ChannelHeader.encode({
    type: DELIVER_SEEK_INFO,
    channelId,
    timestamp: { seconds: BigInt(Math.floor(now.getTime() / 1000)), nanos: (now.getTime() % 1000) * 1_000_000 },
    ...(options.tlsCertHash === undefined ? {} : { tlsCertHash: options.tlsCertHash }),
  });
  const signatureHeader = codecs.SignatureHeader.encode({
    creator: serializeIdentity(options.reader.identity),
    nonce: newNonce(),
  });
  const data = codecs.SeekInfo.encode({ start: position(start), stop: position(stop), behavior: 0 });
  const payload = codecs.Payload.encode({ header: { channelHeader, signatureHeader }, data });
  return codecs.Envelope.encode({ payload, signature: await signAs(options.reader, payload) });
}

function deadlineMs(callOptions: grpc.CallOptions): number {
  const deadline = callOptions.deadline;
  if (deadline instanceof Date) return deadline.getTime();
  return typeof deadline === "number" ? deadline : Number.POSITIVE_INFINITY;
}

/**
 * Streams the blocks from `start` to `stop` (inclusive; "newest" is the node's newest when it answers), calling
 * `onBlock` with each until it returns true (done) or the stream ends with SUCCESS. A node that answers
 * SERVICE_UNAVAILABLE (an orderer whose channel has no leader yet, right after it was created or its leader died) or
 * whose stream is UNAVAILABLE is asked again after DELIVER_RETRY_DELAY_MS, doubling to DELIVER_RETRY_MAX_DELAY_MS,
 * within the first call's deadline. Rejects with DeliverError for any other status, a failed stream, the deadline or
 * the signal.
 */
export async function deliverBlocks(
  target: DeliverTarget,
  channelId: string,
  range: { readonly start: Position; readonly stop: Position | "max" },
  options: DeliverOptions,
  onBlock: (block: Block) => boolean,
): Promise<void> {
  const first = options.callOptions?.() ?? { deadline: new Date(Date.now() + DEFAULT_DELIVER_TIMEOUT_MS) };
  const until = deadlineMs(first);
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let pause = DELIVER_RETRY_DELAY_MS;
  for (let callOptions = first; ; callOptions = { ...first, deadline: until }) {
    try {
      await deliverOnce(target, channelId, range, options, onBlock, callOptions);
      return;
    } catch (error) {
      if (!(error instanceof DeliverError) || !error.retryable || Date.now() + pause >= until) throw error;
      if (options.signal?.aborted === true) throw error;
      await sleep(pause);
      pause = Math.min(pause * 2, DELIVER_RETRY_MAX_DELAY_MS);
    }
  }
}

async function deliverOnce(
  target: DeliverTarget,
  channelId: string,
  range: { readonly start: Position; readonly stop: Position | "max" },
  options: DeliverOptions,
  onBlock: (block: Block) => boolean,
  callOptions: grpc.CallOptions,
): Promise<void> {
  const envelope = await seekEnvelope(channelId, range.start, range.stop === "max" ? MAX_BLOCK : range.stop, options);
  const fail = (status: number, message: string, cause?: unknown, retryable = false) =>
    new DeliverError({
      channelId,
      node: target.address,
      status,
      message: `Deliver from ${target.kind} ${target.address} for channel '${channelId}': ${message}`,
      retryable,
      cause,
    });
  if (options.signal?.aborted === true) throw fail(0, "aborted before it started", options.signal.reason);
  await new Promise<void>((resolve, reject) => {
    const call = target.client.makeBidiStreamRequest(
      DELIVER_METHODS[target.kind],
      passthrough,
      bytes,
      new grpc.Metadata(),
      callOptions,
    );
    let settled = false;
    const settle = (error: DeliverError | undefined): void => {
      if (settled) return;
      settled = true;
      options.signal?.removeEventListener("abort", onAbort);
      call.cancel();
      if (error === undefined) resolve();
      else reject(error);
    };
    const onAbort = (): void => {
      settle(fail(0, "aborted", options.signal?.reason));
    };
    options.signal?.addEventListener("abort", onAbort, { once: true });
    call.on("data", (data: Uint8Array) => {
      try {
        const response = codecs.DeliverResponse.decode(data, { path: "DeliverResponse" });
        if (response.block !== undefined) {
          if (onBlock(response.block)) settle(undefined);
          return;
        }
        const status = response.status ?? 0;
        if (status === 200) settle(undefined);
        else
          settle(
            fail(
              status,
              (STATUS_NAMES[status] ?? String(status)) +
                (status === 404
                  ? " (the node does not have the channel)"
                  : status === 403
                    ? " (the reader is not in the channel's Readers)"
                    : status === 503
                      ? " (the channel is not ready on that node: no leader yet)"
                      : ""),
              undefined,
              status === 503,
            ),
          );
      } catch (error) {
        settle(fail(0, error instanceof Error ? error.message : String(error), error));
      }
    });
    call.on("error", (error: grpc.ServiceError) => {
      const deadline = error.code === grpc.status.DEADLINE_EXCEEDED;
      settle(
        fail(
          0,
          deadline ? "the deadline passed before the block came" : error.message,
          error,
          error.code === grpc.status.UNAVAILABLE,
        ),
      );
    });
    call.on("end", () => {
      settle(fail(0, "the stream ended without a status"));
    });
    call.write(envelope);
    call.end();
  });
}

/** The first block of `range` that `pick` takes (its value), or DeliverError `missing` when the stream ended first. */
async function firstBlock<T>(
  target: DeliverTarget,
  channelId: string,
  range: { readonly start: Position; readonly stop: Position | "max" },
  options: DeliverOptions,
  pick: (block: Block) => T | undefined,
  missing: string,
): Promise<T> {
  let found: T | undefined;
  await deliverBlocks(target, channelId, range, options, (block) => {
    found = pick(block);
    return found !== undefined;
  });
  if (found === undefined) throw new DeliverError({ channelId, node: target.address, status: 200, message: missing });
  return found;
}

/** One block: a number, or the node's newest. */
export function fetchBlock(
  target: DeliverTarget,
  channelId: string,
  at: bigint | "newest",
  options: DeliverOptions,
): Promise<Block> {
  const missing = `Deliver from ${target.address} sent no block ${String(at)} of '${channelId}'`;
  return firstBlock(target, channelId, { start: at, stop: at }, options, (block) => block, missing);
}

/** The channel's newest configuration block, as `peer channel fetch config` finds it. */
export async function fetchConfigBlock(
  target: DeliverTarget,
  channelId: string,
  options: DeliverOptions,
): Promise<ConfigBlock> {
  const newest = await fetchBlock(target, channelId, "newest", options);
  const index = lastConfigIndexOf(newest);
  const block = index === (newest.header?.number ?? 0n) ? newest : await fetchBlock(target, channelId, index, options);
  return readConfigBlock(block, channelId);
}

function isConfigBlock(block: Block): boolean {
  try {
    const payload = codecs.Payload.decode(codecs.Envelope.decode(block.data?.data[0] ?? new Uint8Array(0)).payload);
    return codecs.ChannelHeader.decode(payload.header?.channelHeader ?? new Uint8Array(0)).type === HeaderType.CONFIG;
  } catch {
    return false;
  }
}

/**
 * Waits for the first configuration block from block `fromBlock` on whose config sequence is at least
 * `minSequence` (an update raises the sequence by one), within the call's deadline.
 */
export function waitForConfigBlock(
  target: DeliverTarget,
  channelId: string,
  after: { readonly fromBlock: bigint; readonly minSequence: bigint },
  options: DeliverOptions,
): Promise<ConfigBlock> {
  const pick = (block: Block): ConfigBlock | undefined => {
    if (!isConfigBlock(block)) return undefined;
    const config = readConfigBlock(block, channelId);
    return config.config.sequence < after.minSequence ? undefined : config;
  };
  const missing = `no configuration block of sequence ${after.minSequence.toString()} came`;
  return firstBlock(target, channelId, { start: after.fromBlock, stop: "max" }, options, pick, missing);
}
