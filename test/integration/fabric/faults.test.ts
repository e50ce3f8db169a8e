import { strict as assert } from "node:assert";
import { CommitError, EndorseError, GatewayError } from "@hyperledger/fabric-gateway";
import {
  FabricSandboxError,
  startFabricSandbox,
  type FabricSandbox,
  type SandboxIdentity,
  type TamperMode,
} from "../../../sandbox/fabric";
import { inspectEnvelope, proposalPayload, signPrepared } from "./craft";
import { connectOfficial, endorserMspIds, text, type Connection } from "./helpers";

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

describe("Fabric sandbox fault knobs", () => {
  let sandbox: FabricSandbox;
  let client: SandboxIdentity;
  let connection: Connection;
  const delays: number[] = [];
  const pending: (() => void)[] = [];

  before(async () => {
    sandbox = await startFabricSandbox({
      sleep: (ms) => {
        delays.push(ms);
        return new Promise<void>((resolve) => pending.push(resolve));
      },
    });
    client = sandbox.newClientIdentity("Org1MSP");
    connection = connectOfficial(sandbox, client);
  });
  after(async () => {
    connection.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    delays.length = 0;
  });

  it("drops the connection of the next N calls, then serves again", async () => {
    await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
    sandbox.setFaults({ dropConnections: 2 });
    const first = await failure(connection.contract.evaluateTransaction("ReadAsset", "asset1"));
    assert.ok(first instanceof GatewayError);
    assert.equal(first.code, 14);
    const second = await failure(connection.contract.submitTransaction("PutAsset", "asset2", "green"));
    assert.ok(second instanceof EndorseError);
    assert.equal(second.code, 14);
    assert.equal(text(await connection.contract.evaluateTransaction("ReadAsset", "asset1")), "blue");
    assert.deepEqual([...sandbox.worldState().keys()], ["asset1"]);
  });

  it("holds each block for the commit delay, observed through the injected sleep", async () => {
    sandbox.setFaults({ commitDelayMs: 250 });
    const submitted = await connection.contract.submitAsync("PutAsset", { arguments: ["asset1", "blue"] });
    assert.deepEqual(delays, [250]);
    assert.equal(sandbox.transactionCount(), 0, "nothing is committed while the orderer waits");
    const status = submitted.getStatus();
    pending.shift()?.();
    assert.deepEqual(await status, {
      blockNumber: 1n,
      code: 0,
      successful: true,
      transactionId: submitted.getTransactionId(),
    });
    sandbox.setFaults({ commitDelayMs: 40 });
    const next = await connection.contract.submitAsync("PutAsset", { arguments: ["asset2", "green"] });
    pending.shift()?.();
    await next.getStatus();
    assert.deepEqual(delays, [250, 40]);
  });

  it("endorses around an unreachable organization while the policy can still be met", async () => {
    sandbox.setFaults({ failEndorsementFor: ["Org1MSP"] });
    await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
    assert.deepEqual(endorserMspIds(sandbox.blocks()[1]!.transactions[0]!.envelope), ["Org2MSP", "Org3MSP"]);
  });

  it("fails endorsement with one ErrorDetail per unreachable peer when the policy cannot be met", async () => {
    sandbox.setFaults({ failEndorsementFor: ["Org1MSP", "Org3MSP"] });
    const err = await failure(connection.contract.submitTransaction("PutAsset", "asset1", "blue"));
    assert.ok(err instanceof EndorseError);
    assert.equal(err.code, 10);
    assert.equal(
      err.message,
      "10 ABORTED: failed to collect enough transaction endorsements, see attached details for more info",
    );
    assert.deepEqual(err.details, [
      {
        address: "peer0.org1msp:7051",
        mspId: "Org1MSP",
        message: "failed to connect to endorsing peer peer0.org1msp:7051: connection refused",
      },
      {
        address: "peer0.org3msp:7051",
        mspId: "Org3MSP",
        message: "failed to connect to endorsing peer peer0.org3msp:7051: connection refused",
      },
    ]);
    assert.equal(
      text(await connection.contract.evaluateTransaction("AssetExists", "asset1")),
      "false",
      "evaluate fails over",
    );
  });

  const tamperCases: [TamperMode, number, string][] = [
    ["chaincodeArgs", 5, "INVALID_ENDORSER_TRANSACTION"],
    ["endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
    ["proposalHash", 5, "INVALID_ENDORSER_TRANSACTION"],
    ["rwset", 10, "ENDORSEMENT_POLICY_FAILURE"],
    ["creator", 4, "BAD_CREATOR_SIGNATURE"],
  ];
  for (const [mode, code, name] of tamperCases) {
    it(`returns a prepared transaction tampered with (${mode}) that a committer marks ${name}`, async () => {
      sandbox.setFaults({ tamperPreparedTransaction: mode });
      const endorsed = await connection.contract.newProposal("PutAsset", { arguments: ["asset1", "blue"] }).endorse();
      const result = await sandbox.commitRaw(await signPrepared(endorsed.getBytes(), client));
      assert.deepEqual([result.code, result.codeName], [code, name]);
      assert.equal(sandbox.worldState().size, 0);
    });
  }

  it("shows what each tamper mode changed in the prepared transaction", async () => {
    const prepared = async (mode: TamperMode) => {
      sandbox.setFaults({ tamperPreparedTransaction: mode });
      const endorsed = await connection.contract.newProposal("PutAsset", { arguments: ["asset1", "blue"] }).endorse();
      return inspectEnvelope(await signPrepared(endorsed.getBytes(), client));
    };
    const genuine = await prepared("none");
    assert.deepEqual(
      Buffer.from(genuine.chaincodeProposalPayload),
      Buffer.from(proposalPayload("assets", ["PutAsset", "asset1", "blue"])),
    );
    const args = await prepared("chaincodeArgs");
    assert.deepEqual(
      Buffer.from(args.chaincodeProposalPayload),
      Buffer.from(proposalPayload("assets", ["PutAsset", "asset1", "tampered-by-gateway"])),
    );
    const hash = await prepared("proposalHash");
    assert.equal(hash.endorsementCount, 2);
  });

  it("lets the official client sign a tampered transaction, which then fails to commit", async () => {
    sandbox.setFaults({ tamperPreparedTransaction: "proposalHash" });
    const err = await failure(connection.contract.submitTransaction("PutAsset", "asset1", "blue"));
    assert.ok(err instanceof CommitError);
    assert.equal(err.code, 5);
    sandbox.setFaults({ tamperPreparedTransaction: "creator" });
    const forged = await failure(connection.contract.submitTransaction("PutAsset", "asset1", "blue"));
    // The orderer refuses it: the client signed a payload naming another creator.
    assert.ok(forged instanceof GatewayError);
    assert.deepEqual([forged.name, forged.code], ["SubmitError", 10]);
    assert.equal(sandbox.worldState().size, 0);
  });

  it("resets to the genesis block, clears faults and keeps identities valid", async () => {
    await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
    sandbox.setFaults({ failEndorsementFor: ["Org1MSP", "Org2MSP", "Org3MSP"] });
    sandbox.reset();
    assert.equal(sandbox.blocks().length, 1);
    assert.equal(sandbox.worldState().size, 0);
    await connection.contract.submitTransaction("PutAsset", "asset1", "green");
    assert.deepEqual(sandbox.worldState().get("asset1"), {
      value: Buffer.from("green"),
      version: { blockNum: 1n, txNum: 0 },
    });
  });

  it("refuses unknown organizations and tamper modes on its handle", () => {
    assert.throws(() => sandbox.newClientIdentity("Org9MSP"), {
      name: "FabricSandboxError",
      message: "newClientIdentity: unknown organization Org9MSP; the sandbox has Org1MSP, Org2MSP, Org3MSP",
    });
    assert.throws(() => {
      sandbox.setFaults({ failEndorsementFor: ["Org7MSP"] });
    }, FabricSandboxError);
    assert.throws(
      () => {
        sandbox.setFaults({ tamperPreparedTransaction: "everything" as TamperMode });
      },
      {
        message: "setFaults: unknown tamper mode everything",
      },
    );
  });
});

describe("startFabricSandbox options", () => {
  it("rejects unusable options before listening", async () => {
    await assert.rejects(startFabricSandbox({ organizations: [], chaincode: "qscc" }), {
      name: "FabricSandboxError",
      message:
        "startFabricSandbox: organizations must name at least one MSP id; chaincode must not be named qscc (a system chaincode)",
    });
  });

  it("applies a custom channel, chaincode, organizations and policy", async () => {
    const sandbox = await startFabricSandbox({
      organizations: ["AlphaMSP", "BetaMSP"],
      channel: "ledger2",
      chaincode: "registry",
      endorsementPolicy: "all",
    });
    const connection = connectOfficial(sandbox, sandbox.newClientIdentity("BetaMSP"));
    try {
      assert.deepEqual(
        [sandbox.channel, sandbox.chaincode, Object.keys(sandbox.caCertificates)],
        ["ledger2", "registry", ["AlphaMSP", "BetaMSP"]],
      );
      await connection.contract.submitTransaction("PutAsset", "asset1", "blue");
      assert.deepEqual(endorserMspIds(sandbox.blocks()[1]!.transactions[0]!.envelope), ["AlphaMSP", "BetaMSP"]);
    } finally {
      connection.close();
      await sandbox.close();
    }
  });
});
