/**
 * A gRPC server that writes its HTTP/2 frames as grpc-go does and node:http2 does not: every stream's response HEADERS,
 * DATA and trailers in turn, coalesced into one socket write per turn, so a new call's HEADERS and its first DATA reach
 * the client in the same read as other calls' DATA (what a Fabric orderer does with several Deliver streams). Only
 * what a unit test needs: TLS with ALPN h2, flow control, and each call answered with the messages `answer` returns for
 * its first request message, then grpc-status 0. Request header blocks are not decoded.
 */
import * as tls from "node:tls";
import type { AddressInfo } from "node:net";

const PREFACE = Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
const FRAME = { data: 0, headers: 1, rstStream: 3, settings: 4, ping: 6, windowUpdate: 8 } as const;
const FLAG = { endStream: 0x1, ack: 0x1, endHeaders: 0x4, padded: 0x8 } as const;
const SETTING = { initialWindowSize: 0x4, maxFrameSize: 0x5 } as const;
/** RFC 9113 defaults, until the client's SETTINGS say otherwise. */
const DEFAULT_WINDOW = 65_535;
const DEFAULT_MAX_FRAME = 16_384;

/** HPACK: `:status: 200` (static index 8), `content-type: application/grpc` (literal, static name index 31). */
const RESPONSE_HEADERS = Buffer.concat([Buffer.from([0x88, 0x0f, 0x10, 16]), Buffer.from("application/grpc")]);
/** HPACK: `grpc-status: 0`, a literal with a new name. */
const OK_TRAILERS = Buffer.concat([
  Buffer.from([0x00, 11]),
  Buffer.from("grpc-status"),
  Buffer.from([1]),
  Buffer.from("0"),
]);

export interface CoalescingGrpcServer {
  /** "127.0.0.1:<port>". */
  readonly address: string;
  close(): Promise<void>;
}

interface Stream {
  readonly id: number;
  readonly request: Buffer[];
  window: number;
  /** The answer's gRPC frames, once the request has ended. */
  answer: Buffer | undefined;
  sent: number;
  headersSent: boolean;
}

function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUIntBE(payload.length, 0, 3);
  header.writeUInt8(type, 3);
  header.writeUInt8(flags, 4);
  header.writeUInt32BE(streamId, 5);
  return Buffer.concat([header, payload]);
}

/** A gRPC message with its 5-byte prefix (not compressed, big-endian length). */
export function grpcFrame(message: Buffer): Buffer {
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(message.length, 1);
  return Buffer.concat([prefix, message]);
}

export async function startCoalescingGrpcServer(options: {
  readonly tls: { readonly cert: string; readonly key: string };
  /** The messages of a call's answer, given its first request message. */
  readonly answer: (request: Buffer) => readonly Buffer[];
}): Promise<CoalescingGrpcServer> {
  const sockets = new Set<tls.TLSSocket>();
  const server = tls.createServer({ ...options.tls, ALPNProtocols: ["h2"] }, (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {
      // the proxy's session reports what the test asserts
    });
    serve(socket, options.answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${String((server.address() as AddressInfo).port)}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function serve(socket: tls.TLSSocket, answer: (request: Buffer) => readonly Buffer[]): void {
  const streams = new Map<number, Stream>();
  let input = Buffer.alloc(0);
  let prefaceSeen = false;
  let connectionWindow = DEFAULT_WINDOW;
  let initialWindow = DEFAULT_WINDOW;
  let maxFrame = DEFAULT_MAX_FRAME;
  socket.write(frame(FRAME.settings, 0, 0, Buffer.alloc(0)));

  const receive = (type: number, flags: number, id: number, payload: Buffer): void => {
    switch (type) {
      case FRAME.settings:
        if ((flags & FLAG.ack) !== 0) return;
        for (let at = 0; at + 6 <= payload.length; at += 6) {
          const value = payload.readUInt32BE(at + 2);
          if (payload.readUInt16BE(at) === SETTING.initialWindowSize) {
            for (const stream of streams.values()) stream.window += value - initialWindow;
            initialWindow = value;
          } else if (payload.readUInt16BE(at) === SETTING.maxFrameSize) maxFrame = value;
        }
        socket.write(frame(FRAME.settings, FLAG.ack, 0, Buffer.alloc(0)));
        return;
      case FRAME.windowUpdate: {
        const increment = payload.readUInt32BE(0) & 0x7fffffff;
        if (id === 0) connectionWindow += increment;
        else {
          const stream = streams.get(id);
          if (stream !== undefined) stream.window += increment;
        }
        return;
      }
      case FRAME.headers:
        streams.set(id, { id, request: [], window: initialWindow, answer: undefined, sent: 0, headersSent: false });
        return;
      case FRAME.data: {
        const stream = streams.get(id);
        if (stream === undefined) return;
        const padding = (flags & FLAG.padded) !== 0 ? (payload[0] ?? 0) : -1;
        stream.request.push(padding < 0 ? payload : payload.subarray(1, payload.length - padding));
        if ((flags & FLAG.endStream) === 0) return;
        const body = Buffer.concat(stream.request);
        stream.answer = Buffer.concat(answer(body.subarray(5, 5 + body.readUInt32BE(1))).map(grpcFrame));
        return;
      }
      case FRAME.ping:
        if ((flags & FLAG.ack) === 0) socket.write(frame(FRAME.ping, FLAG.ack, 0, payload));
        return;
      case FRAME.rstStream:
        streams.delete(id);
        return;
      default:
      // PRIORITY, GOAWAY, CONTINUATION: nothing a test's call needs
    }
  };

  /** One write: every answering stream in turn, its HEADERS first, then a DATA frame per turn while windows allow. */
  const pump = (): void => {
    const out: Buffer[] = [];
    for (let progress = true; progress;) {
      progress = false;
      for (const stream of streams.values()) {
        if (stream.answer === undefined) continue;
        if (!stream.headersSent) {
          out.push(frame(FRAME.headers, FLAG.endHeaders, stream.id, RESPONSE_HEADERS));
          stream.headersSent = true;
          progress = true;
        }
        const size = Math.min(stream.answer.length - stream.sent, stream.window, connectionWindow, maxFrame);
        if (size > 0) {
          out.push(frame(FRAME.data, 0, stream.id, stream.answer.subarray(stream.sent, stream.sent + size)));
          stream.sent += size;
          stream.window -= size;
          connectionWindow -= size;
          progress = true;
        }
        if (stream.sent === stream.answer.length) {
          out.push(frame(FRAME.headers, FLAG.endHeaders | FLAG.endStream, stream.id, OK_TRAILERS));
          streams.delete(stream.id);
        }
      }
    }
    if (out.length > 0) socket.write(Buffer.concat(out));
  };

  socket.on("data", (chunk: Buffer) => {
    input = Buffer.concat([input, chunk]);
    if (!prefaceSeen) {
      if (input.length < PREFACE.length) return;
      input = input.subarray(PREFACE.length);
      prefaceSeen = true;
    }
    while (input.length >= 9 && input.length >= 9 + input.readUIntBE(0, 3)) {
      const length = input.readUIntBE(0, 3);
      receive(
        input.readUInt8(3),
        input.readUInt8(4),
        input.readUInt32BE(5) & 0x7fffffff,
        input.subarray(9, 9 + length),
      );
      input = input.subarray(9 + length);
    }
    pump();
  });
}
