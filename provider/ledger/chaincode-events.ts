/**
 * Chaincode events: the signed ChaincodeEventsRequest and the server-streaming gateway.Gateway/ChaincodeEvents call,
 * read as an async iterable that can be closed or aborted, as the official client's
 * `network.getChaincodeEvents(chaincodeName, { startBlock | checkpoint })`.
 *
 *     const events = await gateway.getChaincodeEvents("mychannel", "basic", { startBlock: 0n });
 *     try {
 *       for await (const event of events) console.log(event.blockNumber, event.eventName);
 *     } finally {
 *       events.close();
 *     }
 *
 * What the gateway does with the request (Fabric internal/pkg/gateway/chaincodeevents.go): it checks the signature
 * against the channel's Writers policy (PERMISSION_DENIED), finds the channel (NOT_FOUND), then reads blocks from the
 * start: the block of `after_transaction_id` when the peer has that transaction, else the specified block, else the
 * ledger height (next commit). It sends one response per block holding events of the chaincode from *valid*
 * transactions; with `after_transaction_id`, events up to and including that transaction's are skipped (a txId the
 * ledger does not have therefore skips every event). The stream ends only when the client cancels it or it fails.
 */
import * as grpc from "@grpc/grpc-js";
import { ValidationError } from "../errors/validation-error";
import type { FieldFailure } from "../errors/validation-error";
import { ChaincodeEventsError } from "../errors/ledger/chaincode-events-error";
import { codecs } from "./codec";
import type { GatewayContext } from "./gateway-objects";
import { sign } from "./gateway-objects";
import { bytes, GATEWAY_METHODS, passthrough, serviceErrorProperties } from "./grpc-transport";
import type { ChaincodeEventsRequest as ChaincodeEventsRequestMessage } from "./gateway-messages";

/** An event a chaincode function set (stub.setEvent) in a transaction that committed VALID. */
export interface ChaincodeEvent {
  /** The block holding the transaction. */
  readonly blockNumber: bigint;
  readonly transactionId: string;
  readonly chaincodeName: string;
  readonly eventName: string;
  readonly payload: Uint8Array;
}

/**
 * Where a previous reader stopped: the official client's Checkpoint (its `checkpointers.inMemory()` and `file()`
 * satisfy it).
 */
export interface Checkpoint {
  /** The block to resume from, or undefined when nothing was checkpointed yet. */
  getBlockNumber(): bigint | undefined;
  /** The last transaction processed in that block: its events and those before it are skipped. */
  getTransactionId(): string | undefined;
}

/**
 * Where the events start. A checkpoint with a block number wins over `startBlock` (as in the official client); without
 * either, the events start at the next block committed.
 */
export interface ChaincodeEventsOptions {
  /** The block from which to read events. */
  readonly startBlock?: bigint;
  readonly checkpoint?: Checkpoint;
}

export interface GetEventsOptions {
  /** Aborting it cancels the stream; the iteration then rejects with the signal's reason. */
  readonly signal?: AbortSignal;
  /** gRPC options of this call. @default the gateway's chaincodeEventsOptions (no deadline) */
  readonly callOptions?: grpc.CallOptions;
}

/** An async iterable that holds a stream open: close() (or `using`) ends it, and the iteration then ends too. */
export interface CloseableAsyncIterable<T> extends AsyncIterable<T>, Disposable {
  close(): void;
}

/** A signable events request (offline signing: getDigest() signed elsewhere, newSignedChaincodeEventsRequest). */
export interface ChaincodeEventsRequest {
  /** Serialized gateway.SignedChaincodeEventsRequest (unsigned until signed). */
  getBytes(): Uint8Array;
  /** hash(the serialized ChaincodeEventsRequest): what a Signer signs. */
  getDigest(): Uint8Array;
  /**
   * Signs (unless signed) and opens the stream. Gateway failures reject the iteration with ChaincodeEventsError;
   * rejects at once with the signal's reason when it is already aborted.
   */
  getEvents(options?: GetEventsOptions): Promise<CloseableAsyncIterable<ChaincodeEvent>>;
}

/** The ChaincodeEventsRequest message for a channel, chaincode and start. Throws ValidationError for bad input. */
export function chaincodeEventsRequestMessage(
  creator: Uint8Array,
  channelId: string,
  chaincodeName: string,
  options: ChaincodeEventsOptions,
): ChaincodeEventsRequestMessage {
  const failures: FieldFailure[] = [];
  if (channelId.trim() === "") failures.push({ property: "channelId", reason: "must not be empty" });
  if (chaincodeName.trim() === "") failures.push({ property: "chaincodeName", reason: "must not be empty" });
  const startBlock = options.checkpoint?.getBlockNumber() ?? options.startBlock;
  if (startBlock !== undefined && (typeof startBlock !== "bigint" || startBlock < 0n || startBlock >= 2n ** 64n)) {
    const property = options.checkpoint?.getBlockNumber() === undefined ? "startBlock" : "checkpoint";
    failures.push({ property, reason: "the block number must be a bigint from 0 to 2^64 - 1" });
  }
  if (failures.length > 0) throw new ValidationError({ subject: "ChaincodeEventsRequest", failures });
  return {
    channelId,
    chaincodeId: chaincodeName,
    identity: creator,
    startPosition: startBlock === undefined ? { nextCommit: {} } : { specified: { number: startBlock } },
    afterTransactionId: options.checkpoint?.getTransactionId() ?? "",
  };
}

class ChaincodeEventsRequestImpl implements ChaincodeEventsRequest {
  readonly #context: GatewayContext;
  readonly #request: Uint8Array;
  readonly #channelId: string;
  readonly #chaincodeName: string;
  #signature: Uint8Array;

  constructor(context: GatewayContext, request: Uint8Array, signature: Uint8Array = new Uint8Array(0)) {
    this.#context = context;
    this.#request = request;
    const decoded = codecs.ChaincodeEventsRequest.decode(request);
    this.#channelId = decoded.channelId;
    this.#chaincodeName = decoded.chaincodeId;
    this.#signature = signature;
  }

  getBytes(): Uint8Array {
    return codecs.SignedChaincodeEventsRequest.encode({ request: this.#request, signature: this.#signature });
  }

  getDigest(): Uint8Array {
    return this.#context.hash(this.#request);
  }

  async getEvents(options: GetEventsOptions = {}): Promise<CloseableAsyncIterable<ChaincodeEvent>> {
    options.signal?.throwIfAborted();
    if (this.#signature.length === 0)
      this.#signature = await sign(this.#context, this.#request, "chaincode events request");
    options.signal?.throwIfAborted();
    return openStream(
      this.#context,
      this.getBytes(),
      options.callOptions ?? this.#context.callOptions("chaincodeEvents"),
      options.signal,
      { channelId: this.#channelId, chaincodeName: this.#chaincodeName },
    );
  }
}

function openStream(
  context: GatewayContext,
  signedRequest: Uint8Array,
  callOptions: grpc.CallOptions,
  signal: AbortSignal | undefined,
  ids: { readonly channelId: string; readonly chaincodeName: string },
): CloseableAsyncIterable<ChaincodeEvent> {
  const method = GATEWAY_METHODS.chaincodeEvents;
  const call = context.client.makeServerStreamRequest(
    method,
    passthrough,
    bytes,
    signedRequest,
    new grpc.Metadata(),
    callOptions,
  );
  // Until the iteration starts (or after it stopped), nothing else listens: a cancel or a failure must not become an
  // uncaught 'error'. An iteration that starts later still sees the stream's error.
  call.on("error", () => undefined);
  let closed = false;
  const close = (): void => {
    closed = true;
    call.cancel();
  };
  const onAbort = (): void => {
    call.cancel();
  };
  signal?.addEventListener("abort", onAbort, { once: true });

  async function* events(): AsyncGenerator<ChaincodeEvent, void, undefined> {
    try {
      for await (const chunk of call as AsyncIterable<Uint8Array>) {
        let response;
        try {
          response = codecs.ChaincodeEventsResponse.decode(chunk);
        } catch (decodeError) {
          throw new ChaincodeEventsError({ ...serviceErrorProperties(decodeError, method), ...ids });
        }
        for (const event of response.events) {
          // A close() while the caller held the previous event ends the iteration before anything buffered.
          if (closed) return;
          yield {
            blockNumber: response.blockNumber,
            transactionId: event.txId,
            chaincodeName: event.chaincodeId,
            eventName: event.eventName,
            payload: event.payload,
          };
        }
      }
    } catch (error) {
      if (closed) return;
      if (signal?.aborted === true) throw signal.reason;
      if (error instanceof ChaincodeEventsError) throw error;
      throw new ChaincodeEventsError({ ...serviceErrorProperties(error, method), ...ids });
    } finally {
      signal?.removeEventListener("abort", onAbort);
      close();
    }
  }

  const iterator = events();
  return {
    [Symbol.asyncIterator]: () => iterator,
    close,
    [Symbol.dispose]: close,
  };
}

export function newChaincodeEventsRequest(
  context: GatewayContext,
  channelId: string,
  chaincodeName: string,
  options: ChaincodeEventsOptions,
): ChaincodeEventsRequest {
  const message = chaincodeEventsRequestMessage(context.creator, channelId, chaincodeName, options);
  return new ChaincodeEventsRequestImpl(context, codecs.ChaincodeEventsRequest.encode(message));
}

/** A request from SignedChaincodeEventsRequest bytes (getBytes()) and an offline signature of its digest. */
export function newSignedChaincodeEventsRequest(
  context: GatewayContext,
  signedBytes: Uint8Array,
  signature: Uint8Array,
): ChaincodeEventsRequest {
  const signed = codecs.SignedChaincodeEventsRequest.decode(signedBytes);
  return new ChaincodeEventsRequestImpl(context, signed.request, signature);
}
