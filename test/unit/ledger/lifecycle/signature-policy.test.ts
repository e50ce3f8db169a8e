import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import fc from "fast-check";
import { ValidationError } from "../../../../provider/errors/validation-error";
import { codecs } from "../../../../provider/ledger/codec";
import {
  DEFAULT_ENDORSEMENT_POLICY_REFERENCE,
  endorsementPolicyBytes,
  printEndorsementPolicyBytes,
} from "../../../../provider/ledger/lifecycle/application-policy";
import { PolicySyntaxError } from "../../../../provider/errors/ledger/policy-syntax-error";
import {
  parseSignaturePolicy,
  printSignaturePolicy,
  signaturePolicyBytes,
} from "../../../../provider/ledger/lifecycle/signature-policy";

const ROLES = { member: 0, admin: 1, client: 2, peer: 3, orderer: 4 } as const;

/** A SignaturePolicyEnvelope built with fabric-protos, as policydsl's SignedBy/NOutOf/SignedByMspX build them. */
function envelope(identities: readonly [string, keyof typeof ROLES][], rule: fp.common.SignaturePolicy): Uint8Array {
  const e = new fp.common.SignaturePolicyEnvelope();
  e.setVersion(0);
  e.setRule(rule);
  e.setIdentitiesList(
    identities.map(([msp, role]) => {
      const r = new fp.msp.MSPRole();
      r.setMspIdentifier(msp);
      r.setRole(ROLES[role]);
      const p = new fp.msp.MSPPrincipal();
      p.setPrincipalClassification(fp.msp.MSPPrincipal.Classification.ROLE);
      p.setPrincipal(r.serializeBinary());
      return p;
    }),
  );
  return e.serializeBinary();
}
const signedBy = (n: number): fp.common.SignaturePolicy => {
  const p = new fp.common.SignaturePolicy();
  p.setSignedBy(n);
  return p;
};
const nOutOf = (n: number, rules: fp.common.SignaturePolicy[]): fp.common.SignaturePolicy => {
  const g = new fp.common.SignaturePolicy.NOutOf();
  g.setN(n);
  g.setRulesList(rules);
  const p = new fp.common.SignaturePolicy();
  p.setNOutOf(g);
  return p;
};

/** The one failure of a refused policy, as the message reads. */
function refusal(text: string): string {
  try {
    parseSignaturePolicy(text);
  } catch (error) {
    assert.ok(error instanceof PolicySyntaxError && error instanceof ValidationError);
    return error.message;
  }
  assert.fail(`${text} parsed`);
}

describe("the peer CLI's signature-policy language (lifecycle/signature-policy.ts)", () => {
  it("builds policydsl's envelope for AND of two peers, byte for byte", () => {
    const expected = envelope(
      [
        ["Org1MSP", "peer"],
        ["Org2MSP", "peer"],
      ],
      nOutOf(2, [signedBy(0), signedBy(1)]),
    );
    assert.deepEqual(Buffer.from(signaturePolicyBytes("AND('Org1MSP.peer','Org2MSP.peer')")), Buffer.from(expected));
  });

  it("numbers identities as Fabric's evaluation does: a gate's nested gates first, then its own principals", () => {
    const expected = envelope(
      [
        ["B", "peer"],
        ["C", "admin"],
        ["A", "member"],
        ["D", "client"],
      ],
      nOutOf(1, [signedBy(2), nOutOf(2, [signedBy(0), signedBy(1)]), signedBy(3)]),
    );
    assert.deepEqual(
      Buffer.from(signaturePolicyBytes("OR('A.member', AND('B.peer','C.admin'), 'D.client')")),
      Buffer.from(expected),
    );
  });

  it("gives the bytes Fabric's policydsl.FromString gives (vectors recorded from hyperledger/fabric v2.1.1's common/policydsl, built with Go)", () => {
    const vectors: [string, string][] = [
      [
        "OR('A.member', AND('B.peer','C.admin'), 'D.client')",
        "121a1218080112020802120c120a08021202080012020801120208031a0712050a014210031a0712050a014310011a0512030a01411a0712050a01441002",
      ],
      [
        "OutOf(2, 'Org1MSP.peer', AND('org.two-MSP.admin', 'Org3MSP.orderer'), OR('Org4MSP.client'))",
        "1220121e080212020803120c120a08021202080012020801120812060801120208021a11120f0a0b6f72672e74776f2d4d535010011a0d120b0a074f7267334d535010041a0d120b0a074f7267344d535010021a0d120b0a074f7267314d53501003",
      ],
      [
        "OR(AND('A.peer', OR('B.peer','C.peer')), 'D.peer', AND('E.peer','F.peer'))",
        "122e122c080112161214080212020802120c120a0801120208001202080112020805120c120a080212020803120208041a0712050a014210031a0712050a014310031a0712050a014110031a0712050a014510031a0712050a014610031a0712050a01441003",
      ],
    ];
    for (const [text, hex] of vectors) assert.equal(Buffer.from(signaturePolicyBytes(text)).toString("hex"), hex, text);
  });

  it("gives each occurrence of a principal its own identity, as policydsl does", () => {
    const expected = envelope(
      [
        ["Org1MSP", "peer"],
        ["Org1MSP", "peer"],
      ],
      nOutOf(1, [signedBy(0), signedBy(1)]),
    );
    assert.deepEqual(Buffer.from(signaturePolicyBytes("OR('Org1MSP.peer','Org1MSP.peer')")), Buffer.from(expected));
  });

  it("reads the gates in their three spellings, OutOf's count, double quotes, dotted MSP ids and any spacing", () => {
    const canonical = "OutOf(2,'Org1MSP.peer',AND('org.two-MSP.admin','Org3MSP.orderer'),OR('Org4MSP.client'))";
    for (const text of [
      "OutOf(2, 'Org1MSP.peer', AND('org.two-MSP.admin', 'Org3MSP.orderer'), OR('Org4MSP.client'))",
      'outof( 2 ,"Org1MSP.peer" , and("org.two-MSP.admin","Org3MSP.orderer"), or("Org4MSP.client") )',
      "OUTOF(2,'Org1MSP.peer',And('org.two-MSP.admin','Org3MSP.orderer'),Or('Org4MSP.client'))",
    ]) {
      assert.equal(printSignaturePolicy(parseSignaturePolicy(text)), canonical);
      assert.deepEqual(Buffer.from(signaturePolicyBytes(text)), Buffer.from(signaturePolicyBytes(canonical)));
    }
  });

  it("prints AND when every rule is needed, OR when one is, OutOf otherwise", () => {
    assert.equal(printSignaturePolicy(parseSignaturePolicy("OutOf(1,'A.peer','B.peer')")), "OR('A.peer','B.peer')");
    assert.equal(printSignaturePolicy(parseSignaturePolicy("OutOf(2,'A.peer','B.peer')")), "AND('A.peer','B.peer')");
    assert.equal(printSignaturePolicy(parseSignaturePolicy("AND('A.peer')")), "OR('A.peer')");
    assert.equal(printSignaturePolicy(parseSignaturePolicy("OutOf(0,'A.peer')")), "OutOf(0,'A.peer')");
  });

  it("refuses what does not parse with the column, what was expected and what was found", () => {
    const table: [string, string][] = [
      [
        "AND('Org1MSP.peer' 'Org2MSP.peer')",
        `at column 20 of "AND('Org1MSP.peer' 'Org2MSP.peer')": expected ',' or ')' after the first rule of AND, found 'Org2MSP.peer'`,
      ],
      [
        "AND('Org1MSP.Peer')",
        `at column 5 of "AND('Org1MSP.Peer')": expected a principal '<MSP id>.<role>' such as 'Org1MSP.peer': an MSP id of letters, digits, '.' and '-', and a role of member, admin, client, peer, orderer (lower case), found 'Org1MSP.Peer'`,
      ],
      [
        "'Org1MSP.peer'",
        `at column 1 of "'Org1MSP.peer'": expected a gate AND(...), OR(...) or OutOf(n, ...) (a principal alone is not a policy: write OR('…')), found 'Org1MSP.peer'`,
      ],
      [
        "OutOf(3,'A.peer','B.peer')",
        `at column 7 of "OutOf(3,'A.peer','B.peer')": expected a number from 0 to 2: OutOf(3, …) of 2 rules can never be satisfied, found 3`,
      ],
      ["OutOf(1.5,'A.peer')", `at column 7 of "OutOf(1.5,'A.peer')": expected a whole number of rules, found "1.5"`],
      [
        "OutOf('A.peer')",
        `at column 7 of "OutOf('A.peer')": expected the number of rules OutOf needs, then ',', found 'A.peer'`,
      ],
      [
        "OR('A.peer',)",
        `at column 13 of "OR('A.peer',)": expected a quoted principal such as 'Org1MSP.peer', or a nested gate, found ")"`,
      ],
      [
        "AND()",
        `at column 5 of "AND()": expected a quoted principal such as 'Org1MSP.peer', or a nested gate, found ")"`,
      ],
      [
        "AND('A.peer'",
        `at column 13 of "AND('A.peer'": expected ',' or ')' after the first rule of AND, found the end of the policy`,
      ],
      [
        "AND('A.peer",
        `at column 5 of "AND('A.peer": expected a closing ' for the principal opened here, found the end of the policy`,
      ],
      [
        "XOR('A.peer')",
        `at column 1 of "XOR('A.peer')": expected a gate AND(...), OR(...) or OutOf(n, ...), found "XOR"`,
      ],
      [
        "AND('A.peer') OR('B.peer')",
        `at column 15 of "AND('A.peer') OR('B.peer')": expected the end of the policy after the closing ')', found "OR"`,
      ],
      ["", `at column 1 of "": expected a gate AND(...), OR(...) or OutOf(n, ...), found the end of the policy`],
      [
        "AND('A.peer'; 'B.peer')",
        `at column 13 of "AND('A.peer'; 'B.peer')": expected a gate (AND, OR, OutOf), a quoted principal, a number, '(', ')' or ',', found ";"`,
      ],
    ];
    for (const [text, reason] of table) {
      assert.equal(refusal(text), `ChaincodeDefinition: invalid input: endorsementPolicy: ${reason}`, text);
    }
  });

  it("names the field and subject it is given, and carries the column and the text", () => {
    try {
      parseSignaturePolicy("OR('A.peer'", { field: "collections[0].policy", subject: "LifecycleApproval" });
      assert.fail("parsed");
    } catch (error) {
      assert.ok(error instanceof PolicySyntaxError);
      assert.deepEqual(
        [error.subject, error.field, error.position, error.text, error.failures[0]?.property],
        ["LifecycleApproval", "collections[0].policy", 12, "OR('A.peer'", "collections[0].policy"],
      );
    }
  });

  it("prints a principal the language cannot name as Principal(<classification>, <base64>)", () => {
    const ou = new fp.msp.MSPPrincipal();
    ou.setPrincipalClassification(fp.msp.MSPPrincipal.Classification.ORGANIZATION_UNIT);
    ou.setPrincipal(Buffer.from("ou"));
    const e = new fp.common.SignaturePolicyEnvelope();
    e.setRule(nOutOf(1, [signedBy(0)]));
    e.setIdentitiesList([ou]);
    assert.equal(
      printSignaturePolicy(codecs.SignaturePolicyEnvelope.decode(e.serializeBinary())),
      "OR(Principal(ORGANIZATION_UNIT, b3U=))",
    );
  });

  it("parses what it prints back to the same bytes, for any policy (property)", () => {
    const principal = fc
      .tuple(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9.-]{0,8}$/), fc.constantFrom(...Object.keys(ROLES)))
      .map(([msp, role]) => `'${msp}.${role}'`);
    const { policy } = fc.letrec<{ policy: string; rule: string }>((tie) => ({
      rule: fc.oneof({ depthSize: "small", withCrossShrink: true }, principal, tie("policy")),
      policy: fc
        .tuple(fc.constantFrom("AND", "or", "OutOf"), fc.array(tie("rule"), { minLength: 1, maxLength: 4 }))
        .chain(([gate, rules]) =>
          gate === "OutOf"
            ? fc.integer({ min: 0, max: rules.length }).map((n) => `OutOf(${String(n)}, ${rules.join(", ")})`)
            : fc.constant(`${gate}(${rules.join(",")})`),
        ),
    }));
    fc.assert(
      fc.property(policy, (text) => {
        const bytes = signaturePolicyBytes(text);
        const printed = printSignaturePolicy(codecs.SignaturePolicyEnvelope.decode(bytes));
        assert.deepEqual(Buffer.from(signaturePolicyBytes(printed)), Buffer.from(bytes));
        assert.equal(printSignaturePolicy(parseSignaturePolicy(printed)), printed);
      }),
      { numRuns: 300 },
    );
  });
});

describe("endorsement policies: a signature policy or a channel policy reference (lifecycle/application-policy.ts)", () => {
  it("encodes a reference as Fabric's ApplicationPolicy, and no policy as empty bytes (the channel's default)", () => {
    const reference = new fp.peer.ApplicationPolicy();
    reference.setChannelConfigPolicyReference("/Channel/Application/Endorsement");
    assert.deepEqual(
      Buffer.from(endorsementPolicyBytes("/Channel/Application/Endorsement")),
      Buffer.from(reference.serializeBinary()),
    );
    assert.equal(endorsementPolicyBytes(undefined).length, 0);
    assert.equal(printEndorsementPolicyBytes(new Uint8Array(0)), DEFAULT_ENDORSEMENT_POLICY_REFERENCE);
  });

  it("encodes a signature policy inside an ApplicationPolicy and prints it back", () => {
    const bytes = endorsementPolicyBytes("and('Org1MSP.peer', 'Org2MSP.peer')");
    const decoded = fp.peer.ApplicationPolicy.deserializeBinary(bytes);
    assert.deepEqual(
      Buffer.from(decoded.getSignaturePolicy()?.serializeBinary() ?? []),
      Buffer.from(signaturePolicyBytes("AND('Org1MSP.peer','Org2MSP.peer')")),
    );
    assert.equal(printEndorsementPolicyBytes(bytes), "AND('Org1MSP.peer','Org2MSP.peer')");
  });

  it("refuses a reference that is not a channel policy path, naming the field and both forms", () => {
    assert.throws(
      () => endorsementPolicyBytes("/Application/Endorsement", { field: "policy" }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.message ===
          `ChaincodeDefinition: invalid input: policy: "/Application/Endorsement" is not a channel policy path: write ` +
            "/Channel/Application/<policy>, such as /Channel/Application/Endorsement, or a signature policy such as " +
            "AND('Org1MSP.peer','Org2MSP.peer')",
    );
  });
});
