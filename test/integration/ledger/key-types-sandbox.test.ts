/**
 * Ed25519 and ECDSA P-384 identities, and their checks, on the Fabric sandbox: an Ed25519 organization and a P-384 one
 * on a channel with V3_0. Our client commits VALID with endorsements from both, as each organization's client; a
 * tampered endorsement of each key type is refused with the committer's code before anything is signed; and without
 * V3_0 the sandbox's MSP refuses an Ed25519 creator as Fabric 3 does ("creator org"), while a P-384 one is fine.
 */
import { strict as assert } from "node:assert";
import { type Gateway, type ProposalRequest } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { startFabricSandbox, type FabricSandbox } from "../../../sandbox/fabric";
import { connectOurs, failure, ledgerCodes } from "./helpers";

const ORGS = ["OrgEdMSP", "OrgP384MSP"];
const KEY_TYPES = { OrgEdMSP: "ed25519", OrgP384MSP: "ecdsa-p384" } as const;

describe("ledger key types on the Fabric sandbox: an Ed25519 and a P-384 organization", () => {
  let sandbox: FabricSandbox;
  const gateways: Gateway[] = [];
  const request = (sandboxOf: FabricSandbox, id: string, endorsingOrganizations = ORGS): ProposalRequest => ({
    channelId: sandboxOf.channel,
    chaincodeName: sandboxOf.chaincode,
    functionName: "PutAsset",
    args: [id, "blue"],
    endorsingOrganizations,
  });

  before(async () => {
    sandbox = await startFabricSandbox({
      organizations: ORGS,
      organizationKeyTypes: KEY_TYPES,
      channelCapability: "V3_0",
      endorsementPolicy: "any",
    });
  });
  after(async () => {
    for (const g of gateways) g.close();
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.setFaults({ tamperPreparedTransaction: "none" });
  });

  it("commits VALID as an Ed25519 client and as a P-384 client, endorsed by both organizations", async () => {
    for (const [i, mspId] of ORGS.entries()) {
      const gateway = connectOurs(sandbox, sandbox.newClientIdentity(mspId));
      gateways.push(gateway);
      const result = await gateway.submitTransaction(request(sandbox, `asset-${String(i)}`));
      assert.equal(result.status.codeName, "VALID");
      assert.deepEqual(result.verification?.endorsers.map((e) => e.mspId).sort(), ORGS);
    }
    assert.deepEqual(
      ledgerCodes(sandbox).map(([, code]) => code),
      ["VALID", "VALID"],
    );
  });

  for (const mspId of ORGS) {
    it(`refuses a tampered ${KEY_TYPES[mspId as keyof typeof KEY_TYPES]} endorsement with the committer's code`, async () => {
      const gateway = connectOurs(sandbox, sandbox.newClientIdentity("OrgEdMSP"));
      gateways.push(gateway);
      const before = sandbox.transactionCount();
      for (const mode of ["endorsementSignature", "rwset"] as const) {
        sandbox.setFaults({ tamperPreparedTransaction: mode });
        const error = await failure(gateway.submitTransaction(request(sandbox, `tampered-${mode}`, [mspId])));
        assert.ok(error instanceof VerificationError, String(error));
        assert.deepEqual(
          [error.mismatch, error.validationCode, error.validationCodeName],
          ["endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
        );
        assert.match(error.message, new RegExp(`endorsement 0 \\(${mspId}\\)`));
      }
      assert.equal(sandbox.transactionCount(), before, "nothing was submitted");
    });
  }

  it("without V3_0, refuses an Ed25519 creator as Fabric 3 does and accepts a P-384 one", async () => {
    const v2 = await startFabricSandbox({
      organizations: ORGS,
      organizationKeyTypes: KEY_TYPES,
      endorsementPolicy: "any",
    });
    try {
      const p384 = connectOurs(v2, v2.newClientIdentity("OrgP384MSP"));
      gateways.push(p384);
      const ok = await p384.submitTransaction(request(v2, "p384", ["OrgP384MSP"]));
      assert.equal(ok.status.codeName, "VALID");
      const ed = connectOurs(v2, v2.newClientIdentity("OrgEdMSP"));
      gateways.push(ed);
      const refused = await failure(ed.submitTransaction(request(v2, "ed", ["OrgP384MSP"])));
      assert.ok(refused instanceof GatewayError, String(refused));
      assert.match(refused.message, /creator org/);
      assert.equal(v2.transactionCount(), 1);
    } finally {
      await v2.close();
    }
  });
});
