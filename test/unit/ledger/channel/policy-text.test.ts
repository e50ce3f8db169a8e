/**
 * Channel policies as text: the policy language parsed as Fabric's policydsl parses it (principals numbered nested
 * gates first, none merged; OR = OutOf(1), AND = OutOf(all)), written back as the same text, implicit meta policies
 * both ways, and a parse error that names the position and what was expected. The same parser against configtxgen's
 * own encoding of the network's policies: test/integration/channel/configtxlator.test.ts.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../../provider/ledger/codec";
import {
  parseImplicitMetaPolicy,
  parseSignaturePolicy,
  policyFromText,
  policyText,
  signaturePolicyText,
} from "../../../../provider/ledger/channel/policy-text";
import { PolicyTextError } from "../../../../provider/ledger/channel/policy-text-error";

function principals(text: string): string[] {
  return parseSignaturePolicy(text).identities.map((p) => {
    const role = codecs.MspRole.decode(p.principal);
    return `${role.mspIdentifier}#${String(role.role)}`;
  });
}

describe("channel policy text", () => {
  it("parses OR, AND and OutOf into NOutOf gates over principals numbered as policydsl numbers them", () => {
    const envelope = parseSignaturePolicy(
      "OR('Org1MSP.admin', AND('Org2MSP.peer', 'Org3MSP.client'), 'Org4MSP.member')",
    );
    // The nested AND's principals come first (0, 1), then the OR's own in order (2, 3).
    assert.deepEqual(principals("OR('Org1MSP.admin', AND('Org2MSP.peer', 'Org3MSP.client'), 'Org4MSP.member')"), [
      "Org2MSP#3",
      "Org3MSP#2",
      "Org1MSP#1",
      "Org4MSP#0",
    ]);
    assert.deepEqual(envelope.rule, {
      nOutOf: {
        n: 1,
        rules: [{ signedBy: 2 }, { nOutOf: { n: 2, rules: [{ signedBy: 0 }, { signedBy: 1 }] } }, { signedBy: 3 }],
      },
    });
    assert.equal(envelope.version, 0);
    assert.deepEqual(parseSignaturePolicy("OutOf(2, 'A.member', 'B.member', 'C.orderer')").rule?.nOutOf?.n, 2);
    assert.deepEqual(principals("and('A.member', 'A.member')"), ["A#0", "A#0"]);
  });

  it("writes an envelope back as the text it came from", () => {
    for (const text of [
      "OR('Org1MSP.admin')",
      "AND('Org1MSP.peer', 'Org2MSP.peer')",
      "OutOf(2, 'Org1MSP.member', 'Org2MSP.member', 'Org3MSP.member')",
      "OR('Org1MSP.admin', AND('Org2MSP.peer', 'Org3MSP.client'))",
    ])
      assert.equal(signaturePolicyText(parseSignaturePolicy(text)), text);
  });

  it("reads and writes implicit meta policies and common.Policy values of both types", () => {
    assert.deepEqual(parseImplicitMetaPolicy("MAJORITY Admins"), { rule: 2, subPolicy: "Admins" });
    assert.deepEqual(policyText(policyFromText({ type: "ImplicitMeta", rule: "ANY Readers" })), {
      type: "ImplicitMeta",
      rule: "ANY Readers",
    });
    assert.deepEqual(policyText(policyFromText({ type: "Signature", rule: "OR('Org1MSP.peer')" })), {
      type: "Signature",
      rule: "OR('Org1MSP.peer')",
    });
    assert.deepEqual(policyText({ type: 2, value: new Uint8Array(0) }), { type: "Unknown", rule: "policy type 2" });
  });

  it("refuses text it cannot parse, naming the position and what it expected", () => {
    const cases: [string, number, string][] = [
      ["OR('Org1MSP.admin'", 18, "policy 'OR('Org1MSP.admin'': expected ',' or ')' at position 18 (the end)"],
      [
        "NAND('A.member')",
        0,
        "policy 'NAND('A.member')': expected AND(, OR( or OutOf( at position 0 (found 'NAND('A.memb')",
      ],
      [
        "OR('Org1MSP.boss')",
        3,
        "policy 'OR('Org1MSP.boss')': expected '<MSP id>.<member|admin|client|peer|orderer>' at position 3 (found ''Org1MSP.bos')",
      ],
      ["OutOf(3, 'A.member')", 20, "policy 'OutOf(3, 'A.member')': OutOf(3, ...) has only 1 rule"],
      ["OR('A.member') x", 15, "policy 'OR('A.member') x': expected the end of the policy at position 15 (found 'x')"],
    ];
    for (const [text, position, message] of cases) {
      assert.throws(
        () => parseSignaturePolicy(text),
        (e: unknown) =>
          e instanceof PolicyTextError && e.position === position && e.message === message && e.text === text,
        text,
      );
    }
    assert.throws(
      () => parseImplicitMetaPolicy("MOST Admins"),
      (e: unknown) =>
        e instanceof PolicyTextError &&
        e.message ===
          "implicit meta policy 'MOST Admins': expected '<ANY|ALL|MAJORITY> <sub-policy name>', e.g. 'MAJORITY Admins'",
    );
  });
});
