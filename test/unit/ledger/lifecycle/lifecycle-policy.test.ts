import assert from "node:assert/strict";
import type { ConfigGroup, ConfigPolicy } from "../../../../provider/ledger/config-messages";
import { codecs } from "../../../../provider/ledger/codec";
import { lifecyclePolicyOf } from "../../../../provider/ledger/lifecycle/lifecycle-policy";
import { signaturePolicyBytes } from "../../../../provider/ledger/lifecycle/signature-policy";

function application(organizations: readonly string[], policy?: ConfigPolicy["policy"]): ConfigGroup {
  const group = (): ConfigGroup => ({ version: 0n, groups: [], values: [], policies: [], modPolicy: "Admins" });
  return {
    ...group(),
    groups: organizations.map((key) => ({ key, value: group() })),
    policies:
      policy === undefined
        ? []
        : [{ key: "LifecycleEndorsement", value: { version: 0n, policy, modPolicy: "Admins" } }],
  };
}

const implicitMeta = (rule: number) => ({
  type: 3,
  value: codecs.ImplicitMetaPolicy.encode({ subPolicy: "Endorsement", rule }),
});

describe("the channel's LifecycleEndorsement policy (lifecycle/lifecycle-policy.ts)", () => {
  it("needs a majority of the organizations under MAJORITY Endorsement: 2 of 2, 2 of 3", () => {
    const two = lifecyclePolicyOf(application(["Org1MSP", "Org2MSP"], implicitMeta(2)));
    assert.equal(two.description, "MAJORITY Endorsement (2 of Org1MSP, Org2MSP)");
    assert.deepEqual([two.isMetBy(new Set(["Org1MSP"])), two.isMetBy(new Set(["Org1MSP", "Org2MSP"]))], [false, true]);
    const three = lifecyclePolicyOf(application(["Org1MSP", "Org2MSP", "Org3MSP"], implicitMeta(2)));
    assert.deepEqual(
      [three.isMetBy(new Set(["Org3MSP"])), three.isMetBy(new Set(["Org1MSP", "Org3MSP"])), three.organizations],
      [false, true, ["Org1MSP", "Org2MSP", "Org3MSP"]],
    );
  });

  it("reads ANY and ALL too", () => {
    const orgs = ["Org1MSP", "Org2MSP"];
    assert.equal(lifecyclePolicyOf(application(orgs, implicitMeta(0))).isMetBy(new Set(["Org2MSP"])), true);
    assert.equal(lifecyclePolicyOf(application(orgs, implicitMeta(1))).isMetBy(new Set(["Org2MSP"])), false);
  });

  it("evaluates a signature policy with the approving organizations' principals satisfied", () => {
    const policy = lifecyclePolicyOf(
      application(["Org1MSP", "Org2MSP", "Org3MSP"], {
        type: 1,
        value: signaturePolicyBytes("OR('Org1MSP.peer', AND('Org2MSP.peer','Org3MSP.peer'))"),
      }),
    );
    assert.equal(policy.description, "OR('Org1MSP.peer',AND('Org2MSP.peer','Org3MSP.peer'))");
    assert.deepEqual(
      [
        policy.isMetBy(new Set(["Org2MSP"])),
        policy.isMetBy(new Set(["Org2MSP", "Org3MSP"])),
        policy.isMetBy(new Set(["Org1MSP"])),
      ],
      [false, true, true],
    );
  });

  it("falls back to Fabric's default, a majority of the organizations, on a channel without the policy", () => {
    const policy = lifecyclePolicyOf(application(["Org1MSP", "Org2MSP", "Org3MSP"]));
    assert.match(policy.description, /^MAJORITY of the organizations \(2 of Org1MSP, Org2MSP, Org3MSP/);
    assert.deepEqual(
      [policy.isMetBy(new Set(["Org1MSP"])), policy.isMetBy(new Set(["Org1MSP", "Org2MSP"]))],
      [false, true],
    );
  });
});
