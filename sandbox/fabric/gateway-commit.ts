/**
 * Gateway Submit (with the ordering service's admission filters), CommitStatus and ChaincodeEvents (Fabric
 * internal/pkg/gateway submit.go, commitstatus.go, chaincodeevents.go; orderer/common/msgprocessor). The orderer
 * cuts one block per accepted transaction, after the configured commit delay, and hands it to the committer.
 */
import { status } from "@grpc/grpc-js";
import { HeaderType } from "./channel-config";
import { requireChannel, type GatewayContext } from "./gateway-context";
import { GatewayError } from "./gateway-error";
import type { StoredBlock, StoredTransaction } from "./ledger";
import type { ChaincodeEvent, ChaincodeEventsRequest, SignedRequest } from "./messages";
import { policyDenied, READER_ROLES } from "./msp";
import { decode, encode, rawField, tryDecode } from "./wire";

const WRITERS_POLICY_FAILURE =
  "implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Writers' sub-policies to be satisfied";

function ordererRejection(statusName: string, info: string): GatewayError {
  return new GatewayError({
    code: status.ABORTED,
    message: `received unsuccessful response from orderer: status=${statusName}, info=${info}`,
  });
}

/**
 * The orderer's admission (Fabric 2.5 orderer/common/broadcast ProcessMessage with the standard channel's
 * processor): a parsable header; a channel the orderer serves (routed by the envelope's channel header, whatever the
 * gateway request said); CONFIG and ORDERER_TRANSACTION envelopes refused outright (only the orderer makes config
 * blocks); then the filters, of which the signature filter needs a client or admin of an organization (channel
 * Writers). A CONFIG_UPDATE passes the filters and then fails as a config update: the sandbox has no channel
 * configuration to update, and what a client submits is never one. So no CONFIG or CONFIG_UPDATE transaction reaches
 * a block through Submit, as in Fabric.
 */
async function admit(ctx: GatewayContext, envelopeBytes: Buffer): Promise<void> {
  const envelope = tryDecode("common.Envelope", envelopeBytes);
  const payload = envelope === undefined ? undefined : tryDecode("common.Payload", envelope.payload);
  if (envelope === undefined || payload === undefined) {
    throw ordererRejection(
      "BAD_REQUEST",
      "could not determine channel ID: error unmarshalling Payload: proto: cannot parse invalid wire-format data",
    );
  }
  if (payload.header == null) throw ordererRejection("BAD_REQUEST", "could not determine channel ID: header not set");
  const channelHeader = tryDecode("common.ChannelHeader", payload.header.channelHeader);
  if (channelHeader === undefined) {
    throw ordererRejection(
      "BAD_REQUEST",
      "could not determine channel ID: error unmarshalling channel header: error unmarshalling ChannelHeader: proto: cannot parse invalid wire-format data",
    );
  }
  const signatureHeader = tryDecode("common.SignatureHeader", payload.header.signatureHeader);
  if (signatureHeader === undefined) throw ordererRejection("BAD_REQUEST", "bad header");
  if (channelHeader.channelId !== ctx.config.channel) {
    throw ordererRejection(
      "BAD_REQUEST",
      "channel creation request not allowed because the orderer system channel is not defined",
    );
  }
  if (channelHeader.type === HeaderType.CONFIG || channelHeader.type === HeaderType.ORDERER_TRANSACTION) {
    throw ordererRejection("BAD_REQUEST", "message is of type that cannot be processed directly");
  }
  const creator = await ctx.config.msp.verify(signatureHeader.creator, envelope.payload, envelope.signature);
  if (!creator.ok || (creator.identity.role !== "client" && creator.identity.role !== "admin")) {
    throw ordererRejection("FORBIDDEN", `${WRITERS_POLICY_FAILURE}: permission denied`);
  }
  if (channelHeader.type === HeaderType.CONFIG_UPDATE) {
    throw ordererRejection(
      "BAD_REQUEST",
      `error applying config update to existing channel '${ctx.config.channel}': the channel's configuration cannot be updated`,
    );
  }
}

export async function submit(ctx: GatewayContext, requestBytes: Buffer): Promise<Buffer> {
  const request = decode("gateway.SubmitRequest", requestBytes);
  const envelope = request.preparedTransaction;
  if (envelope === null)
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "a prepared transaction is required" });
  if (envelope.signature.length === 0) {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "prepared transaction must be signed" });
  }
  requireChannel(ctx, request.channelId);
  const raw = rawField(requestBytes, 3) ?? encode("common.Envelope", envelope);
  await admit(ctx, raw);
  const delayMs = ctx.faults().commitDelayMs;
  void (async () => {
    if (delayMs > 0) await ctx.sleep(delayMs);
    await ctx.committer.commitBlock([raw]);
  })().catch(() => undefined); // a reset while the block waits discards it
  return encode("gateway.SubmitResponse", {});
}

/**
 * The gateway's ACL check of a signed request (Gateway_CommitStatus and Gateway_ChaincodeEvents are the channel's
 * Readers: a client, admin or peer). The policy is looked up on the channel first, so an unknown channel fails here.
 */
async function authorize(ctx: GatewayContext, signed: SignedRequest, identity: Buffer, channel: string): Promise<void> {
  if (channel !== ctx.config.channel) {
    throw new GatewayError({
      code: status.PERMISSION_DENIED,
      message: `Failed to get policy manager for channel [${channel}]`,
    });
  }
  const result = await ctx.config.msp.verify(identity, signed.request, signed.signature);
  if (!result.ok || !READER_ROLES.includes(result.identity.role)) {
    throw new GatewayError({ code: status.PERMISSION_DENIED, message: policyDenied(channel, "Readers") });
  }
}

function cancelled(): GatewayError {
  return new GatewayError({ code: status.CANCELLED, message: "context canceled" });
}

function waitForTransaction(ctx: GatewayContext, txId: string, signal: AbortSignal): Promise<StoredTransaction> {
  const found = ctx.ledger.transaction(txId);
  if (found !== undefined) return Promise.resolve(found);
  return new Promise((resolve, reject) => {
    const cleanup = (): void => {
      unsubscribe();
      signal.removeEventListener("abort", onAbort);
    };
    const onAbort = (): void => {
      cleanup();
      reject(cancelled());
    };
    const unsubscribe = ctx.ledger.onBlock(() => {
      const tx = ctx.ledger.transaction(txId);
      if (tx === undefined) return;
      cleanup();
      resolve(tx);
    });
    if (signal.aborted) onAbort();
    else signal.addEventListener("abort", onAbort, { once: true });
  });
}

export async function commitStatus(ctx: GatewayContext, requestBytes: Buffer, signal: AbortSignal): Promise<Buffer> {
  const signed = decode("gateway.SignedCommitStatusRequest", requestBytes);
  if (signed.request.length === 0) {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "a commit status request is required" });
  }
  const request = tryDecode("gateway.CommitStatusRequest", signed.request);
  if (request === undefined)
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "invalid status request" });
  if (request.identity.length === 0)
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "no identity provided" });
  if (request.channelId === "")
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "no channel ID provided" });
  if (request.transactionId === "") {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "transaction ID should not be empty" });
  }
  await authorize(ctx, signed, request.identity, request.channelId);
  const tx = await waitForTransaction(ctx, request.transactionId, signal);
  // result is always assigned from the committed code (0 = VALID is the proto3 default and so not on the wire).
  return encode("gateway.CommitStatusResponse", { result: tx.code, blockNumber: tx.blockNumber });
}

type StartPosition =
  { readonly kind: "specified"; readonly number: bigint } | { readonly kind: "newest" | "oldest" | "nextCommit" };

function startBlock(ctx: GatewayContext, afterTransactionId: string, position: StartPosition): bigint {
  if (afterTransactionId !== "") {
    const tx = ctx.ledger.transaction(afterTransactionId);
    if (tx !== undefined) return tx.blockNumber;
  }
  switch (position.kind) {
    case "specified":
      return position.number;
    case "nextCommit":
      return ctx.ledger.height;
    default:
      throw new GatewayError({
        code: status.INVALID_ARGUMENT,
        message: `invalid start position type: *orderer.SeekPosition_${position.kind === "newest" ? "Newest" : "Oldest"}`,
      });
  }
}

function positionOf(request: ChaincodeEventsRequest): StartPosition {
  const p = request.startPosition;
  if (p?.specified != null) return { kind: "specified", number: p.specified.number };
  if (p?.newest != null) return { kind: "newest" };
  if (p?.oldest != null) return { kind: "oldest" };
  return { kind: "nextCommit" };
}

/** Streams the chaincode's events block by block until `signal` aborts; `send` writes one response. */
export async function chaincodeEvents(
  ctx: GatewayContext,
  requestBytes: Buffer,
  send: (response: Buffer) => void,
  signal: AbortSignal,
): Promise<void> {
  const signed = decode("gateway.SignedChaincodeEventsRequest", requestBytes);
  if (signed.request.length === 0) {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "a chaincode events request is required" });
  }
  const request = tryDecode("gateway.ChaincodeEventsRequest", signed.request);
  if (request === undefined) {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: "invalid chaincode events request" });
  }
  await authorize(ctx, signed, request.identity, request.channelId);
  let next = startBlock(ctx, request.afterTransactionId, positionOf(request));
  let passedAfter = request.afterTransactionId === "";
  const matches = (event: ChaincodeEvent): boolean => {
    if (!passedAfter) {
      if (event.txId === request.afterTransactionId) passedAfter = true;
      return false;
    }
    return event.chaincodeId === request.chaincodeId;
  };
  const deliver = (block: StoredBlock): void => {
    const events = block.transactions.flatMap((t) => (t.event !== undefined && matches(t.event) ? [t.event] : []));
    if (events.length > 0) send(encode("gateway.ChaincodeEventsResponse", { events, blockNumber: block.number }));
  };
  const pump = (): void => {
    for (let block = ctx.ledger.block(next); block !== undefined; block = ctx.ledger.block(next)) {
      next++;
      deliver(block);
    }
  };
  await new Promise<void>((resolve) => {
    const unsubscribe = ctx.ledger.onBlock(pump);
    const stop = (): void => {
      unsubscribe();
      resolve();
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    pump();
  });
}
