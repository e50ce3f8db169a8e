/**
 * Policy packs over the TypeScript SDK's classes (pulumi-opsledger/policy): every resource class the SDK exports is in
 * POLICY_RESOURCES, the one list whose type strings (both faces) the helpers match; and @pulumi/policy's own
 * validateResourceOfType and remediateResourceOfType, run through its real Analyze and Remediate handlers
 * (server.js), match each class on every face's type string, and no other class's. The registered type and
 * `isInstance` of real resources under mocks: test/unit/resources/provider-stubs.test.ts.
 */
import { strict as assert } from "node:assert";
import { createRequire } from "node:module";
import * as pulumi from "@pulumi/pulumi";
import * as analyzerproto from "@pulumi/pulumi/proto/analyzer_pb";
import { Struct } from "google-protobuf/google/protobuf/struct_pb";
import { remediateResourceOfType, validateResourceOfType } from "@pulumi/policy";
import type { EnforcementLevel, ResourceValidationPolicy } from "@pulumi/policy";
import * as opsledger from "../../../sdk";
import type { FirewallPolicyMove } from "../../../sdk/compute/firewall-policy-move";
import {
  POLICY_RESOURCES,
  faceTypesOf,
  isResourceOf,
  typeStringsOf,
  validateOpsLedgerResource,
} from "../../../sdk/policy";
import type { PolicyResourceArgs, PolicyResourceClass } from "../../../sdk/policy";

/** Every class the SDK's modules export that makes Pulumi resources. */
function resourceClasses(): { name: string; cls: unknown }[] {
  return Object.values(opsledger).flatMap((mod) =>
    typeof mod === "object"
      ? Object.entries(mod as Record<string, unknown>).flatMap(([name, v]) =>
          typeof v === "function" &&
          (v.prototype instanceof pulumi.CustomResource || v.prototype instanceof pulumi.ComponentResource)
            ? [{ name, cls: v }]
            : [],
        )
      : [],
  );
}

function args(type: string, props: Record<string, unknown>): PolicyResourceArgs {
  return { type, props, urn: `urn:pulumi:prod::p::${type}::r`, name: "r" };
}

type Rpc<R> = (call: { request: analyzerproto.AnalyzeRequest }, callback: (err: unknown, res?: R) => void) => void;
/** @pulumi/policy's handlers of the analyzer's Analyze and Remediate calls (exported by its server.js, untyped). */
const policyServer = createRequire(require.resolve("@pulumi/policy"))("./server") as {
  makeAnalyzeRpcFun(
    name: string,
    version: string,
    level: EnforcementLevel,
    policies: ResourceValidationPolicy[],
  ): Rpc<unknown>;
  makeRemediateRpcFun(
    name: string,
    version: string,
    level: EnforcementLevel,
    policies: ResourceValidationPolicy[],
  ): Rpc<unknown>;
};

/** The request the engine sends the policy pack for one resource of `type`. */
function analyzeRequest(type: string, props: Record<string, unknown>): analyzerproto.AnalyzeRequest {
  return new analyzerproto.AnalyzeRequest()
    .setType(type)
    .setName("r")
    .setUrn(`urn:pulumi:prod::p::${type}::r`)
    .setProperties(Struct.fromJavaScript(props as Record<string, never>))
    .setOptions(new analyzerproto.AnalyzerResourceOptions());
}

function call<R>(rpc: Rpc<unknown>, request: analyzerproto.AnalyzeRequest): Promise<R> {
  return new Promise((resolve, reject) => {
    rpc({ request }, (err, res) => {
      if (err !== undefined && err !== null) reject(err instanceof Error ? err : new Error(JSON.stringify(err)));
      else resolve(res as R);
    });
  });
}

/** Every type string a policy may be given: each class's on each face. */
const ALL_TYPES = [...new Set(POLICY_RESOURCES.flatMap(({ cls }) => typeStringsOf(cls)))];

describe("pulumi-opsledger/policy", () => {
  it("lists every resource class the SDK exports, none with a static __pulumiType", () => {
    const exported = resourceClasses();
    assert.deepEqual(exported.map((c) => c.name).sort(), [
      "ChaincodeApproval",
      "ChaincodeDefinition",
      "ChaincodeInstallation",
      "ChaincodePackage",
      "Channel",
      "ChannelAnchorPeers",
      "ChannelBatchSettings",
      "ChannelCapabilities",
      "ChannelOrganization",
      "ChannelPeer",
      "FirewallPolicyMove",
      "InventorySourceGroupDeletion",
      "LedgerTransaction",
      "LedgerTransactionSubmission",
      "LedgerTransactions",
      "OperationWait",
    ]);
    assert.deepEqual(
      exported.map((c) => c.cls).filter((c) => !POLICY_RESOURCES.some((r) => r.cls === c)),
      [],
      "a resource class missing from POLICY_RESOURCES",
    );
    // A static __pulumiType would make @pulumi/policy compare it alone, and never ask isInstance about the other face.
    assert.deepEqual(
      POLICY_RESOURCES.filter(({ cls }) => (cls as { __pulumiType?: unknown }).__pulumiType !== undefined).map(
        ({ cls }) => cls.name,
      ),
      [],
    );
  });

  it("names both faces' type strings of each class", () => {
    assert.deepEqual(faceTypesOf(opsledger.compute.FirewallPolicyMove), {
      typescript: ["pulumi-nodejs:dynamic/compute:FirewallPolicyMove"],
      plugin: ["opsledger:compute:FirewallPolicyMove"],
    });
    assert.deepEqual(faceTypesOf(opsledger.operations.OperationWait).plugin, ["opsledger:operations:OperationWait"]);
    assert.deepEqual(faceTypesOf(opsledger.ledger.LedgerTransactions), {
      typescript: ["pulumi-nodejs:dynamic/ledger:LedgerTransactions"],
      plugin: ["opsledger:ledger:LedgerTransactions"],
    });
    assert.deepEqual(faceTypesOf(opsledger.ledger.LedgerTransaction), {
      typescript: [
        "opsledger:ledger:LedgerTransactionComponent",
        "pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission",
      ],
      plugin: ["opsledger:ledger:LedgerTransaction"],
    });
    assert.deepEqual(faceTypesOf(opsledger.ledger.LedgerTransactionSubmission).plugin, []);
    const other: PolicyResourceClass = {
      name: "Other",
      faceTypes: { typescript: ["x:y:Z"], plugin: [] },
      isInstance: () => false,
    };
    assert.throws(() => faceTypesOf(other), /Other is not a resource class of pulumi-opsledger \(its type x:y:Z/);
  });

  for (const level of ["mandatory", "advisory"] as const) {
    it(`matches validateResourceOfType(<Class>) on every face's type string, ${level}, and no other class's`, async () => {
      for (const { cls } of POLICY_RESOURCES) {
        const analyze = policyServer.makeAnalyzeRpcFun("pack", "1.0.0", "advisory", [
          {
            name: "seen",
            description: "reports each resource it is run on",
            enforcementLevel: level,
            validateResource: validateResourceOfType(cls as unknown as typeof FirewallPolicyMove, (_p, a, report) => {
              report(`${cls.name} saw ${a.type}`);
            }),
          },
        ]);
        const matched: string[] = [];
        for (const type of ALL_TYPES) {
          const res = await call<analyzerproto.AnalyzeResponse>(analyze, analyzeRequest(type, { parentId: "x" }));
          for (const d of res.getDiagnosticsList()) {
            assert.equal(d.getMessage(), `reports each resource it is run on\n${cls.name} saw ${type}`);
            assert.equal(
              d.getEnforcementlevel(),
              level === "mandatory"
                ? analyzerproto.EnforcementLevel.MANDATORY
                : analyzerproto.EnforcementLevel.ADVISORY,
            );
            matched.push(type);
          }
        }
        assert.deepEqual(matched, [...typeStringsOf(cls)], cls.name);
      }
    });
  }

  it("matches remediateResourceOfType(<Class>) on every face's type string, and no other class's", async () => {
    for (const { cls } of POLICY_RESOURCES) {
      const remediate = policyServer.makeRemediateRpcFun("pack", "1.0.0", "remediate", [
        {
          name: "fix",
          description: "sets restoreOnDelete",
          enforcementLevel: "remediate",
          remediateResource: remediateResourceOfType(cls as unknown as typeof FirewallPolicyMove, (_p, a) => ({
            ...a.props,
            restoreOnDelete: true,
          })),
        },
      ]);
      const remediated: string[] = [];
      for (const type of ALL_TYPES) {
        const res = await call<analyzerproto.RemediateResponse>(remediate, analyzeRequest(type, { parentId: "x" }));
        for (const r of res.getRemediationsList()) {
          assert.deepEqual(r.getProperties()?.toJavaScript(), { parentId: "x", restoreOnDelete: true });
          remediated.push(type);
        }
      }
      assert.deepEqual(remediated, [...typeStringsOf(cls)], cls.name);
    }
  });

  it("validateOpsLedgerResource runs on both faces, without the __ plumbing, and on nothing else", async () => {
    const seen: [string, Record<string, unknown>][] = [];
    const policy = validateOpsLedgerResource(opsledger.compute.FirewallPolicyMove, (props, a) => {
      seen.push([a.type, props]);
    });
    const props = { firewallPolicy: "1", parentId: "folders/2", __provider: "exports.handler = ..." };
    for (const type of [
      "pulumi-nodejs:dynamic/compute:FirewallPolicyMove",
      "opsledger:compute:FirewallPolicyMove",
      "opsledger:operations:OperationWait",
    ]) {
      await policy(args(type, props), () => undefined);
    }
    assert.deepEqual(seen, [
      ["pulumi-nodejs:dynamic/compute:FirewallPolicyMove", { firewallPolicy: "1", parentId: "folders/2" }],
      ["opsledger:compute:FirewallPolicyMove", { firewallPolicy: "1", parentId: "folders/2" }],
    ]);
    assert.equal(
      isResourceOf(opsledger.ledger.LedgerTransaction, { type: "opsledger:ledger:LedgerTransaction" }),
      true,
    );
  });
});
