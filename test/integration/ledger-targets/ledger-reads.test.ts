/**
 * The ledger data sources' logic (provider/resources/ledger/ledger-reads.ts, what ledger.getTransaction, evaluate and
 * getChainInfo run on both faces) against every ledger target, 3.1.5 included: a committed transaction read by txId
 * (VALID with opaque bytes, MVCC_READ_CONFLICT), decoded and verified; a chaincode query; the chain's height and
 * hashes; and the readable errors for a txId not on the channel, a malformed txId, a channel the peer has not joined,
 * a chaincode not defined, and a reader identity asked to evaluate; the channel's capabilities, read from its last
 * configuration block (the sandbox's genesis block carries them as a real channel's does). The reads sign with a peer
 * identity (a member of the channel's Readers, not of its Writers) given as a key file, as a program would.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createPublicKey } from "node:crypto";
import { common as fabricCommon } from "@hyperledger/fabric-protos";
import { readChannelCapabilities } from "../../../provider/ledger/channel-capabilities";
import { codecs } from "../../../provider/ledger/codec";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { toHex } from "../../../provider/ledger/hash";
import { LedgerReadError } from "../../../provider/errors/ledger/ledger-read-error";
import { certificateSubject, fabricSki } from "../../../provider/ledger/signer-keys";
import { ValidationError } from "../../../provider/errors";
import { invoke } from "../../../provider/plugin/adapter";
import {
  evaluateLedger,
  readLedgerChainInfo,
  readLedgerTransaction,
  type LedgerReadInputs,
} from "../../../provider/resources/ledger/ledger-reads";
import { ledgerTargets, type LedgerTarget, type TargetIdentity } from "../../helpers/ledger-targets";
import { createSoftHsmToken, type SoftHsmToken } from "../../helpers/softhsm";
import { call, failure, submitEverywhere, TARGET_TEST_TIMEOUT_MS, uniqueKey } from "./helpers";

const KEY_ENV = "OPSLEDGER_TEST_READER_KEY";
const PIN_ENV = "OPSLEDGER_TEST_READER_PIN";
const b64 = (value: string | Uint8Array): string => Buffer.from(value).toString("base64");

for (const target of ledgerTargets(["2.5.16", "3.1.5"])) {
  describe(`the ledger data sources on ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;
    let dir: string;
    /** A reader (Org1's peer identity) signing through a key file, and a client (a Writer) through its PEM. */
    let reader: LedgerReadInputs;
    let writer: LedgerReadInputs;
    let client: TargetIdentity;
    let token: SoftHsmToken;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "ledger-reads-"));
      const peer = ledger.peer("Org1MSP");
      const keyFile = path.join(dir, "peer-key.pem");
      fs.writeFileSync(keyFile, peer.privateKeyPem, { mode: 0o600 });
      client = ledger.client();
      const common = {
        gateway: ledger.gateway(),
        channel: ledger.channel,
        trustedRootCertificates: { ...ledger.caCertificates },
      };
      reader = { ...common, identity: { mspId: peer.mspId, certificatePem: peer.certificatePem, keyFile } };
      writer = { ...common, identity: { ...client } };
      token = createSoftHsmToken("readers", "2468");
      const ski = Buffer.from(fabricSki(createPublicKey(peer.privateKeyPem))).toString("hex");
      token.importKey(peer.privateKeyPem, ski);
      token.activate();
    });
    after(async () => {
      token.dispose();
      delete process.env["OPSLEDGER_TEST_READER_KEY"];
      delete process.env["OPSLEDGER_TEST_READER_PIN"];
      gateway.close();
      fs.rmSync(dir, { recursive: true, force: true });
      await ledger.close();
    });

    it("reads a VALID transaction by txId: code, block, creator, function, opaque args, write set, event, endorsers, verified", async () => {
      const key = uniqueKey("read");
      const value = Buffer.from([0xff, 0x00, 0x41]);
      const submitted = await gateway.submitTransaction(call(ledger, "CreateAsset", [key, value]));
      const txId = submitted.transactionId;
      const record = await readLedgerTransaction({ ...reader, txId });
      const qscc = await ledger.qscc("GetTransactionByID", [txId]);
      assert.deepEqual(
        {
          txId: record.txId,
          channel: record.channel,
          code: [record.validationCode, record.validationCodeNumber],
          blockNumber: record.blockNumber,
          creator: record.creator,
          chaincode: record.chaincode?.name,
          visibility: record.visibility,
          function: record.function,
          args: record.args,
          response: record.response,
          readWriteSet: record.readWriteSet?.filter((n) => n.namespace === ledger.chaincode),
          event: record.event,
          endorsers: record.endorsers.map((e) => e.mspId).sort(),
          verification: [record.verification.ok, record.verification.chainsVerified, record.verification.failure],
          processedTransaction: record.processedTransaction,
        },
        {
          txId,
          channel: ledger.channel,
          code: ["VALID", 0],
          blockNumber: submitted.status.blockNumber.toString(),
          creator: { mspId: "Org1MSP", subject: certificateSubject(client.certificatePem) },
          chaincode: ledger.chaincode,
          visibility: "full",
          function: "CreateAsset",
          args: [{ text: key, base64: b64(key) }, { base64: b64(value) }],
          response: { status: 200, message: "", payload: { base64: b64(value) } },
          readWriteSet: [
            {
              namespace: ledger.chaincode,
              reads: [{ key }],
              writes: [{ key, isDelete: false, value: { base64: b64(value) } }],
            },
          ],
          event: { name: "AssetCreated", payload: { text: key, base64: b64(key) } },
          endorsers: ["Org1MSP", "Org2MSP"],
          verification: [true, true, undefined],
          processedTransaction: b64(qscc),
        },
      );
      assert.deepEqual(record.verification.checks, [
        "structure",
        "creatorChain",
        "creatorSignature",
        "txId",
        "proposalHash",
        "chaincodeAction",
        "response",
        "endorsementSignatures",
        "endorserChains",
      ]);
    });

    it("reads an MVCC_READ_CONFLICT transaction with its code by name and number and the stale version it read", async () => {
      const key = uniqueKey("mvcc");
      const put = await submitEverywhere(ledger, gateway, call(ledger, "PutAsset", [key, "blue"]));
      const first = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "green"])).endorse();
      const second = await gateway.newProposal(call(ledger, "UpdateAsset", [key, "yellow"])).endorse();
      await (await first.submit()).getStatus();
      const status = await (await second.submit()).getStatus();
      const record = await readLedgerTransaction({ ...reader, txId: second.getTransactionId() });
      const ours = record.readWriteSet?.find((n) => n.namespace === ledger.chaincode);
      assert.deepEqual(
        [
          record.validationCode,
          record.validationCodeNumber,
          record.blockNumber,
          record.function,
          record.verification.ok,
        ],
        ["MVCC_READ_CONFLICT", 11, status.blockNumber.toString(), "UpdateAsset", true],
      );
      assert.deepEqual(
        [ours?.reads.map((r) => [r.key, r.version?.blockNum]), ours?.writes.map((w) => [w.key, w.value.text])],
        [[[key, put.status.blockNumber.toString()]], [[key, "yellow"]]],
      );
    });

    it("evaluates a query with a client identity: text and bytes, and bytes that are not UTF-8 without text", async () => {
      const key = uniqueKey("eval");
      const opaque = Buffer.from([0xc3, 0x28, 0x00]);
      await submitEverywhere(ledger, gateway, call(ledger, "PutAsset", [key, opaque]));
      const read = { ...writer, chaincode: ledger.chaincode, function: "ReadAsset" };
      assert.deepEqual(await evaluateLedger({ ...read, args: [key] }), { base64: b64(opaque) });
      assert.deepEqual(await evaluateLedger({ ...read, function: "AssetExists", args: [{ base64: b64(key) }] }), {
        text: "true",
        base64: b64("true"),
      });
    });

    it("reads the chain's height and hashes with a reader identity; the next block names the current hash", async () => {
      const info = await readLedgerChainInfo(reader);
      const height = BigInt(info.height);
      const last = codecs.Block.decode(await ledger.readBlock(height - 1n));
      assert.equal(info.previousBlockHash, toHex(last.header?.previousHash ?? new Uint8Array()));
      const submitted = await submitEverywhere(ledger, gateway, call(ledger, "PutAsset", [uniqueKey("h"), "v"]));
      assert.ok(submitted.status.blockNumber >= height);
      const next = codecs.Block.decode(await ledger.readBlock(height));
      assert.match(info.currentBlockHash, /^[0-9a-f]{64}$/);
      assert.equal(info.currentBlockHash, toHex(next.header?.previousHash ?? new Uint8Array()));
    });

    it("reads the channel's capabilities from the last configuration block the newest block names", async () => {
      const capabilities = await readChannelCapabilities(gateway, ledger.channel);
      // The newest block's SIGNATURES metadata, decoded with the official protos, names the last configuration block.
      const newest = fabricCommon.Block.deserializeBinary(await ledger.readBlock((await ledger.blockHeight()) - 1n));
      const entry = newest.getMetadata()?.getMetadataList_asU8()[0] ?? new Uint8Array(0);
      const obm = fabricCommon.OrdererBlockMetadata.deserializeBinary(
        fabricCommon.Metadata.deserializeBinary(entry).getValue_asU8(),
      );
      const level = target.label === "Fabric 3.1.5" ? "V3_0" : "V2_0";
      assert.deepEqual(capabilities, {
        channel: ledger.channel,
        channelGroup: [level],
        application: ["V2_5"],
        orderer: ["V2_0"],
        configBlock: BigInt(obm.getLastConfig()?.getIndex() ?? -1),
        level,
      });
    });

    it("signs its reads through a key in an environment variable and a PKCS#11 token key (PIN from the environment)", async () => {
      const { keyFile: _keyFile, ...bare } = reader.identity;
      process.env[KEY_ENV] = ledger.peer("Org1MSP").privateKeyPem;
      process.env[PIN_ENV] = token.pin;
      const viaEnv = await readLedgerChainInfo({ ...reader, identity: { ...bare, keyEnv: KEY_ENV } });
      assert.ok(BigInt(viaEnv.height) > 0n);
      const submitted = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("hsm"), "v"]));
      const pkcs11 = { library: token.library, tokenLabel: token.label, pinEnv: PIN_ENV };
      const record = await readLedgerTransaction({
        ...reader,
        identity: { ...bare, pkcs11 },
        txId: submitted.transactionId,
      });
      assert.deepEqual(
        [record.validationCode, record.blockNumber, record.function],
        ["VALID", submitted.status.blockNumber.toString(), "PutAsset"],
      );
    });

    it("serves the same read through the plugin's invoke, as plain data", async () => {
      const submitted = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("plugin"), "v"]));
      const args = { ...reader, txId: submitted.transactionId };
      const noGoogle = () => Promise.reject(new Error("the ledger reads call no Google endpoint"));
      const served = await invoke("opsledger:ledger:getTransaction", args, noGoogle);
      assert.deepEqual(served.failures, []);
      assert.deepEqual(served.result, await readLedgerTransaction(args));
      assert.deepEqual(JSON.parse(JSON.stringify(served.result)), served.result);
    });

    it("names a txId that is not on the channel, and refuses one that is not 64 lower-case hex characters", async () => {
      const missing = "0".repeat(64);
      const err = await failure(readLedgerTransaction({ ...reader, txId: missing }));
      assert.ok(err instanceof LedgerReadError, String(err));
      assert.deepEqual(
        [err.problem, err.field, err.message],
        [
          "TRANSACTION_NOT_FOUND",
          "txId",
          `txId ${missing} is not on channel '${ledger.channel}': the peer's index has no such transaction (qscc GetTransactionByID). Check the txId and the channel; a transaction still being ordered is found once it is committed`,
        ],
      );
      const bad = await failure(readLedgerTransaction({ ...reader, txId: "A".repeat(64) }));
      assert.ok(bad instanceof ValidationError);
      assert.equal(
        bad.message,
        `ledger.getTransaction: invalid input: txId: '${"A".repeat(64)}' has upper-case letters; Fabric's txIds are lower-case hex: pass '${"a".repeat(64)}'`,
      );
    });

    it("names a channel the peer has not joined, for every read", async () => {
      const elsewhere = { ...reader, channel: "elsewhere" };
      const expected =
        "channel 'elsewhere': the gateway peer has not joined it (Fabric: failed to get config for channel [elsewhere]). Check the channel name, or point gateway.address at a peer of that channel";
      for (const read of [
        readLedgerChainInfo(elsewhere),
        readLedgerTransaction({ ...elsewhere, txId: "1".repeat(64) }),
        evaluateLedger({ ...writer, channel: "elsewhere", chaincode: ledger.chaincode, function: "AssetExists" }),
      ]) {
        const err = await failure(read);
        assert.ok(err instanceof LedgerReadError, String(err));
        assert.deepEqual([err.problem, err.field, err.message], ["CHANNEL_NOT_FOUND", "channel", expected]);
      }
    });

    it("names a chaincode not defined on the channel, and tells a reader that evaluate needs a Writer", async () => {
      const unknown = await failure(
        evaluateLedger({ ...writer, chaincode: "ledgerless", function: "AssetExists", args: ["k"] }),
      );
      assert.ok(unknown instanceof LedgerReadError, String(unknown));
      assert.deepEqual(
        [unknown.problem, unknown.field, unknown.message],
        [
          "CHAINCODE_NOT_FOUND",
          "chaincode",
          `chaincode 'ledgerless' is not defined on channel '${ledger.channel}' (Fabric: no peers available to evaluate chaincode ledgerless in channel ${ledger.channel}). Check the chaincode name, or approve and commit its definition on the channel`,
        ],
      );
      const denied = await failure(
        evaluateLedger({ ...reader, chaincode: ledger.chaincode, function: "AssetExists", args: ["k"] }),
      );
      assert.ok(denied instanceof LedgerReadError, String(denied));
      assert.deepEqual([denied.problem, denied.field], ["NOT_A_WRITER", "identity"]);
      assert.match(denied.message, /not one of the channel's Writers/);
    });
  });
}
