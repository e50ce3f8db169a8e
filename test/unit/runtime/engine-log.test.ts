import { strict as assert } from "node:assert";
import * as grpc from "@grpc/grpc-js";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { flushLogs, log } from "../../../provider/runtime/context";
import { encodeLogRequest, engineAddressOf, sendToEngine } from "../../../provider/runtime/engine-log";

const URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/compute:FirewallPolicyMove::edge";
const PROVIDER_ARGV = ["/usr/bin/node", "/p/node_modules/@pulumi/pulumi/cmd/dynamic-provider/index.js"];

/** A fake engine serving `pulumirpc.Engine/Log` on a free port; `onLog` answers each call. */
async function fakeEngine(
  onLog: (request: Buffer, answer: () => void) => void,
): Promise<{ server: grpc.Server; port: number }> {
  const server = new grpc.Server();
  server.addService(
    {
      Log: {
        path: "/pulumirpc.Engine/Log",
        requestStream: false,
        responseStream: false,
        requestSerialize: (b: Buffer) => b,
        requestDeserialize: (b: Buffer) => b,
        responseSerialize: (b: Buffer) => b,
        responseDeserialize: (b: Buffer) => b,
      },
    },
    {
      Log: (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        onLog(call.request, () => {
          callback(null, Buffer.alloc(0));
        });
      },
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => {
      if (e) reject(e);
      else resolve(p);
    });
  });
  return { server, port };
}

describe("engine log (messages from the dynamic provider to the engine)", () => {
  it("encodes a LogRequest that Pulumi's own generated class reads back field for field", () => {
    const bytes = encodeLogRequest({ severity: "warning", message: "moving: RUNNING 40%", urn: URN, ephemeral: true });
    const decoded = LogRequest.deserializeBinary(bytes);
    assert.deepEqual(decoded.toObject(), {
      severity: LogSeverity.WARNING,
      message: "moving: RUNNING 40%",
      urn: URN,
      streamid: 0,
      ephemeral: true,
    });
    const expected = new LogRequest().setSeverity(LogSeverity.WARNING).setMessage("moving: RUNNING 40%").setUrn(URN);
    assert.deepEqual(Buffer.from(bytes), Buffer.from(expected.setEphemeral(true).serializeBinary()));
  });

  it("finds the engine's address only in a dynamic-provider process started by the engine", () => {
    assert.equal(engineAddressOf([...PROVIDER_ARGV, "127.0.0.1:41235"]), "127.0.0.1:41235");
    assert.equal(engineAddressOf([...PROVIDER_ARGV]), undefined);
    assert.equal(engineAddressOf(["/usr/bin/node", "/p/dist/test/unit/x.test.js", "127.0.0.1:41235"]), undefined);
    assert.equal(engineAddressOf([...PROVIDER_ARGV, "--flag"]), undefined);
    // The plugin: node runs the executable wrapper, so the wrapper is the entry.
    assert.equal(
      engineAddressOf([
        "/usr/bin/node",
        "/p/node_modules/pulumi-opsledger/bin/pulumi-resource-opsledger",
        "127.0.0.1:41235",
      ]),
      "127.0.0.1:41235",
    );
    assert.equal(
      engineAddressOf(["/usr/bin/node", "/p/bin/pulumi-resource-opsledger-old", "127.0.0.1:41235"]),
      undefined,
    );
  });

  it("sends to the engine's Log method, and falls back for good once the engine does not answer", async () => {
    const received: Buffer[] = [];
    const { server, port } = await fakeEngine((request, answer) => {
      received.push(request);
      answer();
    });
    const argv = [...PROVIDER_ARGV, `127.0.0.1:${port}`];
    const message = { severity: "info", message: "moving: DONE 100%", urn: URN, ephemeral: true } as const;
    try {
      assert.equal(await sendToEngine(message, argv), true);
      assert.equal(received.length, 1);
      assert.equal(LogRequest.deserializeBinary(received[0] ?? Buffer.alloc(0)).getMessage(), "moving: DONE 100%");
    } finally {
      await new Promise<void>((resolve) => {
        server.tryShutdown(() => {
          resolve();
        });
      });
    }
    assert.equal(await sendToEngine(message, argv), false, "the engine is gone");
    assert.equal(await sendToEngine(message, argv), false, "and is not tried again");
    assert.equal(received.length, 1);
  });

  it("lets a provider answer only once every message it reported has reached the engine (flushLogs)", async () => {
    // The engine answers each Log call 300 ms after it arrives: a provider that answered its own call without waiting
    // raced these messages, and a refresh could end (and its summary print) before they were shown.
    let answered = 0;
    const { server, port } = await fakeEngine((_request, answer) => {
      setTimeout(() => {
        answered++;
        answer();
      }, 300);
    });
    const argv = process.argv;
    process.argv = [...PROVIDER_ARGV, `127.0.0.1:${String(port)}`];
    try {
      log("info", "inventory source group 5005 exists again", URN);
      log("warning", "v1 is deprecated", URN);
      assert.equal(answered, 0);
      await flushLogs();
      assert.equal(answered, 2, "both messages were answered by the engine before flushLogs resolved");
      await flushLogs(); // nothing in flight: resolves at once
    } finally {
      process.argv = argv;
      server.forceShutdown();
    }
  });
});
