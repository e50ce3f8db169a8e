/**
 * ledger-transactions-submit.ts (a LedgerTransactions item) against a scripted gateway: an item makes a script's
 * calls (Endorse, Submit, its commit status) and nothing more; a txId the endorser refuses as a duplicate is looked up
 * once, then adopted (ours, VALID), skipped to the next generation (invalid), or the refusal reported (not on the
 * ledger); an invalid commit fails with the single transaction's message. The same through the engine, with kill -9 at
 * proven points: test/e2e/ledger-transactions.test.ts.
 */
import { strict as assert } from "node:assert";
import { status as grpcStatus } from "@grpc/grpc-js";
import { codecs } from "../../../provider/ledger/codec";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import type { Gateway, ProposalRequest } from "../../../provider/ledger/gateway-client";
import type { CommitStatus, Transaction } from "../../../provider/ledger/gateway-objects";
import { newIdentity } from "../../../provider/ledger/identity";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import type { ProcessedTransaction } from "../../../provider/ledger/messages";
import { buildProposal, computeTxId } from "../../../provider/ledger/proposal";
import { submitItem } from "../../../provider/resources/ledger/ledger-transactions-submit";
import { proposalRequestOf } from "../../../provider/resources/ledger/ledger-transaction-submit";
import type { SubmitOnceRequest } from "../../../provider/resources/ledger/ledger-transaction-submit";
import { creatorOf, deriveNonce } from "../../../provider/resources/ledger/ledger-transaction-txid";
import { chaincodeAction, endorse, newMember, newOrg, prepare, proposalResponsePayload } from "../ledger/fixtures";
import type { TestMember } from "../ledger/fixtures";
import type { Connection } from "../../../provider/resources/ledger/session/gateway-connection";

const URN = "urn:pulumi:dev::demo::pulumi-nodejs:dynamic/ledger:LedgerTransactions::batch#item/a";

let client: TestMember;
let peer: TestMember;

before(async () => {
  const org = await newOrg("Org1MSP");
  client = await newMember(org, "deployer");
  peer = await newMember(org, "peer0");
});

const connection = (): Connection => ({
  gateway: { address: "127.0.0.1:7051" },
  identity: { mspId: "Org1MSP", certificatePem: Buffer.from(client.identity.credentials).toString("utf8") },
  signer: client.signer,
  trustedRootCertificates: {},
});

const item = (generation = 1): SubmitOnceRequest => ({
  urn: URN,
  channel: "opsledger",
  chaincode: "assets",
  function: "CreateAsset",
  args: ["a", "blue"],
  transientData: {},
  endorsingOrganizations: [],
  visibility: "full",
  allowInvalid: false,
  generation,
});

const txIdOf = (generation: number): string =>
  computeTxId(deriveNonce(creatorOf(connection().identity), URN, generation), creatorOf(connection().identity));

/** The committed form of the proposal `request` builds: its envelope as a gateway prepares it, endorsed by `peer`. */
async function committedOf(request: ProposalRequest, validationCode: number): Promise<ProcessedTransaction> {
  const built = buildProposal({
    identity: newIdentity(connection().identity.mspId, connection().identity.certificatePem),
    ...request,
  });
  const prp = proposalResponsePayload(new Uint8Array(32), chaincodeAction("assets"));
  const envelope = prepare(built, prp, [await endorse(peer, prp)]);
  return { validationCode, transactionEnvelope: codecs.Envelope.decode(envelope) };
}

interface Script {
  /** txId → what qscc GetTransactionByID answers (else "no such transaction ID"). */
  readonly ledger: Map<string, ProcessedTransaction>;
  /** The commit status Submit leads to. */
  readonly committedAs?: { code: number; codeName: string };
}

/** A gateway answering from `script`, recording every call ("endorse <txId>", "submit", "status", "lookup", ...). */
function scriptedGateway(script: Script, calls: string[]): Gateway {
  const duplicate = (txId: string) =>
    new EndorseError({
      code: grpcStatus.ABORTED,
      details: [
        {
          address: "peer0:7051",
          mspId: "Org1MSP",
          message: `chaincode response 500, duplicate transaction found [${txId}]. Creator [0a07]`,
        },
      ],
      method: "/gateway.Gateway/Endorse",
      message: "failed to endorse transaction, see attached details for more info",
      transactionId: txId,
    });
  const statusOf = (txId: string): CommitStatus => {
    const { code, codeName } = script.committedAs ?? { code: 0, codeName: "VALID" };
    return { transactionId: txId, code, codeName, successful: code === 0, blockNumber: 42n };
  };
  const gateway = {
    newProposal(request: ProposalRequest) {
      const txId = computeTxId(request.nonce ?? new Uint8Array(0), creatorOf(connection().identity));
      return {
        getTransactionId: () => txId,
        endorse(): Promise<Transaction> {
          calls.push(`endorse ${txId}`);
          if (script.ledger.has(txId)) return Promise.reject(duplicate(txId));
          const transaction = {
            getTransactionId: () => txId,
            getResult: () => new Uint8Array(0),
            getVerification: () => ({ endorsers: [{ mspId: "Org1MSP" }, { mspId: "Org2MSP" }] }),
            submit() {
              calls.push("submit");
              return Promise.resolve({
                getStatus() {
                  calls.push("status");
                  return Promise.resolve(statusOf(txId));
                },
              });
            },
          };
          return Promise.resolve(transaction as unknown as Transaction);
        },
      };
    },
    getTransactionById(_channel: string, txId: string) {
      calls.push("lookup");
      const found = script.ledger.get(txId);
      if (found !== undefined) return Promise.resolve(found);
      return Promise.reject(
        new GatewayError({
          code: grpcStatus.UNKNOWN,
          details: [],
          method: "/gateway.Gateway/Evaluate",
          message: `Failed to get transaction with id ${txId}, error no such transaction ID [${txId}] in index`,
        }),
      );
    },
    getCommitStatus(_channel: string, txId: string) {
      calls.push("txId status");
      return Promise.resolve(statusOf(txId));
    },
    evaluateTransaction() {
      calls.push("evaluate");
      return Promise.reject(new Error("not expected"));
    },
  };
  return gateway as unknown as Gateway;
}

/** The proposal request an item's generation endorses (what a killed run's committed copy carries). */
const requestOf = (generation: number): ProposalRequest =>
  proposalRequestOf(item(generation), deriveNonce(creatorOf(connection().identity), URN, generation));

describe("LedgerTransactions: one item's submission", () => {
  it("makes a script's calls and nothing more: Endorse, Submit, its commit status", async () => {
    const calls: string[] = [];
    const outcome = await submitItem(
      scriptedGateway({ ledger: new Map() }, calls),
      connection(),
      item(),
      "create",
      URN,
    );
    assert.deepEqual(calls, [`endorse ${txIdOf(1)}`, "submit", "status"], "no qscc lookup, no qscc read");
    assert.deepEqual(outcome, {
      generation: 1,
      txId: txIdOf(1),
      validationCode: "VALID",
      validationCodeNumber: 0,
      blockNumber: 42n,
      endorsers: ["Org1MSP", "Org2MSP"],
      adopted: false,
    });
  });

  it("adopts its transaction when the endorser refuses the txId as committed (a killed run): nothing is submitted", async () => {
    const calls: string[] = [];
    const request = requestOf(1);
    const ledger = new Map([[txIdOf(1), await committedOf(request, 0)]]);
    const outcome = await submitItem(scriptedGateway({ ledger }, calls), connection(), item(), "update", URN);
    assert.deepEqual(calls, [`endorse ${txIdOf(1)}`, "lookup", "txId status"]);
    assert.deepEqual(
      [outcome.txId, outcome.validationCode, outcome.blockNumber, outcome.adopted, outcome.endorsers],
      [txIdOf(1), "VALID", 42n, true, ["Org1MSP"]],
    );
  });

  it("skips a generation committed invalid (or with other inputs) and submits the next", async () => {
    const calls: string[] = [];
    const ledger = new Map([[txIdOf(1), await committedOf(requestOf(1), 11)]]);
    const outcome = await submitItem(scriptedGateway({ ledger }, calls), connection(), item(), "update", URN);
    assert.deepEqual(calls, [`endorse ${txIdOf(1)}`, "lookup", `endorse ${txIdOf(2)}`, "submit", "status"]);
    assert.deepEqual([outcome.generation, outcome.txId, outcome.adopted], [2, txIdOf(2), false]);
    const other = new Map([[txIdOf(1), await committedOf({ ...requestOf(1), args: ["a", "red"] }, 0)]]);
    const next = await submitItem(scriptedGateway({ ledger: other }, []), connection(), item(), "update", URN);
    assert.equal(next.generation, 2, "a VALID transaction of other inputs is not adopted");
  });

  it("an endorsement refused for another reason: the endorser's error, after one lookup, nothing submitted", async () => {
    const calls: string[] = [];
    const refused = new EndorseError({
      code: grpcStatus.ABORTED,
      details: [{ address: "peer0:7051", mspId: "Org1MSP", message: "chaincode response 500, asset a already exists" }],
      method: "/gateway.Gateway/Endorse",
      message: "failed to endorse transaction, see attached details for more info",
      transactionId: txIdOf(1),
    });
    const gateway = scriptedGateway({ ledger: new Map() }, calls);
    const newProposal = gateway.newProposal.bind(gateway);
    gateway.newProposal = (request) => ({ ...newProposal(request), endorse: () => Promise.reject(refused) });
    await assert.rejects(submitItem(gateway, connection(), item(), "create", URN), (e) => e === refused);
    assert.deepEqual(calls, ["lookup"]);
  });

  it("an invalid commit fails with the single transaction's message, naming txId, block and code", async () => {
    const committedAs = { code: 11, codeName: "MVCC_READ_CONFLICT" };
    const calls: string[] = [];
    await assert.rejects(
      submitItem(scriptedGateway({ ledger: new Map(), committedAs }, calls), connection(), item(), "create", URN),
      (e: unknown) => {
        assert.ok(e instanceof LedgerError);
        assert.equal(e.transactionId, txIdOf(1));
        assert.match(
          e.message,
          new RegExp(
            `: transaction ${txIdOf(1)} was committed in block 42 with validation code MVCC_READ_CONFLICT \\(11\\)`,
          ),
        );
        return true;
      },
    );
    assert.deepEqual(calls, [`endorse ${txIdOf(1)}`, "submit", "status"]);
  });
});
