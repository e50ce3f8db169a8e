/**
 * What a resubmission leaves when its first copy was not lost after all, on the Fabric sandbox and on real Fabric:
 * the same signed envelope submitted twice commits once; the second copy is a DUPLICATE_TXID entry in a later block
 * that changes nothing, and the commit status and qscc keep reporting the first, VALID entry. This is why the ledger
 * component may resubmit a transaction whose commit status does not come (provider/resources/
 * provider/ledger/delivery.ts).
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { assertCommittedOnce, chainHeight, ledgerEntries } from "../../helpers/ledger-audit";
import { waitFor } from "../../helpers/wait-for";
import { ledgerTargets } from "../../helpers/ledger-targets";
import type { LedgerTarget } from "../../helpers/ledger-targets";

/** The validation codes of `txId`'s entries once there are `count` of them, in ledger order. */
async function entriesOf(ledger: LedgerTarget, txId: string, count: number): Promise<string[]> {
  const sandbox = ledger.sandbox;
  if (sandbox !== undefined) {
    // The sandbox's ledger is in memory; its orderer commits a submitted envelope asynchronously.
    const codes = (): string[] =>
      sandbox
        .blocks()
        .flatMap((b) => b.transactions)
        .filter((t) => t.txId === txId)
        .map((t) => t.codeName);
    return waitFor({
      what: `${String(count)} entries of ${txId}`,
      read: codes,
      until: (found) => found.length >= count,
      timeoutMs: 30_000,
    });
  }
  const network = ledger.network;
  assert.ok(network);
  // Read from block 0 up to the current height, then one block further each time (the deliver service waits for it).
  for (let top = (await chainHeight(network, "Org1MSP")) - 1n; ; top++) {
    const codes = (await ledgerEntries(network, "Org1MSP", 0n, top)).filter((e) => e.txId === txId);
    if (codes.length >= count) return codes.map((e) => e.codeName);
  }
}

for (const target of ledgerTargets()) {
  describe(`a resubmitted envelope (${target.label})`, function () {
    this.timeout(180_000);
    let ledger: LedgerTarget;
    before(async () => {
      ledger = await target.start();
    });
    after(async () => {
      await ledger.close();
    });

    it("records the second copy as DUPLICATE_TXID, which changes nothing; the commit status stays the first, VALID", async () => {
      const asset = `resubmitted-${randomUUID()}`;
      const gateway = ledger.connectOurs();
      try {
        const transaction = await gateway
          .newProposal({
            channelId: ledger.channel,
            chaincodeName: ledger.chaincode,
            functionName: "CreateAsset",
            args: [asset, "first"],
          })
          .endorse();
        const first = await (await transaction.submit()).getStatus();
        assert.equal(first.codeName, "VALID");
        // What a resubmission does when the first copy was not lost after all: the same signed envelope again.
        const again = await (await transaction.submit()).getStatus();
        assert.deepEqual([again.codeName, again.blockNumber], ["VALID", first.blockNumber], "the first entry's status");
        const txId = transaction.getTransactionId();
        assert.deepEqual(await entriesOf(ledger, txId, 2), ["VALID", "DUPLICATE_TXID"]);
        const processed = await gateway.getTransactionById(ledger.channel, txId);
        assert.equal(processed.validationCode, 0, "qscc reports the VALID entry");
        if (ledger.network !== undefined) {
          const once = await assertCommittedOnce(ledger.network, [txId]); // both peers agree
          assert.equal(once.duplicates, 1);
        }
        const value = await gateway.evaluateTransaction({
          channelId: ledger.channel,
          chaincodeName: ledger.chaincode,
          functionName: "ReadAsset",
          args: [asset],
        });
        assert.equal(Buffer.from(value).toString(), "first");
      } finally {
        gateway.close();
      }
    });
  });
}
