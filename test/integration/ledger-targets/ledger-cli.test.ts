/**
 * `opsledger-ledger decode|verify` (bin/opsledger-ledger.js, run as a user runs it) on what qscc returns from each
 * ledger target's peer: GetChainInfo, GetBlockByNumber and GetTransactionByID. Verification agrees with the
 * committer: a transaction whose endorsement a lying gateway changed (tamper.ts) is recorded
 * ENDORSEMENT_POLICY_FAILURE by the peer and refused with that code by `verify`.
 */
import { strict as assert } from "node:assert";
import { createPrivateKey } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as official from "@hyperledger/fabric-gateway";
import { codecs } from "../../../provider/ledger/codec";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { ledgerTargets, type LedgerTarget } from "../../helpers/ledger-targets";
import { opsledgerLedger } from "../../helpers/opsledger-ledger-cli";
import { call, TARGET_TEST_TIMEOUT_MS, uniqueKey } from "./helpers";
import { tamperingClient } from "./tamper";

interface RenderedEntry {
  readonly payload: {
    readonly header?: { readonly channelHeader?: { readonly txId?: string; readonly type?: number } };
    readonly dataType?: string;
  };
}

interface RenderedBlock {
  readonly header: { readonly number: string; readonly previousHash: string };
  readonly data: { readonly data: readonly RenderedEntry[] };
  readonly transactionsFilter: readonly (string | null)[];
}

interface VerifiedEntry {
  readonly index: number;
  readonly transactionId?: string;
  readonly recordedValidationCodeName: string;
  readonly verified: boolean;
  readonly ok?: boolean;
  readonly failure?: { readonly mismatch: string; readonly validationCodeName: string };
}

for (const target of ledgerTargets()) {
  describe(`opsledger-ledger on qscc's answers from ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;
    let foreign: FabricSandbox;
    let dir: string;
    let trusted: string[];

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
      foreign = await startFabricSandbox({ organizations: ["Org1MSP"] });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-cli-targets-"));
      trusted = Object.entries(ledger.caCertificates).flatMap(([mspId, pem]) => {
        const file = path.join(dir, `${mspId}.pem`);
        fs.writeFileSync(file, pem);
        return ["--trusted-ca", `${mspId}=${file}`];
      });
    });
    after(async () => {
      gateway.close();
      await foreign.close();
      await ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    });

    const save = (name: string, bytes: Uint8Array): string => {
      const file = path.join(dir, name);
      fs.writeFileSync(file, bytes);
      return file;
    };

    it("decodes GetChainInfo: the height, and the hashes the last block's header links to", async () => {
      const info = await opsledgerLedger(["decode", save("chaininfo.bin", await ledger.qscc("GetChainInfo"))]);
      assert.equal(info.code, 0);
      assert.equal(info.json.type, "BlockchainInfo");
      const message = info.json.message as { height: string; previousBlockHash: string };
      const height = BigInt(message.height);
      assert.ok(height >= 1n);
      const last = await opsledgerLedger(["decode", save("last.bin", await ledger.readBlock(height - 1n))]);
      const block = last.json.message as RenderedBlock;
      assert.deepEqual(
        [block.header.number, block.header.previousHash],
        [(height - 1n).toString(), message.previousBlockHash],
      );
    });

    it("decodes a block read through GetBlockByNumber: our transaction and its recorded code by name", async () => {
      const submitted = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("cli"), "v"]));
      const run = await opsledgerLedger([
        "decode",
        save("block.bin", await ledger.readBlock(submitted.status.blockNumber)),
      ]);
      assert.deepEqual([run.code, run.json.type], [0, "Block"]);
      const block = run.json.message as RenderedBlock;
      assert.equal(block.header.number, submitted.status.blockNumber.toString());
      const index = block.data.data.findIndex((e) => e.payload.header?.channelHeader?.txId === submitted.transactionId);
      assert.ok(index >= 0);
      assert.equal(block.transactionsFilter[index], "VALID");
      assert.equal(block.transactionsFilter.length, block.data.data.length);
      // Block 0: the channel's genesis configuration on a real network (the sandbox's is empty).
      const genesis = (await opsledgerLedger(["decode", save("block0.bin", await ledger.readBlock(0n))])).json
        .message as RenderedBlock;
      assert.equal(genesis.header.number, "0");
      for (const entry of genesis.data.data) {
        assert.deepEqual(
          [entry.payload.header?.channelHeader?.type, entry.payload.dataType],
          [1, "common.ConfigEnvelope"],
        );
      }
    });

    it("verifies a transaction read through GetTransactionByID against the organizations' CAs, not another's", async () => {
      const submitted = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("verify"), "v"]));
      const file = save("tx.bin", await ledger.qscc("GetTransactionByID", [submitted.transactionId]));
      const run = await opsledgerLedger(["verify", file, ...trusted]);
      assert.equal(run.code, 0, JSON.stringify(run.json));
      assert.deepEqual(
        [run.json.ok, run.json.transactionId, run.json.recordedValidationCodeName, run.json.chainsVerified],
        [true, submitted.transactionId, "VALID", true],
      );
      assert.deepEqual(
        (run.json.endorsers as { mspId: string; chain: string[] }[]).map((e) => [e.mspId, e.chain.length]).sort(),
        [
          ["Org1MSP", 2],
          ["Org2MSP", 2],
        ],
      );
      const otherCa = save("other.pem", new TextEncoder().encode(foreign.caCertificates["Org1MSP"] ?? ""));
      const refused = await opsledgerLedger(["verify", file, "--trusted-ca", `Org1MSP=${otherCa}`]);
      assert.equal(refused.code, 1);
      assert.deepEqual(
        [refused.json.ok, (refused.json.failure as { mismatch: string; validationCodeName: string }).mismatch],
        [false, "creator"],
      );
    });

    it("verifies a block's transactions as the committer judged them: a changed endorsement fails with its code", async () => {
      const lying = tamperingClient(
        ledger.gateway(),
        () => "endorsementSignature",
        (mspId) => ledger.peer(mspId),
      );
      const client = ledger.client();
      const theirs = official.connect({
        client: lying.client,
        identity: { mspId: client.mspId, credentials: Buffer.from(client.certificatePem) },
        signer: official.signers.newPrivateKeySigner(createPrivateKey(client.privateKeyPem)),
      });
      let txId: string;
      let blockNumber: bigint;
      try {
        const submitted = await theirs
          .getNetwork(ledger.channel)
          .getContract(ledger.chaincode)
          .submitAsync("PutAsset", { arguments: [uniqueKey("tampered"), "v"] });
        const status = await submitted.getStatus();
        assert.equal(status.code, 10);
        txId = submitted.getTransactionId();
        blockNumber = status.blockNumber;
      } finally {
        theirs.close();
        lying.client.close();
      }
      const processed = codecs.ProcessedTransaction.decode(await ledger.qscc("GetTransactionByID", [txId]));
      assert.equal(processed.validationCode, 10);
      const run = await opsledgerLedger([
        "verify",
        save("tampered-block.bin", await ledger.readBlock(blockNumber)),
        ...trusted,
      ]);
      const transactions = run.json.transactions as VerifiedEntry[];
      const ours = transactions.find((t) => t.transactionId === txId);
      assert.deepEqual(
        [
          ours?.recordedValidationCodeName,
          ours?.verified,
          ours?.ok,
          ours?.failure?.mismatch,
          ours?.failure?.validationCodeName,
        ],
        ["ENDORSEMENT_POLICY_FAILURE", true, false, "endorsementSignature", "ENDORSEMENT_POLICY_FAILURE"],
      );
      assert.deepEqual([run.code, run.json.ok], [1, false]);
    });
  });
}
