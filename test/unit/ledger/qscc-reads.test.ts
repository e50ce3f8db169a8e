/**
 * The ledger's read side without a network: a real Fabric 2.5.16 ProcessedTransaction and BlockchainInfo (the fuzz
 * seeds, captured from a network) decoded and verified, a tampered copy described with its failure, the txId checks
 * made before any request, and Fabric's answers (real messages, from the ledger-targets tests) mapped to readable
 * errors. The gateway is a stand-in that records each request.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { ValidationError } from "../../../provider/errors";
import { codecs } from "../../../provider/ledger/codec";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { toHex } from "../../../provider/ledger/hash";
import { LedgerReadError } from "../../../provider/errors/ledger/ledger-read-error";
import {
  evaluateChaincode,
  readChainInfo,
  readErrorOf,
  readTransaction,
  transactionIdProblem,
} from "../../../provider/ledger/qscc-reads";
import { bytesView, describeProcessedTransaction } from "../../../provider/ledger/transaction-record";
import type { Gateway, ProposalRequest } from "../../../provider/ledger/gateway-client";
import type { ProcessedTransaction } from "../../../provider/ledger/messages";

const SEEDS = path.join(__dirname, "..", "..", "..", "..", "test", "fixtures", "fuzz", "seeds");
const seed = (file: string): Uint8Array => new Uint8Array(fs.readFileSync(path.join(SEEDS, file)));
const context = JSON.parse(fs.readFileSync(path.join(SEEDS, "gateway", "context.json"), "utf8")) as {
  capturedAt: string;
  trustedMsps: { mspId: string; rootCertificatePem: string }[];
};
const TRUST = {
  trustedMsps: context.trustedMsps.map((t) => ({ mspId: t.mspId, rootCertificates: [t.rootCertificatePem] })),
  now: () => new Date(context.capturedAt),
};
const TX_ID = "3e92f3d52484d6c9430b0c9bcb273cc82375d4b09c34a9a73e5befb87c80bf6c";
const b64 = (value: string): string => Buffer.from(value).toString("base64");

/** A Gateway whose evaluations answer from `answer` and are recorded. */
function standIn(answer: (request: ProposalRequest) => Uint8Array | Error): { gateway: Gateway; calls: string[] } {
  const calls: string[] = [];
  const evaluate = (request: ProposalRequest): Promise<Uint8Array> => {
    calls.push([request.chaincodeName, request.functionName, ...(request.args ?? []).map(String)].join(" "));
    const result = answer(request);
    return result instanceof Error ? Promise.reject(result) : Promise.resolve(result);
  };
  const gateway = {
    evaluateTransaction: evaluate,
    getTransactionById: async (channelId: string, transactionId: string): Promise<ProcessedTransaction> =>
      codecs.ProcessedTransaction.decode(
        await evaluate({
          channelId,
          chaincodeName: "qscc",
          functionName: "GetTransactionByID",
          args: [channelId, transactionId],
        }),
      ),
  };
  return { gateway: gateway as unknown as Gateway, calls };
}

/** A GatewayError as our client reports Fabric's answer (the message and one endorser's ErrorDetail). */
function fabricError(code: number, message: string): GatewayError {
  return new GatewayError({
    code,
    method: "/gateway.Gateway/Evaluate",
    message,
    details: [{ address: "peer0.org1.example.com:7051", mspId: "Org1MSP", message }],
  });
}

describe("ledger reads", () => {
  describe("describeProcessedTransaction", () => {
    it("decodes and verifies a real 2.5.16 transaction: creator, chaincode, function, args, write set, endorsers", async () => {
      const processed = codecs.ProcessedTransaction.decode(seed("cli-decode/processed-transaction.bin"));
      const record = await describeProcessedTransaction(
        processed,
        { txId: TX_ID, channel: "opsledger", blockNumber: 5n },
        TRUST,
      );
      assert.deepEqual(
        [record.txId, record.validationCode, record.validationCodeNumber, record.blockNumber, record.channel],
        [TX_ID, "VALID", 0, "5", "opsledger"],
      );
      assert.equal(record.creator?.mspId, "Org1MSP");
      assert.match(record.creator.subject, /CN=User1@org1\.example\.com/);
      assert.deepEqual(record.chaincode, { name: "assets", version: "1.0" });
      assert.equal(record.visibility, "full");
      assert.equal(record.function, "CreateAsset");
      assert.deepEqual(record.args?.[1], { text: "blue", base64: b64("blue") });
      assert.deepEqual(record.response, { status: 200, message: "", payload: { text: "blue", base64: b64("blue") } });
      const assets = record.readWriteSet?.find((n) => n.namespace === "assets");
      const key = record.args[0]?.text ?? "";
      assert.deepEqual(assets, {
        namespace: "assets",
        reads: [{ key }],
        writes: [{ key, isDelete: false, value: { text: "blue", base64: b64("blue") } }],
      });
      assert.deepEqual(record.event, { name: "AssetCreated", payload: { text: key, base64: b64(key) } });
      assert.deepEqual(
        record.endorsers.map((e) => e.mspId),
        ["Org1MSP", "Org2MSP"],
      );
      assert.deepEqual([record.verification.ok, record.verification.chainsVerified], [true, true]);
      assert.equal(record.timestamp?.slice(0, 10), context.capturedAt.slice(0, 10));
      assert.equal(record.decodeError, undefined);
      assert.equal(
        record.processedTransaction,
        Buffer.from(seed("cli-decode/processed-transaction.bin")).toString("base64"),
      );
    });

    it("describes a transaction whose endorsement was changed, with the committer's code for the failure", async () => {
      const processed = codecs.ProcessedTransaction.decode(seed("cli-decode/processed-transaction.bin"));
      const envelope = processed.transactionEnvelope;
      assert.ok(envelope !== undefined);
      const payload = codecs.Payload.decode(envelope.payload);
      const transaction = codecs.Transaction.decode(payload.data);
      const action = transaction.actions[0];
      assert.ok(action !== undefined);
      const cap = codecs.ChaincodeActionPayload.decode(action.payload);
      const [first, ...rest] = cap.action?.endorsements ?? [];
      assert.ok(first !== undefined && cap.action !== undefined);
      const signature = Uint8Array.from(first.signature);
      signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 0x01;
      const tampered = codecs.ChaincodeActionPayload.encode({
        ...cap,
        action: { ...cap.action, endorsements: [{ ...first, signature }, ...rest] },
      });
      const data = codecs.Transaction.encode({ actions: [{ ...action, payload: tampered }] });
      const record = await describeProcessedTransaction(
        {
          validationCode: 10,
          transactionEnvelope: { ...envelope, payload: codecs.Payload.encode({ ...payload, data }) },
        },
        { txId: TX_ID, channel: "opsledger", blockNumber: 5n },
        TRUST,
      );
      assert.deepEqual([record.validationCode, record.function], ["ENDORSEMENT_POLICY_FAILURE", "CreateAsset"]);
      assert.equal(record.verification.ok, false);
      // The envelope's signature no longer covers the changed payload: the committer's first check fails.
      assert.deepEqual(
        [record.verification.failure?.mismatch, record.verification.failure?.validationCode],
        ["creatorSignature", "BAD_CREATOR_SIGNATURE"],
      );
    });

    it("reports an envelope that does not decode instead of throwing", async () => {
      const record = await describeProcessedTransaction(
        { validationCode: 2, transactionEnvelope: { payload: Uint8Array.of(0xff, 0xff), signature: Uint8Array.of(1) } },
        { txId: TX_ID, channel: "opsledger", blockNumber: 7n },
      );
      assert.deepEqual([record.validationCode, record.blockNumber, record.endorsers], ["BAD_PAYLOAD", "7", []]);
      assert.match(record.decodeError ?? "", /payload/i);
      assert.equal(record.verification.ok, false);
      assert.equal(record.creator, undefined);
    });
  });

  describe("bytesView", () => {
    it("gives text only for valid UTF-8", () => {
      assert.deepEqual(bytesView(Buffer.from("héllo")), { text: "héllo", base64: b64("héllo") });
      assert.deepEqual(bytesView(Uint8Array.of(0xc3, 0x28)), { base64: "wyg=" });
      assert.deepEqual(bytesView(new Uint8Array(0)), { text: "", base64: "" });
    });
  });

  describe("readTransaction", () => {
    it("asks qscc GetTransactionByID and GetBlockByTxID and takes the block number from the block's header", async () => {
      const block = codecs.Block.encode({
        header: { number: 42n, previousHash: new Uint8Array(0), dataHash: new Uint8Array(0) },
      });
      const { gateway, calls } = standIn((r) =>
        r.functionName === "GetBlockByTxID" ? block : seed("cli-decode/processed-transaction.bin"),
      );
      const record = await readTransaction(gateway, { channelId: "opsledger", transactionId: TX_ID }, TRUST);
      assert.deepEqual([record.blockNumber, record.validationCode, record.verification.ok], ["42", "VALID", true]);
      assert.deepEqual(calls.sort(), [
        `qscc GetBlockByTxID opsledger ${TX_ID}`,
        `qscc GetTransactionByID opsledger ${TX_ID}`,
      ]);
    });

    for (const [txId, reason] of [
      ["", "is required: the transaction's id, 64 hex characters (a LedgerTransaction's txId output)"],
      [
        "abc",
        "'abc' is not a Fabric txId: it must be 64 lower-case hex characters (hex of SHA-256), e.g. a LedgerTransaction's txId output",
      ],
      [
        TX_ID.toUpperCase(),
        `'${TX_ID.toUpperCase()}' has upper-case letters; Fabric's txIds are lower-case hex: pass '${TX_ID}'`,
      ],
    ] as const) {
      it(`refuses the txId '${txId.slice(0, 8)}' before any request`, async () => {
        const { gateway, calls } = standIn(() => new Error("no request may be sent"));
        const err = await readTransaction(gateway, { channelId: "opsledger", transactionId: txId }).then(
          () => assert.fail("expected a ValidationError"),
          (e: unknown) => e,
        );
        assert.ok(err instanceof ValidationError);
        assert.deepEqual(err.failures, [{ property: "txId", reason }]);
        assert.equal(transactionIdProblem(txId), reason);
        assert.deepEqual(calls, []);
      });
    }

    it("names a txId the peer's index does not have", async () => {
      const missing = "0".repeat(64);
      const reason = `chaincode response 500, Failed to get transaction with id ${missing}, error no such transaction ID [${missing}] in index`;
      const { gateway } = standIn(() => fabricError(2, `evaluate call to endorser returned error: ${reason}`));
      const err = await readTransaction(gateway, { channelId: "opsledger", transactionId: missing }).then(
        () => assert.fail("expected a LedgerReadError"),
        (e: unknown) => e,
      );
      assert.ok(err instanceof LedgerReadError);
      assert.deepEqual([err.problem, err.field, err.transactionId], ["TRANSACTION_NOT_FOUND", "txId", missing]);
      assert.ok(err.cause instanceof GatewayError);
    });
  });

  describe("readChainInfo and evaluateChaincode", () => {
    it("decodes qscc GetChainInfo of a real network into the height and hex hashes", async () => {
      const bytes = seed("cli-decode/blockchain-info.bin");
      const info = codecs.BlockchainInfo.decode(bytes);
      const { gateway, calls } = standIn(() => bytes);
      assert.deepEqual(await readChainInfo(gateway, "opsledger"), {
        height: info.height.toString(),
        currentBlockHash: toHex(info.currentBlockHash),
        previousBlockHash: toHex(info.previousBlockHash),
      });
      assert.ok(info.height > 0n);
      assert.deepEqual(calls, ["qscc GetChainInfo opsledger"]);
    });

    it("returns a query's payload as text and base64", async () => {
      const { gateway, calls } = standIn(() => Buffer.from("blue"));
      const request = { channelId: "c", chaincodeName: "assets", functionName: "ReadAsset", args: ["k"] };
      assert.deepEqual(await evaluateChaincode(gateway, request), { text: "blue", base64: b64("blue") });
      assert.deepEqual(calls, ["assets ReadAsset k"]);
    });
  });

  describe("readErrorOf", () => {
    const context = { channel: "opsledger", chaincode: "assets" };
    const problem = (error: unknown): [string, string] => {
      const mapped = readErrorOf(error, context);
      assert.ok(mapped instanceof LedgerReadError, String(mapped));
      return [mapped.problem, mapped.field];
    };

    it("maps Fabric's answers for a channel, a chaincode and the channel's policies", () => {
      assert.deepEqual(
        problem(
          fabricError(
            14,
            "failed to get config for channel [elsewhere]: could not get last config for channel elsewhere",
          ),
        ),
        ["CHANNEL_NOT_FOUND", "channel"],
      );
      assert.deepEqual(
        problem(fabricError(9, "no peers available to evaluate chaincode ledgerless in channel opsledger")),
        ["CHAINCODE_NOT_FOUND", "chaincode"],
      );
      const policy = (set: string) =>
        `evaluate call to endorser returned error: Failed evaluating policy on signed data during check policy on channel [opsledger] with policy [/Channel/Application/${set}]: [implicit policy evaluation failed]`;
      assert.deepEqual(problem(fabricError(9, policy("Writers"))), ["NOT_A_WRITER", "identity"]);
      assert.deepEqual(problem(fabricError(7, policy("Readers"))), ["NOT_A_READER", "identity"]);
    });

    it("leaves every other error as it is", () => {
      const other = fabricError(4, "deadline exceeded");
      assert.equal(readErrorOf(other, context), other);
      const plain = new Error("x");
      assert.equal(readErrorOf(plain, context), plain);
    });
  });
});
