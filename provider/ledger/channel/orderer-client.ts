/**
 * An orderer's AtomicBroadcast service over @grpc/grpc-js: Broadcast submits one signed envelope (a CONFIG_UPDATE
 * here) and answers with the orderer's verdict, a refusal becoming a BroadcastError that says what the orderer's words
 * mean ("ReadSet version" errors: the channel changed since the update was computed). Deliver streams blocks; it is
 * in deliver-client.ts, shared with a peer's Deliver service. Deadlines are per call, from suppliers.
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "../codec";
import { newGatewayGrpcClient } from "../gateway-grpc-client";
import type { GatewayTlsOptions } from "../gateway-grpc-client";
import { bytes, passthrough } from "../grpc-transport";
import type { Envelope } from "../messages";
import { BroadcastError } from "../../errors/ledger/broadcast-error";
import type { BroadcastProblem } from "../../errors/ledger/broadcast-error";

export const BROADCAST_METHOD = "/orderer.AtomicBroadcast/Broadcast";

/** How long a Broadcast may take by default: a configuration update is validated and forwarded to the leader. */
export const DEFAULT_BROADCAST_TIMEOUT_MS = 30_000;

export interface OrdererClientOptions {
  /** "host:port" of the orderer's listen (cluster) port. */
  readonly address: string;
  /** Insecure only to a loopback address. */
  readonly tls?: GatewayTlsOptions;
  /** Per-call options of each Broadcast. @default a deadline DEFAULT_BROADCAST_TIMEOUT_MS from the call */
  readonly broadcastOptions?: () => grpc.CallOptions;
}

/** An orderer to submit to. */
export interface OrdererClient {
  readonly address: string;
  /** The grpc-js client (for deliver-client.ts). */
  readonly client: grpc.Client;
  /** Submits one envelope; resolves when the orderer answered SUCCESS, rejects with BroadcastError otherwise. */
  broadcast(envelope: Envelope, channelId: string): Promise<void>;
  close(): void;
}

const RULES: readonly [RegExp, BroadcastProblem, string][] = [
  [
    /error validating ReadSet|proposed update requires that key .* be at version/,
    "STALE_READ_SET",
    "someone changed the channel's configuration after this update was computed (its read set names versions the " +
      "channel no longer has); nothing was changed: read the configuration again, compute the update from it, and " +
      "collect the signatures for that one",
  ],
  [
    /attempt(ed)? to set key .* to version/,
    "VERSION_CONFLICT",
    "the update's write set gives versions that do not follow the channel's (each modified element must be at its " +
      "current version + 1, each new one at 0): compute the update from the channel's current configuration",
  ],
  [
    /policy for .* not satisfied|implicit policy evaluation failed|signature set did not satisfy policy/,
    "POLICY_NOT_SATISFIED",
    "the signatures do not satisfy the mod_policy of an element the update modifies: collect the signatures of the " +
      "organizations' admins the policy names (authorizeConfigUpdate tells which) and submit again",
  ],
  [
    /ConfigUpdate for channel '.*' but envelope for channel/,
    "CHANNEL_ID_MISMATCH",
    "the ConfigUpdate names another channel than its envelope (an empty channel_id is the usual cause): compute the " +
      "update with the channel's id",
  ],
  [
    /capability .* is required but not supported|not supported by this binary/,
    "UNSUPPORTED_CAPABILITY",
    "the update requires a capability these orderers do not support: upgrade every orderer and peer first",
  ],
  [
    /permission denied|SigFilter evaluation failed|did not pass initial checks/,
    "NOT_A_WRITER",
    "the envelope's signer is not a member of the channel's Writers: submit as an admin or client of one of its organizations",
  ],
  [
    /channel does not exist|not found|orderer system channel is not defined/,
    "CHANNEL_NOT_FOUND",
    "this orderer does not serve the channel: join it to the channel (channel participation API) or submit to one of its consenters",
  ],
];

/** What an orderer's BroadcastResponse (status, info) means. */
export function classifyBroadcast(
  status: number,
  info: string,
): { problem: BroadcastProblem; explanation: string; retryable: boolean } {
  const rule = RULES.find(([pattern]) => pattern.test(info));
  if (rule !== undefined) return { problem: rule[1], explanation: rule[2], retryable: false };
  if (status === 503)
    return {
      problem: "UNAVAILABLE",
      explanation:
        "the orderer cannot order now (no leader yet, or it is catching up): submit the same envelope again shortly",
      retryable: true,
    };
  return {
    problem: status === 404 ? "CHANNEL_NOT_FOUND" : status === 403 ? "NOT_A_WRITER" : "INVALID_CONFIG",
    explanation:
      status === 400
        ? "the orderers found the resulting configuration invalid; fix the declared configuration as their words say"
        : "see the orderer's words",
    retryable: false,
  };
}

/** Opens a client to one orderer (nothing is sent until broadcast). */
export function connectOrderer(options: OrdererClientOptions): OrdererClient {
  const client = newGatewayGrpcClient({
    address: options.address,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    settings: "orderer",
  });
  const callOptions =
    options.broadcastOptions ?? (() => ({ deadline: new Date(Date.now() + DEFAULT_BROADCAST_TIMEOUT_MS) }));
  return {
    address: options.address,
    client,
    broadcast: (envelope, channelId) => broadcastOnce(client, options.address, envelope, channelId, callOptions()),
    close: () => {
      client.close();
    },
  };
}

function broadcastOnce(
  client: grpc.Client,
  address: string,
  envelope: Envelope,
  channelId: string,
  callOptions: grpc.CallOptions,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const call = client.makeBidiStreamRequest(BROADCAST_METHOD, passthrough, bytes, new grpc.Metadata(), callOptions);
    let settled = false;
    const settle = (error: BroadcastError | undefined): void => {
      if (settled) return;
      settled = true;
      call.cancel();
      if (error === undefined) resolve();
      else reject(error);
    };
    call.on("data", (data: Uint8Array) => {
      try {
        const response = codecs.BroadcastResponse.decode(data, { path: "BroadcastResponse" });
        if (response.status === 200) {
          settle(undefined);
          return;
        }
        const meaning = classifyBroadcast(response.status, response.info);
        settle(
          new BroadcastError({ channelId, orderer: address, status: response.status, info: response.info, ...meaning }),
        );
      } catch (error) {
        settle(streamError(channelId, address, error));
      }
    });
    call.on("error", (error: Error) => {
      settle(streamError(channelId, address, error));
    });
    call.on("end", () => {
      settle(streamError(channelId, address, new Error("the orderer closed the stream without an answer")));
    });
    call.write(codecs.Envelope.encode(envelope));
    call.end();
  });
}

function streamError(channelId: string, orderer: string, error: unknown): BroadcastError {
  const text = error instanceof Error ? error.message : String(error);
  return new BroadcastError({
    channelId,
    orderer,
    status: 0,
    info: text,
    problem: "UNAVAILABLE",
    explanation:
      "the envelope may or may not have reached the orderer: wait for the next configuration block, or read the " +
      "channel's configuration, before submitting again",
    retryable: true,
    cause: error,
  });
}
