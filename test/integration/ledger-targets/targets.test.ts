/**
 * The ledger targets themselves (test/helpers/ledger-targets.ts): on the sandbox and on a real Fabric 2.5 network,
 * our client submits through the first organization's gateway with endorsements of both organizations, the official
 * client reads the value back, and the peer identity a target hands out is one its organization's CA issued.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { ledgerTargets } from "../../helpers/ledger-targets";
import type { LedgerTarget } from "../../helpers/ledger-targets";

for (const target of ledgerTargets()) {
  describe(`ledger target: ${target.label}`, function () {
    this.timeout(180_000);
    let ledger: LedgerTarget;
    before(async () => {
      ledger = await target.start();
    });
    after(async () => {
      await ledger.close();
    });

    it("submits through our client VALID, endorsed by both organizations, and the official client reads it", async () => {
      const key = `target-${String(process.pid)}-${crypto.randomUUID()}`;
      const gateway = ledger.connectOurs();
      try {
        const submitted = await gateway.submitTransaction({
          channelId: ledger.channel,
          chaincodeName: ledger.chaincode,
          functionName: "CreateAsset",
          args: [key, "teal"],
        });
        assert.equal(submitted.status.codeName, "VALID");
        assert.deepEqual(submitted.verification?.endorsers.map((e) => e.mspId).sort(), ["Org1MSP", "Org2MSP"]);
      } finally {
        gateway.close();
      }
      const official = ledger.connectOfficial();
      try {
        const contract = official.gateway.getNetwork(ledger.channel).getContract(ledger.chaincode);
        assert.equal(Buffer.from(await contract.evaluateTransaction("ReadAsset", key)).toString(), "teal");
      } finally {
        official.close();
      }
    });

    it("hands out peer identities issued by their organization's CA", () => {
      for (const mspId of ledger.organizations) {
        const peer = new crypto.X509Certificate(ledger.peer(mspId).certificatePem);
        const ca = new crypto.X509Certificate(ledger.caCertificates[mspId] ?? "");
        assert.ok(peer.verify(ca.publicKey), `${mspId}'s peer certificate is signed by its CA`);
        assert.equal(
          crypto.createPublicKey(ledger.peer(mspId).privateKeyPem).export({ format: "jwk" }).x,
          peer.publicKey.export({ format: "jwk" }).x,
          `${mspId}'s peer key matches its certificate`,
        );
      }
    });
  });
}
