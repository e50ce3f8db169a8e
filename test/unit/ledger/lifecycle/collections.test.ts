import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import { ValidationError } from "../../../../provider/errors/validation-error";
import { parseCollections, printCollections } from "../../../../provider/ledger/lifecycle/collections";
import { lifecycleCodecs } from "../../../../provider/ledger/lifecycle/lifecycle-codecs";
import { signaturePolicyBytes } from "../../../../provider/ledger/lifecycle/signature-policy";

/** fabric-samples' asset-transfer-private-data collections_config.json, as an operator writes it. */
const SAMPLE = `[
  {
    "name": "assetCollection",
    "policy": "OR('Org1MSP.member', 'Org2MSP.member')",
    "requiredPeerCount": 1,
    "maxPeerCount": 1,
    "blockToLive": 1000000,
    "memberOnlyRead": true,
    "memberOnlyWrite": true
  },
  {
    "name": "Org1MSPPrivateCollection",
    "policy": "OR('Org1MSP.member')",
    "requiredPeerCount": 0,
    "maxPeerCount": 1,
    "blockToLive": 3,
    "memberOnlyRead": true,
    "memberOnlyWrite": false,
    "endorsementPolicy": { "signaturePolicy": "OR('Org1MSP.member')" }
  }
]`;

/** The package the peer CLI builds for SAMPLE (getCollectionConfigFromBytes), with fabric-protos. */
function samplePackage(): Uint8Array {
  const collection = (
    name: string,
    policy: string,
    counts: [number, number],
    blockToLive: number,
    read: boolean,
    write: boolean,
    endorsement?: string,
  ): fp.peer.CollectionConfig => {
    const member = new fp.peer.CollectionPolicyConfig();
    member.setSignaturePolicy(fp.common.SignaturePolicyEnvelope.deserializeBinary(signaturePolicyBytes(policy)));
    const s = new fp.peer.StaticCollectionConfig();
    s.setName(name);
    s.setMemberOrgsPolicy(member);
    s.setRequiredPeerCount(counts[0]);
    s.setMaximumPeerCount(counts[1]);
    s.setBlockToLive(blockToLive);
    s.setMemberOnlyRead(read);
    s.setMemberOnlyWrite(write);
    if (endorsement !== undefined) {
      const ep = new fp.peer.ApplicationPolicy();
      ep.setSignaturePolicy(fp.common.SignaturePolicyEnvelope.deserializeBinary(signaturePolicyBytes(endorsement)));
      s.setEndorsementPolicy(ep);
    }
    const c = new fp.peer.CollectionConfig();
    c.setStaticCollectionConfig(s);
    return c;
  };
  const pkg = new fp.peer.CollectionConfigPackage();
  pkg.setConfigList([
    collection("assetCollection", "OR('Org1MSP.member', 'Org2MSP.member')", [1, 1], 1000000, true, true),
    collection("Org1MSPPrivateCollection", "OR('Org1MSP.member')", [0, 1], 3, true, false, "OR('Org1MSP.member')"),
  ]);
  return pkg.serializeBinary();
}

function failures(collections: unknown): string[] {
  try {
    parseCollections(collections as string);
  } catch (error) {
    assert.ok(error instanceof ValidationError);
    return error.failures.map((f) => `${f.property}: ${f.reason}`);
  }
  assert.fail("parsed");
}

describe("collections config: the peer CLI's --collections-config JSON (lifecycle/collections.ts)", () => {
  it("builds the CollectionConfigPackage the peer CLI sends for fabric-samples' collections, byte for byte", () => {
    const parsed = parseCollections(SAMPLE);
    assert.deepEqual(Buffer.from(lifecycleCodecs.CollectionConfigPackage.encode(parsed)), Buffer.from(samplePackage()));
  });

  it("fills the peer CLI's defaults: requiredPeerCount 0, maxPeerCount 1, blockToLive 0, members' flags false", () => {
    const [only] = parseCollections([{ name: "c1", policy: "OR('Org1MSP.member')" }]).config;
    assert.deepEqual(
      only?.staticCollectionConfig && {
        requiredPeerCount: only.staticCollectionConfig.requiredPeerCount,
        maximumPeerCount: only.staticCollectionConfig.maximumPeerCount,
        blockToLive: only.staticCollectionConfig.blockToLive,
        memberOnlyRead: only.staticCollectionConfig.memberOnlyRead,
      },
      { requiredPeerCount: 0, maximumPeerCount: 1, blockToLive: 0n, memberOnlyRead: false },
    );
  });

  it("prints a package back in the JSON form, every key written and policies canonical", () => {
    assert.deepEqual(printCollections(parseCollections(SAMPLE)), [
      {
        name: "assetCollection",
        policy: "OR('Org1MSP.member','Org2MSP.member')",
        requiredPeerCount: 1,
        maxPeerCount: 1,
        blockToLive: 1000000,
        memberOnlyRead: true,
        memberOnlyWrite: true,
      },
      {
        name: "Org1MSPPrivateCollection",
        policy: "OR('Org1MSP.member')",
        requiredPeerCount: 0,
        maxPeerCount: 1,
        blockToLive: 3,
        memberOnlyRead: true,
        memberOnlyWrite: false,
        endorsementPolicy: { signaturePolicy: "OR('Org1MSP.member')" },
      },
    ]);
    assert.deepEqual(printCollections(undefined), []);
  });

  it("keeps a collection's channel policy reference as its channelConfigPolicy", () => {
    const parsed = parseCollections([
      {
        name: "c",
        policy: "OR('A.member')",
        endorsementPolicy: { channelConfigPolicy: "/Channel/Application/Endorsement" },
      },
    ]);
    assert.deepEqual(printCollections(parsed)[0]?.endorsementPolicy, {
      channelConfigPolicy: "/Channel/Application/Endorsement",
    });
  });

  it("names every field that does not parse or that Fabric would refuse, before anything is sent", () => {
    assert.deepEqual(
      failures([
        { name: "_hidden", policy: "AND('Org1MSP.member','Org2MSP.member')", requiredPeerCount: 2, maxPeerCount: 1 },
        { name: "dup", policy: "OR('A.member'", MaxPeerCount: 3, blockToLive: -1, memberOnlyRead: "yes" },
        {
          name: "dup",
          policy: "OR('A.member')",
          color: "blue",
          endorsementPolicy: {
            signaturePolicy: "OR('A.peer')",
            channelConfigPolicy: "/Channel/Application/Endorsement",
          },
        },
        "c4",
      ]),
      [
        "collections[0].name: must be a name of letters, digits, '-' and '_' that does not begin with '_'",
        "collections[0].policy: must be an OR of the member principals, such as OR('Org1MSP.member','Org2MSP.member'), not AND('Org1MSP.member','Org2MSP.member')",
        "collections[0].maxPeerCount: (1) must not be less than requiredPeerCount (2)",
        "collections[1].MaxPeerCount: is spelled maxPeerCount",
        `collections[1].policy: at column 14 of "OR('A.member'": expected ',' or ')' after the first rule of OR, found the end of the policy`,
        "collections[1].blockToLive: must be a whole number from 0 to 9007199254740991",
        "collections[1].memberOnlyRead: must be true or false",
        "collections[2].color: is not a collection setting (known: name, policy, requiredPeerCount, maxPeerCount, blockToLive, memberOnlyRead, memberOnlyWrite, endorsementPolicy); the peer CLI would ignore it",
        "collections[2].name: 'dup' is also the name of collections[1]",
        "collections[2].endorsementPolicy: must set exactly one of signaturePolicy and channelConfigPolicy",
        "collections[3]: must be an object with name and policy",
      ],
    );
  });

  it("refuses text that is no JSON array, naming the field", () => {
    const [notJson, ...more] = failures("[{");
    assert.equal(more.length, 0);
    // JSON.parse's own words vary with the Node.js version.
    assert.match(
      notJson ?? "",
      /^collections: is not JSON \(.*position 2.*\): write the peer CLI's collections config, a JSON array$/,
    );
    assert.deepEqual(failures('{"name":"c"}'), [
      'collections: must be a JSON array of collections ([{ "name": …, "policy": … }])',
    ]);
  });
});
