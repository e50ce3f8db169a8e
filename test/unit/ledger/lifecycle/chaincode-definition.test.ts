import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import { ValidationError } from "../../../../provider/errors/validation-error";
import {
  compareDefinitions,
  prepareDefinition,
  sourceOfPackageId,
  viewOf,
} from "../../../../provider/ledger/lifecycle/chaincode-definition";
import { lifecycleCodecs } from "../../../../provider/ledger/lifecycle/lifecycle-codecs";
import { endorsementPolicyBytes } from "../../../../provider/ledger/lifecycle/application-policy";

const POLICY = "AND('Org1MSP.peer','Org2MSP.peer')";
const COLLECTIONS = [{ name: "private", policy: "OR('Org1MSP.member','Org2MSP.member')", blockToLive: 10 }];

describe("chaincode definitions (lifecycle/chaincode-definition.ts) and the _lifecycle messages", () => {
  it("encodes ApproveChaincodeDefinitionForMyOrgArgs as the peer CLI does (fabric-protos), byte for byte", () => {
    const prepared = prepareDefinition({
      name: "lc",
      version: "1.0",
      sequence: 2,
      endorsementPolicy: POLICY,
      collections: COLLECTIONS,
      initRequired: true,
    });
    const ours = lifecycleCodecs.ApproveChaincodeDefinitionForMyOrgArgs.encode({
      ...prepared.args,
      source: sourceOfPackageId("lc_1.0:" + "ab".repeat(32)),
    });
    const theirs = new fp.peer.lifecycle.ApproveChaincodeDefinitionForMyOrgArgs();
    theirs.setSequence(2);
    theirs.setName("lc");
    theirs.setVersion("1.0");
    theirs.setValidationParameter(endorsementPolicyBytes(POLICY));
    theirs.setCollections(
      fp.peer.CollectionConfigPackage.deserializeBinary(
        lifecycleCodecs.CollectionConfigPackage.encode(prepared.args.collections ?? { config: [] }),
      ),
    );
    theirs.setInitRequired(true);
    const local = new fp.peer.lifecycle.ChaincodeSource.Local();
    local.setPackageId("lc_1.0:" + "ab".repeat(32));
    const source = new fp.peer.lifecycle.ChaincodeSource();
    source.setLocalPackage(local);
    theirs.setSource(source);
    assert.deepEqual(Buffer.from(ours), Buffer.from(theirs.serializeBinary()));
    const unavailable = lifecycleCodecs.ApproveChaincodeDefinitionForMyOrgArgs.encode({
      ...prepared.args,
      source: sourceOfPackageId(undefined),
    });
    assert.equal(
      fp.peer.lifecycle.ApproveChaincodeDefinitionForMyOrgArgs.deserializeBinary(unavailable)
        .getSource()
        ?.hasUnavailable(),
      true,
    );
  });

  it("decodes Fabric's maps: QueryInstalledChaincodes' references and CheckCommitReadiness' approvals", () => {
    const installed = new fp.peer.lifecycle.QueryInstalledChaincodesResult();
    const one = new fp.peer.lifecycle.QueryInstalledChaincodesResult.InstalledChaincode();
    one.setPackageId("lc_1.0:" + "cd".repeat(32));
    one.setLabel("lc_1.0");
    const references = new fp.peer.lifecycle.QueryInstalledChaincodesResult.References();
    const chaincode = new fp.peer.lifecycle.QueryInstalledChaincodesResult.Chaincode();
    chaincode.setName("lc");
    chaincode.setVersion("1.0");
    references.setChaincodesList([chaincode]);
    one.getReferencesMap().set("opsledger", references);
    installed.setInstalledChaincodesList([one]);
    assert.deepEqual(lifecycleCodecs.QueryInstalledChaincodesResult.decode(installed.serializeBinary()), {
      installedChaincodes: [
        {
          packageId: "lc_1.0:" + "cd".repeat(32),
          label: "lc_1.0",
          references: [{ key: "opsledger", value: { chaincodes: [{ name: "lc", version: "1.0" }] } }],
        },
      ],
    });
    const readiness = new fp.peer.lifecycle.CheckCommitReadinessResult();
    readiness.getApprovalsMap().set("Org1MSP", true);
    readiness.getApprovalsMap().set("Org2MSP", false);
    assert.deepEqual(lifecycleCodecs.CheckCommitReadinessResult.decode(readiness.serializeBinary()).approvals, [
      { key: "Org1MSP", value: true },
      { key: "Org2MSP", value: false },
    ]);
  });

  it("sends what was written and views it with Fabric's defaults: the channel's policy, escc and vscc", () => {
    const prepared = prepareDefinition({ name: "lc", version: "1.0", sequence: 1 });
    assert.deepEqual(
      [prepared.args.validationParameter.length, prepared.args.endorsementPlugin, prepared.args.collections],
      [0, "", undefined],
    );
    assert.deepEqual(
      {
        endorsementPolicy: prepared.view.endorsementPolicy,
        collections: prepared.view.collections,
        plugins: [prepared.view.endorsementPlugin, prepared.view.validationPlugin],
      },
      { endorsementPolicy: "/Channel/Application/Endorsement", collections: [], plugins: ["escc", "vscc"] },
    );
  });

  it("compares definitions field by field in text form, the policy also by bytes", () => {
    const declared = prepareDefinition({ name: "lc", version: "2.0", sequence: 2, endorsementPolicy: POLICY }).view;
    const sameText = viewOf("lc", {
      sequence: 2n,
      version: "2.0",
      endorsementPlugin: "escc",
      validationPlugin: "vscc",
      validationParameter: endorsementPolicyBytes("and('Org1MSP.peer', 'Org2MSP.peer')"),
      initRequired: false,
    });
    assert.deepEqual(compareDefinitions(declared, sameText), []);
    const drifted = viewOf("lc", {
      sequence: 3n,
      version: "2.0",
      endorsementPlugin: "",
      validationPlugin: "",
      validationParameter: endorsementPolicyBytes("OR('Org1MSP.peer','Org2MSP.peer')"),
      collections: lifecycleCodecs.CollectionConfigPackage.decode(
        lifecycleCodecs.CollectionConfigPackage.encode(
          prepareDefinition({ name: "x", version: "1", sequence: 1, collections: COLLECTIONS }).args.collections ?? {
            config: [],
          },
        ),
      ),
      initRequired: true,
    });
    assert.deepEqual(
      compareDefinitions({ ...declared, packageId: "a" }, { ...drifted, packageId: "b" }).map((d) => [
        d.field,
        d.declared,
        d.actual,
      ]),
      [
        ["sequence", "2", "3"],
        ["endorsementPolicy", POLICY, "OR('Org1MSP.peer','Org2MSP.peer')"],
        [
          "collections",
          "[]",
          JSON.stringify([
            {
              name: "private",
              policy: "OR('Org1MSP.member','Org2MSP.member')",
              requiredPeerCount: 0,
              maxPeerCount: 1,
              blockToLive: 10,
              memberOnlyRead: false,
              memberOnlyWrite: false,
            },
          ]),
        ],
        ["initRequired", "false", "true"],
        ["packageId", "a", "b"],
      ],
    );
  });

  it("reports a policy with the same text but other bytes as encoded differently (another tool's numbering)", () => {
    const declared = prepareDefinition({
      name: "lc",
      version: "1",
      sequence: 1,
      endorsementPolicy: "OR('A.peer','A.peer')",
    }).view;
    // One shared identity for both rules: the text prints alike, the bytes Fabric compares do not.
    const role = new fp.msp.MSPRole();
    role.setMspIdentifier("A");
    role.setRole(fp.msp.MSPRole.MSPRoleType.PEER);
    const principal = new fp.msp.MSPPrincipal();
    principal.setPrincipal(role.serializeBinary());
    const rule = (i: number) => {
      const p = new fp.common.SignaturePolicy();
      p.setSignedBy(i);
      return p;
    };
    const gate = new fp.common.SignaturePolicy.NOutOf();
    gate.setN(1);
    gate.setRulesList([rule(0), rule(0)]);
    const root = new fp.common.SignaturePolicy();
    root.setNOutOf(gate);
    const envelope = new fp.common.SignaturePolicyEnvelope();
    envelope.setRule(root);
    envelope.setIdentitiesList([principal]);
    const policy = new fp.peer.ApplicationPolicy();
    policy.setSignaturePolicy(envelope);
    const actual = viewOf("lc", {
      sequence: 1n,
      version: "1",
      endorsementPlugin: "",
      validationPlugin: "",
      validationParameter: policy.serializeBinary(),
      initRequired: false,
    });
    assert.deepEqual(compareDefinitions(declared, actual), [
      {
        field: "endorsementPolicy",
        declared: "OR('A.peer','A.peer')",
        actual: "OR('A.peer','A.peer') (encoded differently)",
      },
    ]);
  });

  it("refuses a bad definition with every field named, policy and collections included, before anything is sent", () => {
    assert.throws(
      () =>
        prepareDefinition({
          name: "qscc",
          version: "1.0 beta",
          sequence: 0,
          endorsementPolicy: "AND('Org1MSP.peer'",
          collections: '[{"name":"a"}]',
          validationPlugin: " ",
        }),
      (error: unknown) =>
        error instanceof ValidationError &&
        JSON.stringify(error.failures.map((f) => f.property)) ===
          JSON.stringify([
            "name",
            "version",
            "sequence",
            "endorsementPolicy",
            "collections[0].policy",
            "validationPlugin",
          ]),
    );
    assert.throws(
      () => prepareDefinition({ name: "my-cc", version: "1", sequence: 1.5 }),
      (error: unknown) =>
        error instanceof ValidationError &&
        error.message ===
          "ChaincodeDefinition: invalid input: sequence: 1.5 must be a whole number from 1 (the first definition)",
    );
  });
});
