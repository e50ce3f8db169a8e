/**
 * Channel policies as text, both ways: a signature policy through the policy language (parsed and printed by
 * lifecycle/signature-policy.ts, whose own tests hold it to policydsl), an implicit meta policy as `MAJORITY Admins`,
 * an identity principal (SmartBFT's BlockValidation) named by MSP and CN, and text that is neither refused naming the
 * field. The same text against configtxgen's bytes: test/integration/channel/configtxlator.test.ts.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../../provider/ledger/codec";
import { parseImplicitMetaPolicy, policyFromText, policyText } from "../../../../provider/ledger/channel/policy-text";
import { PolicySyntaxError } from "../../../../provider/errors/ledger/policy-syntax-error";
import { newMember, newOrg } from "../fixtures";

describe("channel policy text", () => {
  it("reads and writes implicit meta and signature policies as common.Policy values", () => {
    assert.deepEqual(parseImplicitMetaPolicy("MAJORITY Admins"), { rule: 2, subPolicy: "Admins" });
    for (const text of [
      { type: "ImplicitMeta", rule: "ANY Readers" },
      { type: "ImplicitMeta", rule: "ALL Endorsement" },
      { type: "Signature", rule: "OR('Org1MSP.admin','Org1MSP.peer','Org1MSP.client')" },
      { type: "Signature", rule: "OutOf(2,'Org1MSP.member','Org2MSP.member',AND('Org3MSP.peer','Org3MSP.admin'))" },
    ] as const)
      assert.deepEqual(policyText(policyFromText(text)), text);
    assert.deepEqual(policyFromText({ type: "ImplicitMeta", rule: "MAJORITY Admins" }).type, 3);
    assert.deepEqual(policyText({ type: 2, value: new Uint8Array(0) }), { type: "Unknown", rule: "policy type 2" });
  });

  it("names an identity principal by its MSP and certificate CN", async () => {
    const orderer = await newMember(await newOrg("OrdererMSP"), "orderer0.example.com");
    const envelope = codecs.SignaturePolicyEnvelope.encode({
      rule: { nOutOf: { n: 1, rules: [{ signedBy: 0 }] } },
      identities: [
        {
          principalClassification: 2,
          principal: codecs.SerializedIdentity.encode({ mspid: "OrdererMSP", idBytes: orderer.identity.credentials }),
        },
      ],
    });
    assert.equal(
      policyText({ type: 1, value: envelope }).rule,
      "OR(Principal(IDENTITY, 'OrdererMSP', CN=orderer0.example.com))",
    );
  });

  it("refuses text that is not a policy, naming the field and what it expected", () => {
    assert.throws(
      () => policyFromText({ type: "ImplicitMeta", rule: "MOST Admins" }, { field: "application.policies.Admins" }),
      (e: unknown) =>
        e instanceof PolicySyntaxError &&
        e.field === "application.policies.Admins" &&
        e.message ===
          'ChannelConfiguration: invalid input: application.policies.Admins: at column 1 of "MOST Admins": expected ' +
            "'<ANY|ALL|MAJORITY> <sub-policy name>', e.g. 'MAJORITY Admins', found \"MOST Admins\"",
    );
    assert.throws(
      () => policyFromText({ type: "Signature", rule: "OR('Org1MSP.boss')" }, { field: "orderer.policies.Readers" }),
      (e: unknown) => e instanceof PolicySyntaxError && e.field === "orderer.policies.Readers" && e.position === 4,
    );
  });
});
