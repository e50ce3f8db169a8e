/**
 * Verify-before-sign against every ledger target: the real peers' endorsements (their signatures, their certificates
 * chained to the organizations' CAs) are accepted; the same endorsements changed on their way back (tamper.ts: a
 * gateway that lies) or checked against the wrong trust roots are refused with the code a committer assigns, after
 * signing nothing but the proposal, and nothing is ordered. The committer's word is taken, not assumed: the official
 * client, which signs whatever comes back, submits the same change, and the target's committer records that code.
 * The sandbox's own tamper knob (and the visibility modes only the sandbox has) stay in
 * test/integration/ledger/verify-before-sign-sandbox.test.ts.
 */
import { strict as assert } from "node:assert";
import { createPrivateKey } from "node:crypto";
import * as official from "@hyperledger/fabric-gateway";
import { type TrustedMsp } from "../../../provider/ledger/cert-chain";
import { type Gateway } from "../../../provider/ledger/gateway-client";
import { newPrivateKeySigner, type Signer } from "../../../provider/ledger/signing";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { ledgerTargets, type LedgerTarget } from "../../helpers/ledger-targets";
import { assertNotOrdered, call, failure, TARGET_TEST_TIMEOUT_MS, text, uniqueKey } from "./helpers";
import { tamperingClient, type GatewayTamper } from "./tamper";

/** Each change, the mismatch our client names, and the code a committer assigns. */
const TAMPERS: readonly [GatewayTamper, string, number, string][] = [
  ["endorsementSignature", "endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
  ["chaincodeArgs", "args", 5, "INVALID_ENDORSER_TRANSACTION"],
  ["rwset", "endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
  ["proposalHash", "proposalHash", 5, "INVALID_ENDORSER_TRANSACTION"],
];

for (const target of ledgerTargets()) {
  describe(`verify-before-sign against ${target.label}`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let gateway: Gateway;
    let foreign: FabricSandbox;
    /** The signatures our client made (proposal, transaction, commit status request). */
    let signatures = 0;
    let counting: Signer;

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start();
      gateway = ledger.connectOurs();
      foreign = await startFabricSandbox({ organizations: ["Org1MSP", "Org2MSP"] });
      const sign = newPrivateKeySigner(ledger.client().privateKeyPem);
      counting = (digest) => {
        signatures++;
        return sign(digest);
      };
    });
    after(async () => {
      gateway.close();
      await foreign.close();
      await ledger.close();
    });
    beforeEach(() => {
      signatures = 0;
    });

    it("accepts the peers' real endorsements: both organizations, signatures valid, chains to their CAs", async () => {
      const key = uniqueKey("genuine");
      const verified = ledger.connectOurs({ overrides: { signer: counting } });
      try {
        const transaction = await verified.newProposal(call(ledger, "CreateAsset", [key, "blue"])).endorse();
        const report = transaction.getVerification();
        assert.ok(report !== undefined);
        assert.deepEqual(
          {
            transactionId: report.transactionId,
            channelId: report.channelId,
            creatorMspId: report.creatorMspId,
            chaincode: report.chaincode.name,
            visibility: report.visibility,
            status: report.response.status,
            endorsers: report.endorsers.map((e) => [e.mspId, e.chain?.length]).sort(),
            chainsVerified: report.chainsVerified,
          },
          {
            transactionId: transaction.getTransactionId(),
            channelId: ledger.channel,
            creatorMspId: "Org1MSP",
            chaincode: ledger.chaincode,
            visibility: "full",
            status: 200,
            endorsers: [
              ["Org1MSP", 2],
              ["Org2MSP", 2],
            ],
            chainsVerified: true,
          },
        );
        assert.ok(report.checks.includes("endorserChains") && report.checks.includes("endorsementSignatures"));
        assert.equal(text(transaction.getResult()), "blue");
        const status = await (await transaction.submit()).getStatus();
        assert.equal(status.codeName, "VALID");
        assert.equal(signatures, 3, "proposal, transaction and commit status request");
      } finally {
        verified.close();
      }
    });

    it("refuses endorsements that chain to other roots than the trusted ones, signs nothing more, orders nothing", async () => {
      const strangers: TrustedMsp[] = Object.entries(foreign.caCertificates).map(([mspId, pem]) => ({
        mspId,
        rootCertificates: [pem],
      }));
      const distrustful = ledger.connectOurs({ overrides: { signer: counting, trustedMsps: strangers } });
      try {
        const proposal = distrustful.newProposal(call(ledger, "PutAsset", [uniqueKey("untrusted"), "v"]));
        const err = await failure(proposal.endorse());
        assert.ok(err instanceof VerificationError);
        assert.deepEqual(
          [err.mismatch, err.validationCode, err.validationCodeName, err.transactionId],
          ["endorser", 10, "ENDORSEMENT_POLICY_FAILURE", proposal.getTransactionId()],
        );
        assert.equal(signatures, 1, "only the proposal was signed");
        await assertNotOrdered(ledger, gateway, [proposal.getTransactionId()]);
      } finally {
        distrustful.close();
      }
    });

    for (const [mode, mismatch, code, name] of TAMPERS) {
      it(`refuses endorsements changed on the way (${mode}) with ${name}, which the committer assigns too`, async () => {
        let active: GatewayTamper | undefined = mode;
        const lying = tamperingClient(
          ledger.gateway(),
          () => active,
          (mspId) => ledger.peer(mspId),
        );
        const ours = ledger.connectOurs({ overrides: { client: lying.client, signer: counting } });
        try {
          const key = uniqueKey(`tamper-${mode}`);
          const proposal = ours.newProposal(call(ledger, "PutAsset", [key, "blue"]));
          const err = await failure(proposal.endorse());
          assert.ok(err instanceof VerificationError, String(err));
          assert.deepEqual(
            [err.mismatch, err.validationCode, err.validationCodeName, err.transactionId],
            [mismatch, code, name, proposal.getTransactionId()],
          );
          assert.equal(signatures, 1, "only the proposal was signed");
          assert.equal(lying.tampered(), 1);
          await assertNotOrdered(ledger, gateway, [proposal.getTransactionId()]);

          // The official client signs the same change and submits it: the committer's code is the one we named.
          const client = ledger.client();
          const theirs = official.connect({
            client: lying.client,
            identity: { mspId: client.mspId, credentials: Buffer.from(client.certificatePem) },
            signer: official.signers.newPrivateKeySigner(createPrivateKey(client.privateKeyPem)),
          });
          try {
            const submitted = await theirs
              .getNetwork(ledger.channel)
              .getContract(ledger.chaincode)
              .submitAsync("PutAsset", { arguments: [key, "blue"] });
            active = undefined;
            const status = await submitted.getStatus();
            assert.equal(lying.tampered(), 2);
            assert.deepEqual([status.code, status.successful], [code, false]);
            const processed = await gateway.getTransactionById(ledger.channel, submitted.getTransactionId());
            assert.equal(processed.validationCode, code);
          } finally {
            theirs.close();
          }
          assert.equal(text(await gateway.evaluateTransaction(call(ledger, "AssetExists", [key]))), "false");
        } finally {
          ours.close();
          lying.client.close();
        }
      });
    }
  });
}
