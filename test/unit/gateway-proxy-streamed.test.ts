import assert from "node:assert/strict";
import * as http2 from "node:http2";
import { grpcMessages, startGatewayProxy } from "../helpers/gateway-proxy";
import { grpcFrame, startCoalescingGrpcServer } from "./helpers/coalescing-grpc-server";
import { localhostTls } from "./helpers/localhost-tls";

const DELIVER = "/orderer.AtomicBroadcast/Deliver";
/** Concurrent calls, every other one read slowly by its client. */
const CALLS = 8;
const MESSAGES_PER_CALL = 4;
/** Each message several times the 64 KiB HTTP/2 stream window, so flow control and the proxy's backpressure engage. */
const MESSAGE_BYTES = 300 * 1024;

/** Message `m` of call `c`: PEM-like lines naming their call, message and offset, so a lost or moved byte shows. */
function message(c: number, m: number): Buffer {
  const lines: string[] = [];
  for (let at = 0; lines.length * 32 < MESSAGE_BYTES; at++) {
    lines.push(`MDBa c${String(c).padStart(2, "0")} m${String(m)} ${String(at).padStart(19, "0")}\n`);
  }
  return Buffer.from(lines.join(""));
}

/** The length each gRPC prefix in `body` declares, read as a client reads them (one read mid-message declares text). */
function declaredLengths(body: Buffer): number[] {
  const lengths: number[] = [];
  for (let at = 0; at + 5 <= body.length; at += 5 + body.readUInt32BE(at + 1)) lengths.push(body.readUInt32BE(at + 1));
  return lengths;
}

/** Reads a call's whole answer; a slow reader takes one chunk per turn of the event loop, the others read as it comes. */
function readAnswer(request: http2.ClientHttp2Stream, slow: boolean): Promise<{ body: Buffer; status: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let status = "";
    request.on("trailers", (trailers: http2.IncomingHttpHeaders) => {
      status = String(trailers["grpc-status"]);
    });
    request.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      if (!slow) return;
      request.pause();
      setImmediate(() => request.resume());
    });
    request.on("end", () => {
      resolve({ body: Buffer.concat(chunks), status });
    });
    request.on("error", reject);
  });
}

/**
 * The e2e gateway proxy's streamed answers (an orderer's Deliver) with many calls in flight on its one upstream
 * session: several large messages per call, some clients reading slowly so the proxy must wait for them. Every message
 * must reach its client whole and in order, as the upstream sent it. The upstream writes a call's HEADERS and first
 * DATA together, behind other calls' DATA, as an orderer does (node:http2 as the upstream sends HEADERS on their own):
 * a proxy that reads a chunk before it has handled the response headers loses it.
 */
describe("the e2e gateway proxy, streamed answers of concurrent calls", () => {
  it("forwards every message of every call whole and in order, slow readers too", async () => {
    const { caPem, ...tls } = localhostTls("tlsca.proxy-streamed.test");

    // The upstream orderer answers each Deliver with its call's messages, its frames coalesced as grpc-go writes them.
    const upstream = await startCoalescingGrpcServer({
      tls,
      answer: (request) => Array.from({ length: MESSAGES_PER_CALL }, (_, m) => message(request.readUInt8(0), m)),
    });
    const proxy = await startGatewayProxy({
      upstream: { address: upstream.address, tlsRootCertPem: caPem, serverName: "localhost" },
      serverTls: { certificatePem: tls.cert, privateKeyPem: tls.key },
      streamed: [DELIVER],
    });
    const client = http2.connect(`https://${proxy.address}`, { ca: caPem, servername: "localhost" });
    try {
      const answers = await Promise.all(
        Array.from({ length: CALLS }, (_, c) => {
          const request = client.request({ ":method": "POST", ":path": DELIVER, "content-type": "application/grpc" });
          request.end(grpcFrame(Buffer.from([c])));
          return readAnswer(request, c % 2 === 1);
        }),
      );
      answers.forEach((answer, c) => {
        assert.equal(answer.status, "0", `call ${String(c)}: grpc-status`);
        assert.deepEqual(
          declaredLengths(answer.body),
          Array<number>(MESSAGES_PER_CALL).fill(message(c, 0).length),
          `call ${String(c)}: the messages' lengths as the client reads them`,
        );
        grpcMessages(answer.body).forEach((got, m) => {
          assert.ok(got.equals(message(c, m)), `call ${String(c)}, message ${String(m)}: the bytes the upstream sent`);
        });
      });
      // The proxy's own record of each call holds the same messages.
      assert.equal(proxy.calls.length, CALLS);
      for (const call of proxy.calls) {
        const c = call.requests[0]?.readUInt8(0) ?? -1;
        assert.deepEqual(
          call.responses.map((r, m) => r.equals(message(c, m))),
          Array<boolean>(MESSAGES_PER_CALL).fill(true),
          `the proxy's record of call ${String(c)}`,
        );
      }
    } finally {
      client.close();
      await proxy.close();
      await upstream.close();
    }
  });
});
