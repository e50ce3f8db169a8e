import assert from "node:assert/strict";
import * as http2 from "node:http2";
import * as net from "node:net";
import * as tlsModule from "node:tls";
import { GATEWAY, startGatewayProxy } from "../helpers/gateway-proxy";
import { localhostTls } from "./helpers/localhost-tls";

/**
 * The e2e tests' gateway proxy (test/helpers/gateway-proxy.ts) when a client is killed mid-call, as the kill tests do:
 * the client's connection is reset while its call is held. Found in a full run (2026-11-26): the reset reached the
 * proxy's stream as an ECONNRESET 'error' with no listener, thrown into the test process as an uncaught exception,
 * which failed the kill test and let mocha start the next test while the first one's body ran on.
 */
describe("the e2e gateway proxy, its client reset mid-call", () => {
  it("records the call, cancels it upstream and raises nothing in the test process", async () => {
    const { caPem, ...tls } = localhostTls("tlsca.proxy-reset.test");

    // The upstream gateway answers CommitStatus with headers, then keeps the stream open until it is cancelled.
    let upstreamReached!: () => void;
    const reached = new Promise<void>((resolve) => {
      upstreamReached = resolve;
    });
    let upstreamClosed!: () => void;
    const upstreamCancelled = new Promise<void>((resolve) => {
      upstreamClosed = resolve;
    });
    const upstream = http2.createSecureServer(tls);
    upstream.on("stream", (stream) => {
      stream.respond({ ":status": 200, "content-type": "application/grpc" });
      stream.on("close", () => {
        upstreamClosed();
      });
      upstreamReached();
    });
    await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
    const upstreamPort = (upstream.address() as net.AddressInfo).port;

    const proxy = await startGatewayProxy({
      upstream: {
        address: `127.0.0.1:${String(upstreamPort)}`,
        tlsRootCertPem: caPem,
        serverName: "localhost",
      },
      serverTls: { certificatePem: tls.cert, privateKeyPem: tls.key },
    });
    const uncaught: Error[] = [];
    const onUncaught = (e: Error): void => {
      uncaught.push(e);
    };
    // mocha's own handler stays; this one records what reaches the process while the client is reset.
    process.prependListener("uncaughtException", onUncaught);
    try {
      // The client's own TCP socket under its TLS, so the test can reset it as the kernel does for a killed process.
      const [host, port] = proxy.address.split(":");
      const raw = net.connect(Number(port), host);
      const session = http2.connect(`https://${proxy.address}`, {
        createConnection: () =>
          tlsModule.connect({ socket: raw, ca: caPem, servername: "localhost", ALPNProtocols: ["h2"] }),
      });
      session.on("error", () => {
        // reset on purpose below
      });
      const request = session.request({ ":method": "POST", ":path": GATEWAY.commitStatus });
      request.on("error", () => {
        // reset on purpose below
      });
      request.end(Buffer.from([0, 0, 0, 0, 0]));
      // The call went through the proxy to the upstream, which holds it open: a call in flight, as when the kill lands.
      await reached;
      assert.deepEqual(proxy.paths(), [GATEWAY.commitStatus]);

      raw.resetAndDestroy(); // what a kill -9 leaves: the kernel answers with RST
      await upstreamCancelled; // the proxy cancelled the upstream call once its client was gone
      // Whatever the reset raises in the proxy is emitted by now (the upstream cancellation follows it).
      await new Promise<void>((resolve) => {
        setImmediate(resolve);
      });
      assert.deepEqual(uncaught, [], "nothing thrown into the test process");
      assert.equal(proxy.calls.length, 1);
    } finally {
      process.removeListener("uncaughtException", onUncaught);
      await proxy.close();
      await new Promise<void>((resolve) => {
        upstream.close(() => {
          resolve();
        });
      });
    }
  });
});
