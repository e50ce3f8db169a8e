/**
 * Our gateway client against what only the Fabric sandbox can stage: its fault knobs (a held block, an unreachable
 * organization, dropped connections). Everything a real network also shows runs as one body against the sandbox and
 * real Fabric in test/integration/ledger-targets/ (gateway-client, chaincode-events, verify-before-sign, ...).
 */
import { strict as assert } from "node:assert";
import { CommitError } from "../../../provider/errors/ledger/commit-error";
import { CommitStatusError } from "../../../provider/errors/ledger/commit-status-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { connect, type Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { newIdentity } from "../../../provider/ledger/identity";
import { validationCodeMeaning } from "../../../provider/errors/ledger/validation-codes";
import { ConfigError } from "../../../provider/errors";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { connectOurs, failure, ledgerCodes, text, trustedMspsOf } from "./helpers";

describe("ledger gateway client against the Fabric sandbox's fault knobs", () => {
  let sandbox: FabricSandbox;
  let client: SandboxIdentity;
  let gateway: Gateway;
  let channelId: string;
  let chaincodeName: string;
  const delays: number[] = [];
  let sleepHook: (ms: number) => Promise<void> = () => Promise.resolve();

  before(async () => {
    sandbox = await startFabricSandbox({ port: 0, sleep: (ms) => sleepHook(ms) });
    client = sandbox.newClientIdentity("Org1MSP");
    gateway = connectOurs(sandbox, client);
    channelId = sandbox.channel;
    chaincodeName = sandbox.chaincode;
  });
  after(async () => {
    gateway.close();
    await sandbox.close();
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

  it("rejects the losing one of two concurrent submitTransaction writers with MVCC_READ_CONFLICT", async () => {
    await gateway.submitTransaction({ channelId, chaincodeName, functionName: "PutAsset", args: ["asset1", "blue"] });
    // Both transactions are endorsed against version (1, 0); the orderer holds each block until both are submitted.
    const held: (() => void)[] = [];
    sleepHook = (ms) => {
      delays.push(ms);
      return new Promise<void>((resolve) => {
        held.push(resolve);
        if (held.length === 2) for (const release of held) release();
      });
    };
    sandbox.setFaults({ commitDelayMs: 5 });
    const write = (value: string) =>
      gateway.submitTransaction({ channelId, chaincodeName, functionName: "UpdateAsset", args: ["asset1", value] });
    const outcomes = await Promise.allSettled([write("green"), write("yellow")]);
    assert.deepEqual(delays, [5, 5]);
    const winners = outcomes.filter((o) => o.status === "fulfilled").map((o) => o.value);
    const losers = outcomes.filter((o) => o.status === "rejected").map((o): unknown => o.reason);
    assert.equal(winners.length, 1);
    assert.equal(losers.length, 1);
    const err = losers[0];
    assert.ok(err instanceof CommitError);
    assert.deepEqual([err.validationCode, err.validationCodeName, err.blockNumber], [11, "MVCC_READ_CONFLICT", 3n]);
    assert.equal(
      err.message,
      `Transaction ${err.transactionId} failed to commit with status code 11 (MVCC_READ_CONFLICT): ${validationCodeMeaning(11)}`,
    );
    assert.deepEqual(ledgerCodes(sandbox).slice(1), [
      [winners[0]?.transactionId, "VALID"],
      [err.transactionId, "MVCC_READ_CONFLICT"],
    ]);
    assert.equal(
      text(sandbox.worldState().get("asset1")?.value ?? new Uint8Array()),
      text(winners[0]?.result ?? new Uint8Array()),
    );
  });

  it("fails endorsement with the unreachable required organization's ErrorDetail", async () => {
    sandbox.setFaults({ failEndorsementFor: ["Org2MSP", "Org3MSP"] });
    const err = await failure(
      gateway.submitTransaction({
        channelId,
        chaincodeName,
        functionName: "PutAsset",
        args: ["asset1", "blue"],
        endorsingOrganizations: ["Org1MSP", "Org2MSP"],
      }),
    );
    assert.ok(err instanceof EndorseError);
    assert.equal(err.name, "EndorseError");
    assert.equal(err.code, 10);
    assert.equal(err.transactionId.length, 64);
    assert.deepEqual(err.details, [
      {
        address: "peer0.org2msp:7051",
        mspId: "Org2MSP",
        message: "failed to connect to endorsing peer peer0.org2msp:7051: connection refused",
      },
    ]);
    assert.equal(
      err.message,
      "/gateway.Gateway/Endorse failed (gRPC 10): failed to collect enough transaction endorsements, see attached details for more info [Org2MSP@peer0.org2msp:7051: failed to connect to endorsing peer peer0.org2msp:7051: connection refused]",
    );
    assert.equal(sandbox.transactionCount(), 0);
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
