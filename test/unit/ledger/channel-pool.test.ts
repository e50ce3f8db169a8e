/**
 * provider/ledger/channel-pool.ts: the creates, reads and deletes of one provider process share one
 * gRPC channel (connection) per gateway settings (docs/benchmarks.md, "The ledger through the engine"); settings that differ never
 * share one; a connection left broken is not handed out again; one nobody uses is closed after the idle delay (the
 * pool's schedule, recorded here) and never holds the process open meanwhile. Each test has a pool of its own; each
 * lease makes a call to an HTTP/2 server on 127.0.0.1 (grpc-js speaks h2c to a loopback address without TLS), which
 * notes the connections the calls came on.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as http2 from "node:http2";
import type * as net from "node:net";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { DEFAULT_IDLE_CLOSE_MS, newGatewayChannelPool } from "../../../provider/ledger/channel-pool";
import type { GatewayChannelPool } from "../../../provider/ledger/channel-pool";
import { newMember, newOrg } from "./fixtures";
import type { TestMember } from "./fixtures";

/** The method every lease calls: the server answers it UNIMPLEMENTED, after noting the connection it came on. */
const PING = "/opsledger.test.Channels/Ping";

/**
 * An h2c server counting the connections (HTTP/2 sessions) that carried a PING call. Only those: a grpc-js channel left
 * open by another test file in the same mocha worker may still be reconnecting to a port this server reuses, and its
 * bare connections are not this test's.
 */
async function countingServer(): Promise<{ address: string; sessions: () => number; close: () => Promise<void> }> {
  const server = http2.createServer();
  const sessions = new Set<http2.Http2Session>();
  server.on("stream", (stream, headers) => {
    if (headers[":path"] === PING && stream.session !== undefined) sessions.add(stream.session);
    stream.respond({ ":status": 200, "content-type": "application/grpc", "grpc-status": "12" }, { endStream: true });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    sessions: () => sessions.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const session of sessions) session.destroy();
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** One PING call on the client's channel, bounded; resolves when the server answered (UNIMPLEMENTED). */
function ping(client: grpc.Client): Promise<void> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      PING,
      (b: Buffer) => b,
      (b: Buffer) => b,
      Buffer.alloc(0),
      { deadline: Date.now() + 10_000 },
      (error) => {
        if (error?.code === grpc.status.UNIMPLEMENTED) resolve();
        else reject(error ?? new Error("the server answered PING"));
      },
    );
  });
}

/** Resolves once the channel reaches `state`, asking it to connect; rejects after 10 s. */
function reaches(client: grpc.Client, state: grpc.connectivityState): Promise<void> {
  const channel = client.getChannel();
  const deadline = Date.now() + 10_000;
  return new Promise((resolve, reject) => {
    const watch = (): void => {
      const now = channel.getConnectivityState(true);
      if (now === state) {
        resolve();
        return;
      }
      channel.watchConnectivityState(now, deadline, (error) => {
        if (error) reject(error);
        else watch();
      });
    };
    watch();
  });
}

/** A timer the pool scheduled: its delay, and whether it ran or was cancelled. */
interface RecordedRun {
  readonly ms: number;
  readonly run: () => void;
  cancelled: boolean;
}

describe("one gateway connection per provider process and settings (provider/ledger/channel-pool.ts)", function () {
  let scheduled: RecordedRun[] = [];
  let pool: GatewayChannelPool;
  const leaseGatewayChannel = (...args: Parameters<GatewayChannelPool["lease"]>) => pool.lease(...args);
  const openGatewayChannels = (): number => pool.openChannels();

  beforeEach(() => {
    scheduled = [];
    pool = newGatewayChannelPool({
      schedule: (run, ms) => {
        const timer: RecordedRun = { ms, run, cancelled: false };
        scheduled.push(timer);
        return {
          cancel: () => {
            timer.cancelled = true;
          },
        };
      },
    });
  });
  afterEach(() => {
    pool.closeIdle();
    assert.equal(openGatewayChannels(), 0, "a test left a lease open");
  });

  it("serves twenty leases with the same settings through one channel, kept across leases", async () => {
    const server = await countingServer();
    try {
      const leases = Array.from({ length: 20 }, () => leaseGatewayChannel(server.address, undefined));
      assert.equal(new Set(leases.map((l) => l.client)).size, 1);
      await Promise.all(leases.map((l) => ping(l.client)));
      for (const l of leases) l.release();
      const again = leaseGatewayChannel(server.address, undefined);
      await ping(again.client);
      again.release();
      assert.equal(again.client, leases[0]?.client);
      assert.equal(server.sessions(), 1);
      assert.equal(openGatewayChannels(), 1);
    } finally {
      await server.close();
    }
  });

  it("never shares a connection between settings that differ in the address, the roots, the client key or the name", async () => {
    const org1 = await newOrg("Org1MSP");
    const org2 = await newOrg("Org2MSP");
    const [a, b] = [await newMember(org1, "client-a"), await newMember(org1, "client-b")];
    const pem = (m: TestMember) => Buffer.from(m.identity.credentials).toString();
    const tls = { rootCertificates: org1.caPem, clientCertificate: pem(a), clientPrivateKey: a.privateKeyPem };
    const leases = [
      leaseGatewayChannel("127.0.0.1:7051", undefined),
      leaseGatewayChannel("127.0.0.1:7052", undefined),
      leaseGatewayChannel("peer0.org1.example.com:7051", tls),
      leaseGatewayChannel("peer0.org1.example.com:7051", {
        ...tls,
        clientCertificate: pem(b),
        clientPrivateKey: b.privateKeyPem,
      }),
      leaseGatewayChannel("peer0.org1.example.com:7051", { ...tls, rootCertificates: `${org1.caPem}${org2.caPem}` }),
      leaseGatewayChannel("peer0.org1.example.com:7051", { ...tls, serverNameOverride: "peer0" }),
    ];
    assert.equal(new Set(leases.map((l) => l.client)).size, leases.length);
    assert.equal(openGatewayChannels(), leases.length);
    const same = leaseGatewayChannel("peer0.org1.example.com:7051", { ...tls });
    assert.equal(same.client, leases[2]?.client);
    for (const l of [...leases, same]) l.release();
  });

  it("refuses settings no connection can be opened with, naming the setting, and keeps no channel", () => {
    assert.throws(() => leaseGatewayChannel("peer0.org1.example.com:7051", undefined), {
      name: "ConfigError",
      message: /gateway.tls.rootCertificates/,
    });
    assert.equal(openGatewayChannels(), 0);
  });

  it("closes a connection its lease left broken and opens a new one for the next lease", async () => {
    const server = await countingServer();
    const address = server.address;
    await server.close();
    const first = leaseGatewayChannel(address, undefined);
    await reaches(first.client, grpc.connectivityState.TRANSIENT_FAILURE);
    first.release();
    assert.equal(openGatewayChannels(), 0);
    assert.equal(first.client.getChannel().getConnectivityState(false), grpc.connectivityState.SHUTDOWN);
    const next = leaseGatewayChannel(address, undefined);
    assert.notEqual(next.client, first.client);
    next.release();
  });

  it("gives a running lease's broken connection to no new lease, and closes it when that lease ends", async () => {
    const server = await countingServer();
    const address = server.address;
    await server.close();
    const running = leaseGatewayChannel(address, undefined);
    await reaches(running.client, grpc.connectivityState.TRANSIENT_FAILURE);
    const next = leaseGatewayChannel(address, undefined);
    assert.notEqual(next.client, running.client);
    running.release();
    assert.equal(running.client.getChannel().getConnectivityState(false), grpc.connectivityState.SHUTDOWN);
    assert.equal(openGatewayChannels(), 1);
    next.release();
  });

  it("closes a connection no lease has used for DEFAULT_IDLE_CLOSE_MS, and keeps one a new lease took", async () => {
    const server = await countingServer();
    try {
      const lease = leaseGatewayChannel(server.address, undefined);
      await ping(lease.client);
      assert.equal(scheduled.length, 0, "nothing scheduled while a lease runs");
      lease.release();
      const again = leaseGatewayChannel(server.address, undefined);
      again.release();
      assert.deepEqual(
        scheduled.map((t) => [t.ms, t.cancelled]),
        [
          [DEFAULT_IDLE_CLOSE_MS, true],
          [DEFAULT_IDLE_CLOSE_MS, false],
        ],
      );
      assert.equal(again.client, lease.client);
      assert.equal(openGatewayChannels(), 1);
      scheduled[1]?.run();
      assert.equal(openGatewayChannels(), 0);
      assert.equal(lease.client.getChannel().getConnectivityState(false), grpc.connectivityState.SHUTDOWN);
    } finally {
      await server.close();
    }
  });

  it("lets a process that released its connected lease exit on its own, the connection still cached", async function () {
    // The child, with the pool's own timer, must exit before DEFAULT_IDLE_CLOSE_MS with the channel still open; held
    // by the connection or the timer, it would exit only once the timer closed it ("0 open").
    this.timeout(DEFAULT_IDLE_CLOSE_MS * 3);
    const server = await countingServer();
    try {
      const modulePath = path.resolve(__dirname, "../../../provider/ledger/channel-pool.js");
      const script = `
        const channels = require(${JSON.stringify(modulePath)}).newGatewayChannelPool();
        const lease = channels.lease(${JSON.stringify(server.address)}, undefined);
        const id = (b) => b;
        lease.client.makeUnaryRequest(${JSON.stringify(PING)}, id, id, Buffer.alloc(0), { deadline: Date.now() + 10000 }, (error) => {
          if (error?.code !== 12) { console.error(String(error?.message)); process.exit(2); }
          lease.release();
          process.on("exit", () => console.log("exit with " + channels.openChannels() + " open"));
        });`;
      const child = spawn(process.execPath, ["-e", script], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      const exited = await new Promise<number | null | "held">((resolve) => {
        const held = setTimeout(() => {
          resolve("held");
        }, DEFAULT_IDLE_CLOSE_MS * 2);
        child.on("exit", (code) => {
          clearTimeout(held);
          resolve(code);
        });
      });
      if (exited === "held") child.kill("SIGKILL");
      assert.equal(exited, 0);
      assert.equal(out.trim(), "exit with 1 open");
      assert.ok(server.sessions() >= 1, "the child's call reached the server");
    } finally {
      await server.close();
    }
  });
});
