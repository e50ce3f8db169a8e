import { strict as assert } from "node:assert";
import {
  CommitStatusError,
  EndorseError,
  GatewayError,
  connect,
  newIdentity,
  newPrivateKeySigner,
  type Gateway,
} from "../../../provider/ledger";
import { ConfigError } from "../../../provider/errors";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { connectOurs, failure, text, trustedMspsOf } from "./helpers";

describe("ledger gateway client connections to the Fabric sandbox", () => {
  let sandbox: FabricSandbox;
  let foreign: FabricSandbox;
  let client: SandboxIdentity;
  let gateway: Gateway;
  const delays: number[] = [];
  let sleepHook: (ms: number) => Promise<void> = () => Promise.resolve();

  before(async () => {
    sandbox = await startFabricSandbox({ port: 0, sleep: (ms) => sleepHook(ms) });
    foreign = await startFabricSandbox({ port: 0 });
    client = sandbox.newClientIdentity("Org1MSP");
    gateway = connectOurs(sandbox, client);
  });
  after(async () => {
    gateway.close();
    await sandbox.close();
    await foreign.close();
  });
  beforeEach(() => {
    sandbox.reset();
    delays.length = 0;
    sleepHook = () => Promise.resolve();
  });

  const put = (g: Gateway, key: string, value: string) =>
    g.submitTransaction({
      channelId: sandbox.channel,
      chaincodeName: sandbox.chaincode,
      functionName: "PutAsset",
      args: [key, value],
    });
  const read = (g: Gateway, key: string) =>
    g.evaluateTransaction({
      channelId: sandbox.channel,
      chaincodeName: sandbox.chaincode,
      functionName: "ReadAsset",
      args: [key],
    });

  it("surfaces the gateway ErrorDetail when the client identity is unknown to the MSP", async () => {
    const stranger = connectOurs(sandbox, foreign.newClientIdentity("Org1MSP"));
    try {
      const err = await failure(put(stranger, "asset1", "blue"));
      assert.ok(err instanceof EndorseError);
      assert.deepEqual([err.name, err.code, err.method], ["EndorseError", 10, "/gateway.Gateway/Endorse"]);
      assert.match(err.transactionId, /^[0-9a-f]{64}$/);
      assert.deepEqual(err.details, [
        {
          address: "peer0.org1msp:7051",
          mspId: "Org1MSP",
          message: "error validating proposal: access denied: channel [opsledger] creator org [Org1MSP]",
        },
      ]);
      assert.equal(
        err.message,
        "/gateway.Gateway/Endorse failed (gRPC 10): failed to endorse transaction, see attached details for more info [Org1MSP@peer0.org1msp:7051: error validating proposal: access denied: channel [opsledger] creator org [Org1MSP]]",
      );
      const evaluation = await failure(read(stranger, "asset1"));
      assert.ok(evaluation instanceof GatewayError);
      assert.deepEqual([evaluation.name, evaluation.code], ["GatewayError", 9]);
      assert.deepEqual(
        evaluation.details.map((d) => [d.mspId, d.message]),
        [["Org1MSP", "error validating proposal: access denied: channel [opsledger] creator org [Org1MSP]"]],
      );
      assert.equal(sandbox.transactionCount(), 0);
    } finally {
      stranger.close();
    }
  });

  it("surfaces the drop of a connection as UNAVAILABLE and serves the next call", async () => {
    await put(gateway, "asset1", "blue");
    sandbox.setFaults({ dropConnections: 1 });
    const err = await failure(read(gateway, "asset1"));
    assert.ok(err instanceof GatewayError);
    assert.deepEqual([err.name, err.code, err.method], ["GatewayError", 14, "/gateway.Gateway/Evaluate"]);
    assert.equal(err.message, "/gateway.Gateway/Evaluate failed (gRPC 14): Connection dropped");
    assert.equal(text(await read(gateway, "asset1")), "blue");
  });

  it("fails a submission whose Endorse connection drops with EndorseError UNAVAILABLE and orders nothing", async () => {
    sandbox.setFaults({ dropConnections: 1 });
    const err = await failure(put(gateway, "asset1", "blue"));
    assert.ok(err instanceof EndorseError);
    assert.equal(err.code, 14);
    assert.equal(err.message, "/gateway.Gateway/Endorse failed (gRPC 14): Connection dropped");
    assert.deepEqual(err.details, []);
    assert.equal(sandbox.transactionCount(), 0);
    const retried = await put(gateway, "asset1", "blue");
    assert.deepEqual([retried.status.codeName, retried.status.blockNumber], ["VALID", 1n]);
  });

  it("fails a call whose deadline has passed with DEADLINE_EXCEEDED and orders nothing", async () => {
    const hurried = connectOurs(sandbox, client, {
      endorseOptions: () => ({ deadline: Date.now() - 1 }),
      evaluateOptions: () => ({ deadline: Date.now() - 1 }),
    });
    try {
      const endorse = await failure(put(hurried, "asset1", "blue"));
      assert.ok(endorse instanceof EndorseError);
      assert.deepEqual([endorse.code, endorse.details], [4, []]);
      const evaluate = await failure(read(hurried, "asset1"));
      assert.ok(evaluate instanceof GatewayError);
      assert.equal(evaluate.code, 4);
      assert.match(evaluate.message, /^\/gateway\.Gateway\/Evaluate failed \(gRPC 4\): Deadline exceeded after /);
      assert.equal(sandbox.transactionCount(), 0);
    } finally {
      hurried.close();
    }
  });

  it("fails CommitStatus at its deadline while the block is held, and reports VALID once it commits", async () => {
    let release: () => void = () => undefined;
    sleepHook = (ms) => {
      delays.push(ms);
      return new Promise<void>((resolve) => {
        release = resolve;
      });
    };
    sandbox.setFaults({ commitDelayMs: 60_000 });
    const impatient = connectOurs(sandbox, client, { commitStatusOptions: () => ({ deadline: Date.now() + 150 }) });
    try {
      const transaction = await impatient
        .newProposal({
          channelId: sandbox.channel,
          chaincodeName: sandbox.chaincode,
          functionName: "PutAsset",
          args: ["asset1", "blue"],
        })
        .endorse();
      const commit = await transaction.submit();
      const err = await failure(commit.getStatus());
      assert.ok(err instanceof CommitStatusError);
      assert.deepEqual(
        [err.name, err.code, err.method, err.transactionId],
        ["CommitStatusError", 4, "/gateway.Gateway/CommitStatus", transaction.getTransactionId()],
      );
      assert.deepEqual(delays, [60_000]);
      assert.equal(sandbox.transactionCount(), 0);
      release();
      const status = await gateway.getCommitStatus(sandbox.channel, transaction.getTransactionId());
      assert.deepEqual([status.codeName, status.blockNumber], ["VALID", 1n]);
    } finally {
      impatient.close();
    }
  });

  it("refuses an insecure connection to a non-loopback address before sending anything", () => {
    assert.throws(
      () =>
        connect({
          address: "gateway.example.com:7051",
          identity: newIdentity(client.mspId, client.certificatePem),
          trustedMsps: trustedMspsOf(sandbox),
        }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.setting === "gateway.tls" &&
        e.message ===
          "gateway gateway.example.com:7051: an insecure connection is allowed only to a loopback address; set gateway.tls.rootCertificates",
    );
  });
});

describe("ledger gateway client over TLS to the Fabric sandbox", () => {
  let sandbox: FabricSandbox;
  let other: FabricSandbox;
  let client: SandboxIdentity;

  before(async () => {
    sandbox = await startFabricSandbox({ port: 0, tls: true });
    other = await startFabricSandbox({ port: 0, tls: true });
    client = sandbox.newClientIdentity("Org2MSP");
  });
  after(async () => {
    await sandbox.close();
    await other.close();
  });

  const tlsGateway = (rootCertificates: string | undefined): Gateway =>
    connect({
      address: sandbox.address,
      // The server certificate's SANs include "localhost": naming it avoids an IP address as the TLS server name.
      ...(rootCertificates === undefined ? {} : { tls: { rootCertificates, serverNameOverride: "localhost" } }),
      identity: newIdentity(client.mspId, client.certificatePem),
      signer: newPrivateKeySigner(client.privateKeyPem),
      trustedMsps: trustedMspsOf(sandbox),
    });

  it("submits, evaluates and reads back over TLS trusting the sandbox's root CA", async () => {
    assert.ok(sandbox.tlsRootCertPem !== undefined);
    const gateway = tlsGateway(sandbox.tlsRootCertPem);
    try {
      const submitted = await gateway.submitTransaction({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "CreateAsset",
        args: ["asset1", "blue"],
      });
      assert.deepEqual([submitted.status.codeName, submitted.status.blockNumber], ["VALID", 1n]);
      assert.deepEqual(
        submitted.verification?.endorsers.map((e) => e.mspId),
        ["Org1MSP", "Org2MSP"],
      );
      const value = await gateway.evaluateTransaction({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "ReadAsset",
        args: ["asset1"],
      });
      assert.equal(text(value), "blue");
      const processed = await gateway.getTransactionById(sandbox.channel, submitted.transactionId);
      assert.equal(processed.validationCode, 0);
    } finally {
      gateway.close();
    }
  });

  it("fails with UNAVAILABLE when the server certificate does not chain to the given root", async () => {
    assert.ok(other.tlsRootCertPem !== undefined);
    const gateway = tlsGateway(other.tlsRootCertPem);
    const transactionsBefore = sandbox.transactionCount();
    try {
      const err = await failure(
        gateway.evaluateTransaction({
          channelId: sandbox.channel,
          chaincodeName: sandbox.chaincode,
          functionName: "AssetExists",
          args: ["asset1"],
        }),
      );
      assert.ok(err instanceof GatewayError);
      assert.equal(err.code, 14);
      assert.match(
        err.message,
        /^\/gateway\.Gateway\/Evaluate failed \(gRPC 14\): .*unable to verify the first certificate/,
      );
      assert.equal(sandbox.transactionCount(), transactionsBefore);
    } finally {
      gateway.close();
    }
  });

  it("fails with UNAVAILABLE when an insecure client talks to the TLS gateway, and orders nothing", async () => {
    const gateway = tlsGateway(undefined);
    const transactionsBefore = sandbox.transactionCount();
    try {
      const err = await failure(
        gateway.submitTransaction({
          channelId: sandbox.channel,
          chaincodeName: sandbox.chaincode,
          functionName: "PutAsset",
          args: ["asset9", "blue"],
        }),
      );
      assert.ok(err instanceof EndorseError);
      assert.deepEqual([err.code, err.details], [14, []]);
      assert.equal(sandbox.transactionCount(), transactionsBefore);
    } finally {
      gateway.close();
    }
  });
});
