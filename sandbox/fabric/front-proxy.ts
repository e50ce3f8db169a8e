/**
 * The sandbox's public endpoint: a TCP (or TLS, with ALPN h2) listener that relays bytes to the internal gRPC
 * server. It reads the client's HTTP/2 frames as they pass so that it can drop connections for real: while
 * `dropNext()` has drops pending, the connection carrying the next call's HEADERS frame (a new gRPC call) is
 * destroyed before the call reaches the server, which the client sees as UNAVAILABLE.
 */
import * as net from "node:net";
import * as tls from "node:tls";

const CLIENT_PREFACE_LENGTH = 24; // "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
const FRAME_HEADER_LENGTH = 9;
const HEADERS_FRAME = 0x1;

export interface FrontProxyOptions {
  readonly port: number;
  readonly upstreamPort: number;
  /** Serve TLS with this key and certificate chain (PEM); plain TCP otherwise. */
  readonly tls?: { readonly keyPem: string; readonly certificatePem: string };
  /** Asked once per new call; true drops the connection carrying it. */
  readonly shouldDrop: () => boolean;
}

/** Tracks where the client→server byte stream is in its HTTP/2 framing. */
class FrameScanner {
  private prefaceLeft = CLIENT_PREFACE_LENGTH;
  private header = Buffer.alloc(0);
  private payloadLeft = 0;

  /** Consumes `chunk`; returns how many HEADERS frames begin in it. */
  scan(chunk: Buffer): number {
    let offset = 0;
    let headers = 0;
    while (offset < chunk.length) {
      if (this.prefaceLeft > 0) {
        const n = Math.min(this.prefaceLeft, chunk.length - offset);
        this.prefaceLeft -= n;
        offset += n;
      } else if (this.payloadLeft > 0) {
        const n = Math.min(this.payloadLeft, chunk.length - offset);
        this.payloadLeft -= n;
        offset += n;
      } else {
        const n = Math.min(FRAME_HEADER_LENGTH - this.header.length, chunk.length - offset);
        this.header = Buffer.concat([this.header, chunk.subarray(offset, offset + n)]);
        offset += n;
        if (this.header.length === FRAME_HEADER_LENGTH) {
          this.payloadLeft = this.header.readUIntBE(0, 3);
          if (this.header[3] === HEADERS_FRAME) headers++;
          this.header = Buffer.alloc(0);
        }
      }
    }
    return headers;
  }
}

export class FrontProxy {
  private readonly server: net.Server;
  private readonly sockets = new Set<net.Socket>();

  private constructor(private readonly options: FrontProxyOptions) {
    const onConnection = (client: net.Socket): void => {
      this.relay(client);
    };
    this.server =
      options.tls === undefined
        ? net.createServer(onConnection)
        : tls.createServer(
            { key: options.tls.keyPem, cert: options.tls.certificatePem, ALPNProtocols: ["h2"] },
            onConnection,
          );
  }

  static async listen(options: FrontProxyOptions): Promise<FrontProxy> {
    const proxy = new FrontProxy(options);
    await new Promise<void>((resolve, reject) => {
      proxy.server.once("error", reject);
      proxy.server.listen(options.port, "127.0.0.1", () => {
        proxy.server.off("error", reject);
        resolve();
      });
    });
    return proxy;
  }

  get port(): number {
    const address = this.server.address();
    return typeof address === "object" && address !== null ? address.port : 0;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }

  private track(socket: net.Socket): void {
    this.sockets.add(socket);
    socket.once("close", () => this.sockets.delete(socket));
  }

  private relay(client: net.Socket): void {
    const upstream = net.connect(this.options.upstreamPort, "127.0.0.1");
    // Relay frames as they come: Nagle's algorithm would hold small HTTP/2 frames back for tens of milliseconds.
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    this.track(client);
    this.track(upstream);
    const scanner = new FrameScanner();
    const dropBoth = (): void => {
      client.destroy();
      upstream.destroy();
    };
    client.on("data", (chunk: Buffer) => {
      const calls = scanner.scan(chunk);
      for (let i = 0; i < calls; i++) {
        if (this.options.shouldDrop()) {
          dropBoth();
          return;
        }
      }
      if (!upstream.write(chunk)) {
        client.pause();
        upstream.once("drain", () => client.resume());
      }
    });
    upstream.pipe(client);
    client.on("error", dropBoth);
    upstream.on("error", dropBoth);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  }
}
