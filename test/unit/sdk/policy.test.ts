/**
 * Policy packs over the TypeScript SDK's classes (pulumi-opsledger/policy): every resource class the SDK exports
 * carries `__pulumiType`, so @pulumi/policy's validateResourceOfType matches it, and is in POLICY_RESOURCES, the one
 * list whose type strings (both faces) the helpers match.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { validateResourceOfType } from "@pulumi/policy";
import * as opsledger from "../../../sdk";
import { POLICY_RESOURCES, faceTypesOf, isResourceOf, validateOpsLedgerResource } from "../../../sdk/policy";
import type { PolicyResourceArgs } from "../../../sdk/policy";

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

function args(type: string, props: Record<string, unknown>): PolicyResourceArgs & { isType(c: unknown): boolean } {
  return {
    type,
    props,
    urn: `urn:pulumi:prod::p::${type}::r`,
    name: "r",
    isType: (c) => (c as { __pulumiType?: string }).__pulumiType === type,
  };
}

describe("pulumi-opsledger/policy", () => {
  it("lists every resource class the SDK exports, each with its __pulumiType", () => {
    const exported = resourceClasses();
    assert.deepEqual(exported.map((c) => c.name).sort(), [
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
    for (const { cls } of POLICY_RESOURCES) assert.match(cls.__pulumiType, /^(pulumi-nodejs:dynamic\/|opsledger:)/);
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
    assert.throws(() => faceTypesOf({ name: "Other", __pulumiType: "x:y:Z" }), /Other is not a resource class/);
  });

  it("matches validateResourceOfType(<Class>) for the TypeScript face of every class", () => {
    for (const { cls } of POLICY_RESOURCES) {
      const seen: string[] = [];
      const policy = validateResourceOfType(cls as never, (_props, a) => {
        seen.push(a.type);
      });
      void policy(args(cls.__pulumiType, {}) as never, () => undefined);
      assert.deepEqual(seen, [cls.__pulumiType], cls.name);
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
