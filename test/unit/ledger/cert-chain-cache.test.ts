/**
 * provider/ledger/cert-chain.ts remembers verified chains by the content of the trust anchors: a provider process
 * builds a new anchor list for every create from the same PEMs, and each endorser's chain must then not be built again
 * (docs/benchmarks.md, "The ledger through the engine"); while anchors that differ never share an entry.
 */
import assert from "node:assert/strict";
import { verifyCertificateChain } from "../../../provider/ledger/cert-chain";
import type { TrustedMsp } from "../../../provider/ledger/cert-chain";
import { x509 } from "../../../provider/ledger/x509-lib";
import { newMember, newOrg } from "./fixtures";
import type { TestMember, TestOrg } from "./fixtures";

describe("certificate chains verified once per trust anchors' content (cert-chain.ts)", function () {
  let org1: TestOrg;
  let org2: TestOrg;
  let member: TestMember;
  let builds = 0;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be called with its own `this` below
  const build = x509.X509ChainBuilder.prototype.build;

  before(async () => {
    org1 = await newOrg("Org1MSP");
    org2 = await newOrg("Org2MSP");
    member = await newMember(org1, "endorser");
    x509.X509ChainBuilder.prototype.build = function (this: x509.X509ChainBuilder, ...args) {
      builds++;
      return build.apply(this, args);
    };
  });
  after(() => {
    x509.X509ChainBuilder.prototype.build = build;
  });

  /** A new list object each time, as each create's gateway builds one. */
  const anchors = (...roots: TestOrg[]): TrustedMsp[] => [
    { mspId: "Org1MSP", rootCertificates: roots.map((o) => o.caPem) },
  ];

  it("builds an endorser's chain once for equal anchors given as different lists", async () => {
    const before = builds;
    const first = await verifyCertificateChain(member.identity, { trustedMsps: anchors(org1) });
    const second = await verifyCertificateChain(member.identity, { trustedMsps: anchors(org1) });
    assert.deepEqual(second, first);
    assert.deepEqual(first.subjects, ["CN=endorser, O=Org1MSP", "CN=ca.org1msp, O=Org1MSP"]);
    assert.equal(builds - before, 1, "the second verification came from the cache");
  });

  it("verifies again, and refuses, when the anchors differ: a verified chain is never reused across anchors", async () => {
    await verifyCertificateChain(member.identity, { trustedMsps: anchors(org1) });
    const before = builds;
    await assert.rejects(
      verifyCertificateChain(member.identity, { trustedMsps: anchors(org2) }),
      /certificate of Org1MSP: (the certificate chain cannot be built|does not chain to a trusted root CA of Org1MSP)/,
    );
    assert.equal(builds - before, 1, "Org2's anchors built the chain themselves");
  });
});
