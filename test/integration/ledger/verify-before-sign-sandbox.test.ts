import { strict as assert } from "node:assert";
import { codecs } from "../../../provider/ledger/codec";
import { type Gateway, type ProposalRequest } from "../../../provider/ledger/gateway-client";
import { sha256, toHex } from "../../../provider/ledger/hash";
import { type Visibility } from "../../../provider/ledger/proposal";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity, type TamperMode } from "../../../sandbox/fabric";
import { committed, connectOurs, failure, ledgerCodes, text } from "./helpers";

/**
 * The invocation arguments a committed ChaincodeActionPayload reveals under each visibility mode: all of them
 * (full), only their hash (hash: checked against the arguments we sent), or nothing at all.
 */
function committedArgs(chaincodeProposalPayload: Uint8Array, visibility: Visibility): string[] {
  if (visibility === "nothing") {
    assert.equal(chaincodeProposalPayload.length, 0);
    return [];
  }
  if (visibility === "hash") {
    assert.equal(chaincodeProposalPayload.length, 32);
    return [toHex(chaincodeProposalPayload)];
  }
  const payload = codecs.ChaincodeProposalPayload.decode(chaincodeProposalPayload);
  const spec = codecs.ChaincodeInvocationSpec.decode(payload.input).chaincodeSpec;
  return (spec?.input?.args ?? []).map(text);
}

/** The SHA-256 of the ChaincodeProposalPayload we sent (without transient data), as hex. */
function expectedHash(functionName: string, args: readonly string[], chaincodeName: string): string {
  const input = codecs.ChaincodeInvocationSpec.encode({
    chaincodeSpec: {
      type: 2,
      chaincodeId: { name: chaincodeName },
      input: { args: [functionName, ...args].map((a) => new TextEncoder().encode(a)) },
    },
  });
  return toHex(sha256(codecs.ChaincodeProposalPayload.encode({ input })));
}

/** Sent as transient data with every genuine proposal; it must never reach the ledger. */
const TRANSIENT_SECRET = "transient-secret-7f3a";

/**
 * Verify-before-sign against what only the Fabric sandbox has: the `hash` and `nothing` visibility modes (real peers
 * know only `full`), and its tamper knob, whose changes include the creator (a real gateway's answers are changed on
 * their way in test/integration/ledger-targets/verify-before-sign.test.ts instead, where the official client shows the
 * committer's code for each).
 */
describe("ledger verify-before-sign against the Fabric sandbox's visibility modes and tamper knob", () => {
  let sandbox: FabricSandbox;
  let client: SandboxIdentity;
  let gateway: Gateway;
  let channelId: string;
  let chaincodeName: string;
  /** Counts the signatures our signer makes, to prove nothing is signed after a refusal. */
  let signatures = 0;

  before(async () => {
    sandbox = await startFabricSandbox({ port: 0 });
    client = sandbox.newClientIdentity("Org1MSP");
    channelId = sandbox.channel;
    chaincodeName = sandbox.chaincode;
    const sign = newPrivateKeySigner(client.privateKeyPem);
    gateway = connectOurs(sandbox, client, {
      signer: (digest) => {
        signatures++;
        return sign(digest);
      },
    });
  });
  after(async () => {
    gateway.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    signatures = 0;
  });

  const request = (functionName: string, args: string[], visibility: Visibility = "full"): ProposalRequest => ({
    channelId,
    chaincodeName,
    functionName,
    args,
    visibility,
  });

  // "full", the only mode real peers have, runs against real Fabric too (ledger-targets/verify-before-sign.test.ts).
  const visibilities: Visibility[] = ["hash", "nothing"];
  for (const visibility of visibilities) {
    it(`accepts every genuine prepared transaction with ${visibility} visibility and commits it VALID`, async () => {
      const steps: [string, string[], string][] = [
        ["CreateAsset", ["asset1", "blue"], "blue"],
        ["UpdateAsset", ["asset1", "green"], "green"],
        ["PutAsset", ["asset2", "red"], "red"],
        ["TransferAsset", ["asset2", "asset3"], "red"],
        ["DeleteAsset", ["asset1"], ""],
      ];
      for (const [index, [functionName, args, result]] of steps.entries()) {
        const transaction = await gateway
          .newProposal({ ...request(functionName, args, visibility), transientData: { secret: TRANSIENT_SECRET } })
          .endorse();
        const report = transaction.getVerification();
        assert.ok(report !== undefined);
        assert.deepEqual(
          {
            transactionId: report.transactionId,
            channelId: report.channelId,
            creatorMspId: report.creatorMspId,
            chaincode: report.chaincode,
            visibility: report.visibility,
            status: report.response.status,
            endorsers: report.endorsers.map((e) => e.mspId),
            chainsVerified: report.chainsVerified,
          },
          {
            transactionId: transaction.getTransactionId(),
            channelId,
            creatorMspId: "Org1MSP",
            chaincode: { name: chaincodeName, version: "1.0" },
            visibility,
            status: 200,
            endorsers: ["Org1MSP", "Org2MSP"],
            chainsVerified: true,
          },
          `${functionName} with ${visibility}`,
        );
        assert.equal(text(transaction.getResult()), result);
        const status = await (await transaction.submit()).getStatus();
        assert.deepEqual([status.codeName, status.blockNumber], ["VALID", BigInt(index + 1)]);
        const stored = committed(sandbox, index + 1);
        const envelope = sandbox.blocks()[index + 1]?.transactions[0]?.envelope ?? Buffer.alloc(0);
        assert.equal(envelope.includes(TRANSIENT_SECRET), false, "transient data never reaches the ledger");
        assert.equal(toHex(stored.proposalResponsePayload.proposalHash), report.proposalHash);
        const revealed = {
          full: [functionName, ...args],
          hash: [expectedHash(functionName, args, chaincodeName)],
          nothing: [],
        }[visibility];
        assert.deepEqual(committedArgs(stored.actionPayload.chaincodeProposalPayload, visibility), revealed);
      }
      assert.deepEqual(
        [...sandbox.worldState().entries()].map(([k, v]) => [k, text(v.value)]),
        [["asset3", "red"]],
      );
    });
  }

  const tamperCases: [TamperMode, string, number, string][] = [
    ["chaincodeArgs", "args", 5, "INVALID_ENDORSER_TRANSACTION"],
    ["endorsementSignature", "endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
    ["proposalHash", "proposalHash", 5, "INVALID_ENDORSER_TRANSACTION"],
    ["rwset", "endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
    ["creator", "creator", 4, "BAD_CREATOR_SIGNATURE"],
  ];
  for (const [mode, mismatch, code, name] of tamperCases) {
    it(`refuses to sign a prepared transaction tampered with (${mode}): ${mismatch}, ${name}`, async () => {
      await gateway.submitTransaction(request("PutAsset", ["asset0", "seed"]));
      const blocksBefore = sandbox.blocks();
      const signaturesBefore = signatures;
      sandbox.setFaults({ tamperPreparedTransaction: mode });
      const proposal = gateway.newProposal(request("PutAsset", ["asset1", "blue"]));
      const err = await failure(proposal.endorse());
      assert.ok(err instanceof VerificationError);
      assert.deepEqual(
        [err.name, err.mismatch, err.validationCode, err.validationCodeName, err.transactionId],
        ["VerificationError", mismatch, code, name, proposal.getTransactionId()],
      );
      assert.equal(signatures - signaturesBefore, 1, "only the proposal was signed");
      const viaSubmit = await failure(gateway.submitTransaction(request("PutAsset", ["asset1", "blue"])));
      assert.ok(viaSubmit instanceof VerificationError);
      assert.deepEqual([viaSubmit.mismatch, viaSubmit.validationCode], [mismatch, code]);
      assert.equal(sandbox.blocks().length, blocksBefore.length);
      assert.deepEqual(sandbox.blocks(), blocksBefore);
      assert.equal(sandbox.transactionCount(), 1);
      assert.deepEqual(
        ledgerCodes(sandbox).map(([, c]) => c),
        ["VALID"],
      );
      assert.equal(sandbox.worldState().has("asset1"), false);
    });
  }
});
