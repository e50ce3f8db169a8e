/**
 * Our gateway client (provider/ledger) against every ledger target — the Fabric sandbox and a real Fabric 2.5 network
 * (two organizations, both must endorse, TLS): evaluate, endorse, submit, commit status, qscc, and the errors each
 * step reports, with the exact codes and messages of real Fabric. What only the sandbox can show (dropped
 * connections, a held block, an unreachable organization) is in test/integration/ledger/*-sandbox.test.ts.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../provider/ledger/codec";
import { CommitError } from "../../../provider/errors/ledger/commit-error";
import { CommitStatusError } from "../../../provider/errors/ledger/commit-status-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { connect, isTransactionNotFound, type Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { newIdentity } from "../../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { unwrap } from "../../../provider/ledger/unwrap";
import { validationCodeMeaning } from "../../../provider/errors/ledger/validation-codes";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { ledgerTargets, type LedgerTarget } from "../../helpers/ledger-targets";
import { call, entriesOf, failure, submitEverywhere, TARGET_TEST_TIMEOUT_MS, text, uniqueKey } from "./helpers";

const WRITERS_DENIED =
  "Failed evaluating policy on signed data during check policy on channel [opsledger] with policy [/Channel/Application/Writers]: [implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Writers' sub-policies to be satisfied]";
const READERS_DENIED =
  "Failed evaluating policy on signed data during check policy on channel [opsledger] with policy [/Channel/Application/Readers]: [implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the 'Readers' sub-policies to be satisfied]";

for (const target of ledgerTargets()) {
  describe(`our gateway client against ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;
    /** Another CA's identities, unknown to the target's MSPs. */
    let foreign: FabricSandbox;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
      foreign = await startFabricSandbox({ organizations: ["Org1MSP", "Org2MSP"] });
    });
    after(async () => {
      gateway.close();
      await foreign.close();
      await ledger.close();
    });

    const detail = (mspId: string, message: string) => ({ address: ledger.endorserAddress(mspId), mspId, message });

    it("submits VALID with both organizations' endorsements and opaque bytes, read back through the other gateway", async () => {
      const key = uniqueKey("submit");
      const value = Buffer.from([0xff, 0x00, 0x41, 0xfe]);
      const submitted = await gateway.submitTransaction(call(ledger, "CreateAsset", [key, value]));
      assert.deepEqual(Buffer.from(submitted.result), value);
      assert.deepEqual(submitted.status, {
        transactionId: submitted.transactionId,
        code: 0,
        codeName: "VALID",
        successful: true,
        blockNumber: submitted.status.blockNumber,
      });
      assert.ok(submitted.status.blockNumber > 0n);
      assert.ok(submitted.verification !== undefined);
      assert.deepEqual(submitted.verification.endorsers.map((e) => e.mspId).sort(), ["Org1MSP", "Org2MSP"]);
      assert.equal(submitted.verification.chainsVerified, true);
      await ledger.waitForBlock(submitted.status.blockNumber);
      const other = ledger.connectOurs({ mspId: "Org2MSP" });
      try {
        const read = await other.evaluateTransaction(call(ledger, "ReadAsset", [key]));
        assert.deepEqual(Buffer.from(read), value);
        const status = await other.getCommitStatus(ledger.channel, submitted.transactionId);
        assert.deepEqual([status.codeName, status.blockNumber], ["VALID", submitted.status.blockNumber]);
      } finally {
        other.close();
      }
    });

    it("evaluates without ordering anything: an evaluated write leaves no trace", async () => {
      const key = uniqueKey("evaluate");
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "PutAsset", [key, "blue"]))), "blue");
      await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("after"), "x"]));
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
    });

    it("reads a committed transaction through qscc: the envelope as its block holds it, its write set and event", async () => {
      const key = uniqueKey("qscc");
      const submitted = await gateway.submitTransaction(call(ledger, "CreateAsset", [key, "red"]));
      const processed = await gateway.getTransactionById(ledger.channel, submitted.transactionId);
      assert.equal(processed.validationCode, 0);
      assert.ok(processed.transactionEnvelope !== undefined);
      const envelope = codecs.Envelope.encode(processed.transactionEnvelope);
      const [entry] = await entriesOf(ledger, submitted.status.blockNumber, submitted.transactionId);
      assert.deepEqual(Buffer.from(envelope), Buffer.from(entry?.envelope ?? []));
      assert.equal(entry?.codeName, "VALID");
      const decoded = unwrap(envelope);
      assert.deepEqual(
        [decoded.channelHeader.txId, decoded.channelHeader.channelId, decoded.headerExtension.chaincodeId?.name],
        [submitted.transactionId, ledger.channel, ledger.chaincode],
      );
      const written = decoded.namespaces
        .filter((n) => n.namespace === ledger.chaincode)
        .map((n) => n.kvRwSet.writes.map((w) => [w.key, text(w.value), w.isDelete]));
      assert.deepEqual(written, [[[key, "red", false]]]);
      assert.deepEqual(
        [decoded.event?.eventName, decoded.event?.txId, text(decoded.event?.payload ?? new Uint8Array())],
        ["AssetCreated", submitted.transactionId, key],
      );
    });

    it("reports an unknown transaction id as not found, with the endorser's ErrorDetail", async () => {
      const missing = "0".repeat(64);
      const err = await failure(gateway.getTransactionById(ledger.channel, missing));
      assert.ok(err instanceof GatewayError);
      assert.equal(isTransactionNotFound(err), true);
      const reason = `chaincode response 500, Failed to get transaction with id ${missing}, error no such transaction ID [${missing}] in index`;
      assert.deepEqual([err.code, err.details], [2, [detail("Org1MSP", reason)]]);
      assert.equal(
        err.message,
        `/gateway.Gateway/Evaluate failed (gRPC 2): evaluate call to endorser returned error: ${reason} [Org1MSP@${ledger.endorserAddress("Org1MSP")}: ${reason}]`,
      );
    });

    it("surfaces a chaincode error at evaluation as UNKNOWN with the chaincode's message", async () => {
      const key = uniqueKey("missing");
      const err = await failure(gateway.evaluateTransaction(call(ledger, "ReadAsset", [key])));
      assert.ok(err instanceof GatewayError);
      const reason = `chaincode response 500, the asset ${key} does not exist`;
      assert.deepEqual(
        [err.name, err.code, err.method, err.details],
        ["GatewayError", 2, "/gateway.Gateway/Evaluate", [detail("Org1MSP", reason)]],
      );
    });

    it("fails endorsement on a chaincode error with the endorser's ErrorDetail and orders nothing", async () => {
      const key = uniqueKey("exists");
      await gateway.submitTransaction(call(ledger, "CreateAsset", [key, "blue"]));
      const err = await failure(gateway.submitTransaction(call(ledger, "CreateAsset", [key, "red"])));
      assert.ok(err instanceof EndorseError);
      assert.deepEqual(
        [err.code, err.details],
        [10, [detail("Org1MSP", `chaincode response 500, the asset ${key} already exists`)]],
      );
      assert.match(err.transactionId, /^[0-9a-f]{64}$/);
      assert.equal(
        err.message.split(" [")[0],
        "/gateway.Gateway/Endorse failed (gRPC 10): failed to endorse transaction, see attached details for more info",
      );
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "ReadAsset", [key]))), "blue");
    });

    it("reports MVCC_READ_CONFLICT by name for the second of two writers endorsed on the same version", async () => {
      const key = uniqueKey("mvcc");
      await submitEverywhere(ledger, gateway, call(ledger, "PutAsset", [key, "blue"]));
      const first = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "green"])).endorse();
      const second = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "yellow"])).endorse();
      const firstStatus = await (await first.submit()).getStatus();
      const secondStatus = await (await second.submit()).getStatus();
      assert.equal(firstStatus.codeName, "VALID");
      assert.deepEqual(
        [secondStatus.code, secondStatus.codeName, secondStatus.successful],
        [11, "MVCC_READ_CONFLICT", false],
      );
      assert.ok(secondStatus.blockNumber > firstStatus.blockNumber);
      const processed = await gateway.getTransactionById(ledger.channel, second.getTransactionId());
      assert.equal(processed.validationCode, 11);
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "ReadAsset", [key]))), "green");
    });

    it("reports ENDORSEMENT_POLICY_FAILURE by name when only one of the two organizations endorses", async () => {
      const key = uniqueKey("policy");
      const err = await failure(
        gateway.submitTransaction(call(ledger, "PutAsset", [key, "blue"], { endorsingOrganizations: ["Org1MSP"] })),
      );
      assert.ok(err instanceof CommitError);
      assert.deepEqual([err.validationCode, err.validationCodeName], [10, "ENDORSEMENT_POLICY_FAILURE"]);
      assert.equal(
        err.message,
        `Transaction ${err.transactionId} failed to commit with status code 10 (ENDORSEMENT_POLICY_FAILURE): ${validationCodeMeaning(10)}`,
      );
      const processed = await gateway.getTransactionById(ledger.channel, err.transactionId);
      assert.equal(processed.validationCode, 10);
      const endorsements = unwrap(codecs.Envelope.encode(processed.transactionEnvelope ?? {})).endorsedAction
        .endorsements;
      assert.equal(endorsements.length, 1);
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
    });

    it("records DUPLICATE_TXID when the same signed transaction is submitted again; qscc keeps the first", async () => {
      const key = uniqueKey("duplicate");
      const transaction = await gateway.newProposal(call(ledger, "PutAsset", [key, "blue"])).endorse();
      const first = await (await transaction.submit()).getStatus();
      const signed = transaction.getBytes();
      const signature = codecs.PreparedTransaction.decode(signed).envelope?.signature ?? new Uint8Array(0);
      await gateway.newSignedTransaction(signed, signature).submit();
      // Blocks are cut in submission order: once a later transaction has committed, so has the duplicate.
      const later = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("later"), "x"]));
      const id = transaction.getTransactionId();
      const entries = [];
      for (let block = first.blockNumber; block <= later.status.blockNumber; block++) {
        entries.push(...(await entriesOf(ledger, block, id)).map((e) => [block > first.blockNumber, e.codeName]));
      }
      assert.deepEqual(entries, [
        [false, "VALID"],
        [true, "DUPLICATE_TXID"],
      ]);
      assert.equal((await gateway.getTransactionById(ledger.channel, id)).validationCode, 0);
      assert.equal((await gateway.getCommitStatus(ledger.channel, id)).codeName, "VALID");
    });

    it("refuses a client whose certificate another CA issued: endorsement, evaluation and commit status", async () => {
      const stranger = ledger.connectOurs({ identity: foreign.newClientIdentity("Org1MSP") });
      const malformed =
        "error validating proposal: access denied: channel [opsledger] creator org unknown, creator is malformed";
      try {
        const endorse = await failure(stranger.submitTransaction(call(ledger, "PutAsset", [uniqueKey("x"), "v"])));
        assert.ok(endorse instanceof EndorseError);
        assert.deepEqual([endorse.code, endorse.details], [10, [detail("Org1MSP", malformed)]]);
        const evaluate = await failure(stranger.evaluateTransaction(call(ledger, "AssetExists", ["k"])));
        assert.ok(evaluate instanceof GatewayError);
        assert.deepEqual([evaluate.code, evaluate.details], [9, [detail("Org1MSP", malformed)]]);
        const status = await failure(stranger.getCommitStatus(ledger.channel, "0".repeat(64)));
        assert.ok(status instanceof CommitStatusError);
        assert.deepEqual(
          [status.code, status.message],
          [7, `/gateway.Gateway/CommitStatus failed (gRPC 7): ${READERS_DENIED}`],
        );
      } finally {
        stranger.close();
      }
    });

    it("refuses a client of an MSP the channel does not have as a malformed creator", async () => {
      const unknown = ledger.connectOurs({ identity: { ...ledger.client(), mspId: "Org9MSP" } });
      const malformed =
        "error validating proposal: access denied: channel [opsledger] creator org unknown, creator is malformed";
      try {
        const endorse = await failure(unknown.submitTransaction(call(ledger, "PutAsset", [uniqueKey("x"), "v"])));
        assert.ok(endorse instanceof EndorseError);
        assert.deepEqual([endorse.code, endorse.details], [10, [detail("Org1MSP", malformed)]]);
      } finally {
        unknown.close();
      }
    });

    it("answers a peer identity's commit status (the channel's Readers) but refuses its proposals (Writers)", async () => {
      const committed = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("readers"), "v"]));
      const peer = ledger.connectOurs({ identity: ledger.peer("Org2MSP") });
      try {
        const status = await peer.getCommitStatus(ledger.channel, committed.transactionId);
        assert.deepEqual([status.codeName, status.blockNumber], ["VALID", committed.status.blockNumber]);
        const evaluate = await failure(peer.evaluateTransaction(call(ledger, "AssetExists", ["k"])));
        assert.ok(evaluate instanceof GatewayError);
        assert.deepEqual(
          [evaluate.code, evaluate.message.split(" [Org1MSP@")[0], evaluate.details],
          [
            9,
            `/gateway.Gateway/Evaluate failed (gRPC 9): evaluate call to endorser returned error: ${WRITERS_DENIED}`,
            [detail("Org1MSP", WRITERS_DENIED)],
          ],
        );
        const endorse = await failure(peer.submitTransaction(call(ledger, "PutAsset", [uniqueKey("peer"), "v"])));
        assert.ok(endorse instanceof EndorseError);
        assert.deepEqual([endorse.code, endorse.details], [10, [detail("Org1MSP", WRITERS_DENIED)]]);
      } finally {
        peer.close();
      }
    });

    it("names an unknown channel, chaincode or organization as Fabric's gateway does, before any endorser", async () => {
      const outcome = async (promise: Promise<unknown>): Promise<[number, string]> => {
        const err = await failure(promise);
        assert.ok(err instanceof GatewayError, String(err));
        assert.deepEqual(err.details, []);
        return [err.code, err.message.replace(/^\/gateway\.Gateway\/\w+ failed \(gRPC \d+\): /, "")];
      };
      const read = call(ledger, "AssetExists", ["k"]);
      const write = call(ledger, "PutAsset", [uniqueKey("nowhere"), "v"]);
      const noPlan =
        "no combination of peers can be derived which satisfy the endorsement policy: No metadata was found";
      assert.deepEqual(await outcome(gateway.evaluateTransaction({ ...read, channelId: "elsewhere" })), [
        14,
        "failed to get config for channel [elsewhere]: could not get last config for channel elsewhere",
      ]);
      assert.deepEqual(await outcome(gateway.submitTransaction({ ...write, channelId: "elsewhere" })), [
        9,
        `${noPlan} for chaincode ${ledger.chaincode} in channel elsewhere`,
      ]);
      assert.deepEqual(await outcome(gateway.evaluateTransaction({ ...read, chaincodeName: "ledgerless" })), [
        9,
        `no peers available to evaluate chaincode ledgerless in channel ${ledger.channel}`,
      ]);
      assert.deepEqual(await outcome(gateway.submitTransaction({ ...write, chaincodeName: "ledgerless" })), [
        9,
        `${noPlan} for chaincode ledgerless in channel ${ledger.channel}`,
      ]);
      assert.deepEqual(await outcome(gateway.evaluateTransaction({ ...read, targetOrganizations: ["Org9MSP"] })), [
        9,
        `no peers available to evaluate chaincode ${ledger.chaincode} in channel ${ledger.channel}`,
      ]);
      assert.deepEqual(await outcome(gateway.submitTransaction({ ...write, endorsingOrganizations: ["Org9MSP"] })), [
        14,
        "failed to find any endorsing peers for org(s): Org9MSP",
      ]);
      assert.deepEqual(await outcome(gateway.getCommitStatus("elsewhere", "0".repeat(64))), [
        7,
        "Failed to get policy manager for channel [elsewhere]",
      ]);
    });

    it("fails with UNAVAILABLE when the gateway's TLS certificate does not chain to the given root", async () => {
      const other = ledger.connectOurs({
        overrides: {
          tls: {
            rootCertificates: foreign.caCertificates["Org1MSP"] ?? "",
            ...(ledger.gateway().serverNameOverride === undefined
              ? {}
              : { serverNameOverride: ledger.gateway().serverNameOverride }),
          },
        },
      });
      try {
        const err = await failure(other.evaluateTransaction(call(ledger, "AssetExists", ["k"])));
        assert.ok(err instanceof GatewayError);
        assert.equal(err.code, 14);
        assert.match(err.message, /^\/gateway\.Gateway\/Evaluate failed \(gRPC 14\): .*certificate/);
      } finally {
        other.close();
      }
    });

    it("fails with UNAVAILABLE when a plain-text client talks to the TLS gateway, and orders nothing", async () => {
      const client = ledger.client();
      const plain = connect({
        address: ledger.gateway().address,
        identity: newIdentity(client.mspId, client.certificatePem),
        signer: newPrivateKeySigner(client.privateKeyPem),
        trustedMsps: [],
      });
      const key = uniqueKey("plain");
      try {
        const err = await failure(plain.submitTransaction(call(ledger, "PutAsset", [key, "v"])));
        assert.ok(err instanceof EndorseError);
        assert.deepEqual([err.code, err.details], [14, []]);
      } finally {
        plain.close();
      }
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
    });

    it("fails a call whose deadline has passed with DEADLINE_EXCEEDED and orders nothing", async () => {
      const key = uniqueKey("deadline");
      const hurried = ledger.connectOurs({
        overrides: {
          endorseOptions: () => ({ deadline: Date.now() - 1 }),
          evaluateOptions: () => ({ deadline: Date.now() - 1 }),
        },
      });
      try {
        const endorse = await failure(hurried.submitTransaction(call(ledger, "PutAsset", [key, "v"])));
        assert.ok(endorse instanceof EndorseError);
        assert.deepEqual([endorse.code, endorse.details], [4, []]);
        const evaluate = await failure(hurried.evaluateTransaction(call(ledger, "AssetExists", [key])));
        assert.ok(evaluate instanceof GatewayError);
        assert.equal(evaluate.code, 4);
      } finally {
        hurried.close();
      }
      assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
    });
  });
}
