/**
 * The `assets` chaincode as each ledger target runs it — the sandbox's built-in copy and the fabric-contract-api
 * contract a real peer runs as a chaincode server — behaving alike where the contract API or the peer decide: the
 * contract API's system contract and "contract:function" names and errors, a write of an empty value (a delete on a
 * peer), and the `_lifecycle` read every endorsement carries.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../provider/ledger/codec";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { unwrap } from "../../../provider/ledger/unwrap";
import { ledgerTargets, type LedgerTarget } from "../../helpers/ledger-targets";
import { craft } from "../fabric/craft";
import { call, failure, submitRaw, TARGET_TEST_TIMEOUT_MS, text, uniqueKey } from "./helpers";

const parameters = (...names: string[]) => names.map((name) => ({ name, description: "", schema: { type: "string" } }));
const SUBMIT = ["SUBMIT", "submitTx"];
const EVALUATE = ["EVALUATE"];

/** GetMetadata of the real contract (fabric-contract-api 2.5.8, TypeScript decorators), field for field. */
const METADATA = {
  $schema: "https://hyperledger.github.io/fabric-chaincode-node/main/api/contract-schema.json",
  contracts: {
    assets: {
      name: "assets",
      contractInstance: { name: "assets", default: true },
      transactions: [
        { tag: SUBMIT, parameters: parameters("key", "value"), name: "CreateAsset" },
        { tag: EVALUATE, parameters: parameters("key"), name: "ReadAsset" },
        { tag: EVALUATE, parameters: parameters("key"), name: "AssetExists" },
        { tag: SUBMIT, parameters: parameters("key", "value"), name: "UpdateAsset" },
        { tag: SUBMIT, parameters: parameters("key", "value"), name: "PutAsset" },
        { tag: SUBMIT, parameters: parameters("key"), name: "DeleteAsset" },
        { tag: SUBMIT, parameters: parameters("key", "newKey"), name: "TransferAsset" },
        { tag: EVALUATE, parameters: parameters("startKey", "endKey"), name: "GetAssetsByRange" },
      ],
      info: { title: "", version: "" },
    },
    "org.hyperledger.fabric": {
      name: "org.hyperledger.fabric",
      contractInstance: { name: "org.hyperledger.fabric" },
      transactions: [{ name: "GetMetadata" }],
      info: { title: "", version: "" },
    },
  },
  info: { version: "1.0", title: "assets" },
  components: { schemas: {} },
};

for (const target of ledgerTargets()) {
  describe(`the assets chaincode as ${target.label} runs it`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
    });
    after(async () => {
      gateway.close();
      await ledger.close();
    });

    /** The chaincode's error message of an evaluation (the ErrorDetail's text after "chaincode response 500, "). */
    const chaincodeError = async (functionName: string, args: readonly string[]): Promise<string> => {
      const err = await failure(gateway.evaluateTransaction(call(ledger, functionName, args)));
      assert.ok(err instanceof GatewayError);
      return (err.details[0]?.message ?? "").replace(/^chaincode response 500, /, "");
    };

    it("answers the contract API's GetMetadata with the contract's functions, parameters and tags", async () => {
      const answer = await gateway.evaluateTransaction(
        call(ledger, "GetMetadata", [], { contractName: "org.hyperledger.fabric" }),
      );
      assert.deepEqual(JSON.parse(text(answer)), METADATA);
    });

    it("reads contract:function names as the contract API does, with its errors", async () => {
      const key = uniqueKey("contract");
      await gateway.submitTransaction(call(ledger, "CreateAsset", [key, "blue"], { contractName: "assets" }));
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "assets:ReadAsset", [key]))), "blue");
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, ":ReadAsset", [key]))), "blue");
      assert.equal(await chaincodeError("x:ReadAsset", [key]), "Contract name is not known: x");
      assert.equal(
        await chaincodeError("assets:Nope", [key]),
        "You've asked to invoke a function that does not exist: assets:Nope",
      );
      assert.equal(
        await chaincodeError("org.hyperledger.fabric:Nope", []),
        "You've asked to invoke a function that does not exist: org.hyperledger.fabric:Nope",
      );
      assert.equal(await chaincodeError("ReadAsset", []), "Expected 1 parameters, but 0 have been supplied");
    });

    it("records a write of an empty value as a delete: the asset does not exist afterwards", async () => {
      const key = uniqueKey("empty");
      const created = await gateway.submitTransaction(call(ledger, "CreateAsset", [key, ""]));
      assert.deepEqual([created.status.codeName, created.result.length], ["VALID", 0]);
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
      const processed = await gateway.getTransactionById(ledger.channel, created.transactionId);
      const written = unwrap(codecs.Envelope.encode(processed.transactionEnvelope ?? {}))
        .namespaces.filter((n) => n.namespace === ledger.chaincode)
        .flatMap((n) => n.kvRwSet.writes.map((w) => [w.key, w.isDelete, w.value.length]));
      assert.deepEqual(written, [[key, true, 0]]);
    });

    it("commits a crafted write of an empty value (not marked a delete) as a delete too", async () => {
      const key = uniqueKey("crafted-empty");
      const crafted = await craft({
        creator: ledger.client(),
        channel: ledger.channel,
        chaincode: ledger.chaincode,
        endorsers: [ledger.peer("Org1MSP"), ledger.peer("Org2MSP")],
        args: ["PutAsset", key, ""],
        namespaces: [{ namespace: ledger.chaincode, writes: [{ key, value: "" }] }],
      });
      await submitRaw(ledger, crafted.envelope, crafted.txId);
      assert.equal((await gateway.getCommitStatus(ledger.channel, crafted.txId)).codeName, "VALID");
      // A range query lists every stored key, an empty value included: there is none.
      const listed = await gateway.evaluateTransaction(call(ledger, "GetAssetsByRange", [key, `${key}~`]));
      assert.equal(text(listed), "[]");
    });

    it("reads the chaincode's definition in _lifecycle with every endorsement, before its own namespace", async () => {
      const submitted = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("lifecycle"), "v"]));
      const processed = await gateway.getTransactionById(ledger.channel, submitted.transactionId);
      const namespaces = unwrap(codecs.Envelope.encode(processed.transactionEnvelope ?? {})).namespaces;
      assert.deepEqual(
        namespaces.map((n) => n.namespace),
        ["_lifecycle", ledger.chaincode],
      );
      const lifecycle = namespaces[0]?.kvRwSet;
      assert.deepEqual(
        [lifecycle?.reads.map((r) => r.key), lifecycle?.writes.length, lifecycle?.reads[0]?.version !== undefined],
        [[`namespaces/fields/${ledger.chaincode}/Sequence`], 0, true],
      );
    });
  });
}
