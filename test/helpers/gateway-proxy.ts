/**
 * A TLS-terminating gRPC proxy in front of a Fabric gateway (the sandbox's or a real peer's, or an orderer), so that one test body can
 * watch and time what a client sends on any target: it forwards every call (request headers and data as they come;
 * a unary call's whole answer — headers, message and trailers, or a trailers-only answer — once the upstream has
 * finished it, a ChaincodeEvents stream as it comes), records each call's `:path`, request and
 * response messages and `grpc-status`, and can hold the answer of a call until the test releases it, or the call
 * itself before it reaches the upstream (`holdRequest`).
 *
 *   const proxy = await startGatewayProxy({ upstream, serverTls });
 *   const held = proxy.hold("/gateway.Gateway/CommitStatus");   // the next CommitStatus call
 *   const call = await held.reached;    // the peer answered (the transaction is committed); the client has nothing yet
 *   ...kill the client, or make another transaction commit first...
 *   held.release();                     // the answer goes on to the client (dropped if it is gone)
 *
 * node:http2 on both sides: a secure server (ALPN h2) for clients, and one client session to the upstream over TLS.
 * The proxy presents `serverTls` (for a real peer, that peer's own TLS certificate and key, so a client configures
 * the proxy exactly as the peer: the organization's TLS root and the peer's host name).
 */
import * as http2 from "node:http2";
import { gateway as gatewayProtos, peer } from "@hyperledger/fabric-protos";
import type * as net from "node:net";
import { codecs } from "../../provider/ledger/codec";

const { NGHTTP2_CANCEL, NGHTTP2_FLAG_END_STREAM } = http2.constants;

export const GATEWAY = {
  evaluate: "/gateway.Gateway/Evaluate",
  endorse: "/gateway.Gateway/Endorse",
  submit: "/gateway.Gateway/Submit",
  commitStatus: "/gateway.Gateway/CommitStatus",
  chaincodeEvents: "/gateway.Gateway/ChaincodeEvents",
} as const;

export interface GatewayProxyOptions {
  /**
   * The gateway's "host:port", its TLS root certificate and the host name its certificate carries; and the client TLS
   * certificate and key the proxy presents to a peer that requires one (clientAuthRequired).
   */
  readonly upstream: {
    readonly address: string;
    readonly tlsRootCertPem: string;
    readonly serverName: string;
    readonly clientTls?: { readonly certificatePem: string; readonly privateKeyPem: string } | undefined;
  };
  /** The certificate (chain) and key the proxy presents to clients. */
  readonly serverTls: { readonly certificatePem: string; readonly privateKeyPem: string };
  /**
   * Streaming methods whose answers are forwarded as they come (a Deliver that waits for blocks). @default
   * ChaincodeEvents only
   */
  readonly streamed?: readonly string[];
}

/** One call through the proxy. `status` stays undefined until the call ends (or if it never gets an answer). */
export interface ProxiedCall {
  readonly path: string;
  /** The gRPC messages the client sent (length prefixes removed). */
  readonly requests: Buffer[];
  /** The gRPC messages the upstream answered. */
  readonly responses: Buffer[];
  /** `grpc-status` of the answer (0 = OK). */
  status: number | undefined;
  /** `grpc-message` of the answer, percent-decoded. */
  message: string | undefined;
}

/** A call whose answer the proxy keeps until release(). */
export interface HeldCall {
  /** Resolves once the upstream has answered the call completely (headers, messages, trailers), before the client sees any of it. */
  readonly reached: Promise<ProxiedCall>;
  /** Sends the answer on to the client (nothing when the client is gone). Releasing before `reached` lets the call through unheld. */
  release(): void;
}

export interface GatewayProxy {
  /** "127.0.0.1:<port>". */
  readonly address: string;
  /** Every call so far, in the order they arrived. */
  readonly calls: readonly ProxiedCall[];
  /** The `:path`s of the calls from index `from` on. */
  paths(from?: number): string[];
  /** Holds the answer of the next call to `path`. */
  hold(path: string): HeldCall;
  /**
   * Holds the next call to `path` before it goes upstream: `reached` resolves once its request has fully arrived (the
   * upstream has seen nothing of it), and release() sends it on (nothing when the client is gone by then).
   */
  holdRequest(path: string): HeldCall;
  /** Resolves with the first call from now on whose request has fully arrived and satisfies `matches`. */
  nextRequest(matches: (call: ProxiedCall) => boolean): Promise<ProxiedCall>;
  close(): Promise<void>;
}

interface PendingHold {
  readonly path: string;
  readonly reached: (call: ProxiedCall) => void;
  released: boolean;
  onRelease: (() => void) | undefined;
}

/** Splits a gRPC body into its messages (1 byte compressed flag, 4 bytes big-endian length, the message). */
export function grpcMessages(body: Buffer): Buffer[] {
  const messages: Buffer[] = [];
  for (let at = 0; at + 5 <= body.length;) {
    const length = body.readUInt32BE(at + 1);
    messages.push(body.subarray(at + 5, at + 5 + length));
    at += 5 + length;
  }
  return messages;
}

/** Header fields without pseudo-headers other than `keep` (node:http2 sets the rest per hop). */
function fields(headers: http2.IncomingHttpHeaders, keep: readonly string[]): http2.OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith(":") || keep.includes(name)));
}

function statusOf(headers: http2.IncomingHttpHeaders): { status: number | undefined; message: string | undefined } {
  const status = headers["grpc-status"];
  const message = headers["grpc-message"];
  return {
    status: typeof status === "string" ? Number(status) : undefined,
    message: typeof message === "string" ? decodeURIComponent(message) : undefined,
  };
}

export async function startGatewayProxy(options: GatewayProxyOptions): Promise<GatewayProxy> {
  const calls: ProxiedCall[] = [];
  const holds: PendingHold[] = [];
  const requestHolds: PendingHold[] = [];
  let watchers: { matches: (call: ProxiedCall) => boolean; found: (call: ProxiedCall) => void }[] = [];
  const sockets = new Set<net.Socket>();
  let session: http2.ClientHttp2Session | undefined;

  const upstreamSession = (): http2.ClientHttp2Session => {
    if (session !== undefined && !session.closed && !session.destroyed) return session;
    const opened = http2.connect(`https://${options.upstream.address}`, {
      ca: options.upstream.tlsRootCertPem,
      servername: options.upstream.serverName,
      ...(options.upstream.clientTls === undefined
        ? {}
        : { cert: options.upstream.clientTls.certificatePem, key: options.upstream.clientTls.privateKeyPem }),
    });
    opened.on("error", () => {
      // Each call sees its own stream's error; a broken session is replaced on the next call.
    });
    session = opened;
    return opened;
  };

  const server = http2.createSecureServer({
    cert: options.serverTls.certificatePem,
    key: options.serverTls.privateKeyPem,
  });
  server.on("connection", (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("stream", (downstream, headers) => {
    const path = headers[":path"] ?? "";
    const call: ProxiedCall = { path, requests: [], responses: [], status: undefined, message: undefined };
    calls.push(call);
    const holdIndex = holds.findIndex((h) => h.path === path);
    const hold = holdIndex < 0 ? undefined : holds.splice(holdIndex, 1)[0];
    const requestHoldIndex = requestHolds.findIndex((h) => h.path === path);
    const requestHold = requestHoldIndex < 0 ? undefined : requestHolds.splice(requestHoldIndex, 1)[0];

    // A client killed mid-call resets its connection, and the stream errors with ECONNRESET: expected here (the
    // kill tests do it on purpose), and an 'error' event without a listener would be thrown into the test process as
    // an uncaught exception, failing whichever test runs. 'close' below cancels the upstream call.
    downstream.on("error", () => {
      // the 'close' that follows does the rest
    });
    const requestBody: Buffer[] = [];
    downstream.on("data", (chunk: Buffer) => requestBody.push(chunk));
    downstream.on("end", () => {
      call.requests.push(...grpcMessages(Buffer.concat(requestBody)));
      const matched = watchers.filter((w) => w.matches(call));
      watchers = watchers.filter((w) => !matched.includes(w));
      for (const w of matched) w.found(call);
      if (requestHold === undefined) return;
      // A held request goes upstream, whole, only once released (at once if it already is).
      const send = (): void => {
        if (!downstream.closed && !downstream.destroyed) forward(Buffer.concat(requestBody));
      };
      if (requestHold.released) send();
      else {
        requestHold.onRelease = send;
        requestHold.reached(call);
      }
    });
    if (requestHold === undefined) forward(undefined);

    /** Sends the call upstream: the request as it comes (`body` undefined), or a held request's whole body. */
    function forward(body: Buffer | undefined): void {
      const upstream = upstreamSession().request(fields(headers, [":method", ":path"]));
      if (body === undefined) downstream.pipe(upstream);
      else upstream.end(body);
      // The client went away (cancelled, or its process was killed): cancel the upstream call too.
      downstream.on("close", () => {
        if (!upstream.closed) upstream.close(NGHTTP2_CANCEL);
      });

      let responseHeaders: http2.IncomingHttpHeaders | undefined;
      let trailersOnly = false;
      let trailers: http2.IncomingHttpHeaders = {};
      const responseBody: Buffer[] = [];
      const gone = (): boolean => downstream.closed || downstream.destroyed;

      /** Sends the answer as it came (a held call's whole answer at once). */
      const replay = (): void => {
        if (gone() || responseHeaders === undefined) return;
        if (trailersOnly) {
          downstream.respond(fields(responseHeaders, [":status"]), { endStream: true });
          return;
        }
        downstream.respond(fields(responseHeaders, [":status"]), { waitForTrailers: true });
        downstream.on("wantTrailers", () => {
          downstream.sendTrailers(fields(trailers, []));
        });
        downstream.end(Buffer.concat(responseBody));
      };

      // A unary call's answer (every Gateway method but the ChaincodeEvents stream) is forwarded whole once the upstream
      // has finished it, held or not: one way of sending for every answer, and the proxy can tell an upstream that said
      // OK without a message from a message lost on the way.
      const streamed = path === GATEWAY.chaincodeEvents || (options.streamed ?? []).includes(path);
      let holding = false;
      // Nothing reads the upstream before its 'response' event (emitted a tick after the HEADERS frame): a DATA chunk
      // read in between would reach the collector but not the pipe attached here, and the client's stream would be
      // missing bytes. The collector and the pipe start together, so both see every chunk, in order.
      upstream.on("response", (h, flags) => {
        upstream.on("data", (chunk: Buffer) => responseBody.push(chunk));
        responseHeaders = h;
        trailersOnly = (flags & NGHTTP2_FLAG_END_STREAM) !== 0;
        if (trailersOnly) Object.assign(call, statusOf(h));
        holding = hold !== undefined && !hold.released;
        if (holding || !streamed || gone()) return; // collected below, and sent (or replayed on release) at the end
        if (trailersOnly) {
          downstream.respond(fields(h, [":status"]), { endStream: true });
          return;
        }
        downstream.respond(fields(h, [":status"]), { waitForTrailers: true });
        downstream.on("wantTrailers", () => {
          downstream.sendTrailers(fields(trailers, []));
        });
        upstream.pipe(downstream);
      });
      upstream.on("trailers", (t: http2.IncomingHttpHeaders) => {
        trailers = t;
        Object.assign(call, statusOf(t));
      });
      upstream.on("end", () => {
        call.responses.push(...grpcMessages(Buffer.concat(responseBody)));
        if (!streamed && call.status === 0 && call.responses.length !== 1) {
          call.message = `proxy: the upstream answered a unary call grpc-status 0 with ${call.responses.length} messages`;
        }
        if (!holding || hold === undefined) {
          if (!streamed) replay();
          return;
        }
        if (hold.released) {
          replay();
          return;
        }
        hold.onRelease = replay;
        hold.reached(call);
      });
      upstream.on("error", (error: Error) => {
        call.status ??= 14;
        call.message ??= `proxy: upstream call failed: ${error.message}`;
        if (gone()) return;
        if (!downstream.headersSent) {
          downstream.respond(
            {
              ":status": 200,
              "content-type": "application/grpc",
              "grpc-status": "14",
              "grpc-message": "upstream failed",
            },
            { endStream: true },
          );
        } else downstream.close(NGHTTP2_CANCEL);
      });
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the proxy has no TCP address");

  return {
    address: `127.0.0.1:${String(address.port)}`,
    calls,
    paths: (from = 0) => calls.slice(from).map((c) => c.path),
    hold(path) {
      let reached: (call: ProxiedCall) => void = () => undefined;
      const promise = new Promise<ProxiedCall>((resolve) => (reached = resolve));
      const pending: PendingHold = { path, reached, released: false, onRelease: undefined };
      holds.push(pending);
      return {
        reached: promise,
        release() {
          pending.released = true;
          const waiting = holds.indexOf(pending);
          if (waiting >= 0) holds.splice(waiting, 1);
          pending.onRelease?.();
          pending.onRelease = undefined;
        },
      };
    },
    holdRequest(path) {
      let reached: (call: ProxiedCall) => void = () => undefined;
      const promise = new Promise<ProxiedCall>((resolve) => (reached = resolve));
      const pending: PendingHold = { path, reached, released: false, onRelease: undefined };
      requestHolds.push(pending);
      return {
        reached: promise,
        release() {
          pending.released = true;
          const waiting = requestHolds.indexOf(pending);
          if (waiting >= 0) requestHolds.splice(waiting, 1);
          pending.onRelease?.();
          pending.onRelease = undefined;
        },
      };
    },
    nextRequest(matches) {
      return new Promise((found) => watchers.push({ matches, found }));
    },
    async close() {
      session?.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  };
}

/** The transaction id a gateway call names (Endorse, Submit, Evaluate, CommitStatus), or "" for any other call. */
export function transactionIdOf(call: ProxiedCall): string {
  const request = call.requests[0];
  if (request === undefined) return "";
  try {
    switch (call.path) {
      case GATEWAY.endorse:
        return codecs.EndorseRequest.decode(request).transactionId;
      case GATEWAY.submit:
        return codecs.SubmitRequest.decode(request).transactionId;
      case GATEWAY.evaluate:
        return codecs.EvaluateRequest.decode(request).transactionId;
      case GATEWAY.commitStatus:
        return codecs.CommitStatusRequest.decode(codecs.SignedCommitStatusRequest.decode(request).request)
          .transactionId;
      default:
        return "";
    }
  } catch {
    return "";
  }
}

/** What an Evaluate call through the proxy asked: its target organizations, chaincode and arguments. */
export function evaluation(call: ProxiedCall): { targets: string[]; chaincode: string; args: string[] } {
  const request = gatewayProtos.EvaluateRequest.deserializeBinary(call.requests[0] ?? new Uint8Array(0));
  const proposal = peer.Proposal.deserializeBinary(
    request.getProposedTransaction()?.getProposalBytes_asU8() ?? new Uint8Array(0),
  );
  const payload = peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
  const spec = peer.ChaincodeInvocationSpec.deserializeBinary(payload.getInput_asU8()).getChaincodeSpec();
  return {
    targets: request.getTargetOrganizationsList(),
    chaincode: spec?.getChaincodeId()?.getName() ?? "",
    args: (spec?.getInput()?.getArgsList_asU8() ?? []).map((a) => Buffer.from(a).toString("utf8")),
  };
}
