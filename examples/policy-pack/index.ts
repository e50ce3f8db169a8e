/**
 * A policy pack for pulumi-opsledger stacks, written once for every face. @pulumi/policy's `validateResourceOfType`
 * and `remediateResourceOfType` match a resource of the class whether a TypeScript or JavaScript program declared it
 * (`pulumi-nodejs:dynamic/compute:FirewallPolicyMove`) or a YAML, Go or Python program through the plugin
 * (`opsledger:compute:FirewallPolicyMove`): the classes answer `isInstance` for both. `validateOpsLedgerResource`
 * (from `pulumi-opsledger/policy`) does the same with the inputs typed as the class's arguments.
 *   pulumi preview --policy-pack ../policy-pack
 */
import type * as pulumi from "@pulumi/pulumi";
import { PolicyPack, remediateResourceOfType, validateResourceOfType } from "@pulumi/policy";
import { compute, ledger } from "pulumi-opsledger";
import { validateOpsLedgerResource } from "pulumi-opsledger/policy";

/** The firewall policies that may sit at an organization's root. */
const ORGANIZATION_ROOT_ALLOW_LIST = ["700000000001"];

/**
 * A move's inputs: what `args.props` holds (@pulumi/policy types its first argument as the class's outputs, and the
 * inputs a policy checks are the arguments).
 */
type MoveInputs = pulumi.Unwrap<compute.FirewallPolicyMoveArgs>;

/** The stack of a resource, from its URN (`urn:pulumi:<stack>::<project>::<type>::<name>`). */
function stackOf(urn: string): string {
  return urn.split("::")[0]?.split(":").at(-1) ?? "";
}

new PolicyPack("opsledger", {
  policies: [
    {
      name: "org-root-moves-allow-listed",
      description: "A firewall policy moves to an organization's root only when it is on the allow-list.",
      enforcementLevel: "mandatory",
      validateResource: validateResourceOfType(compute.FirewallPolicyMove, (_move, args, reportViolation) => {
        const { firewallPolicy, parentId } = args.props as MoveInputs;
        if (parentId.startsWith("organizations/") && !ORGANIZATION_ROOT_ALLOW_LIST.includes(firewallPolicy)) {
          reportViolation(
            `firewall policy ${firewallPolicy} may not move to ${parentId}: only ${ORGANIZATION_ROOT_ALLOW_LIST.join(", ")} may sit at an organization's root`,
          );
        }
      }),
    },
    {
      name: "ledger-keys-by-reference",
      description:
        "A ledger identity signs through a key file, an environment variable, PKCS#11 or Cloud KMS, never a key held by value.",
      enforcementLevel: "mandatory",
      validateResource: validateOpsLedgerResource(ledger.LedgerTransaction, (props, _args, reportViolation) => {
        if (props.identity.privateKeyPem !== undefined) {
          reportViolation(
            `identity ${props.identity.mspId} holds its private key by value: use keyFile, keyEnv, pkcs11 or kms`,
          );
        }
      }),
    },
    {
      // Advisory; with `"enforcementLevel": "remediate"` in the pack's config it sets restoreOnDelete itself.
      name: "restore-on-delete-in-prod",
      description: "In a stack named prod, a firewall policy move restores the previous parent when it is deleted.",
      enforcementLevel: "advisory",
      validateResource: validateResourceOfType(compute.FirewallPolicyMove, (_move, args, reportViolation) => {
        if (stackOf(args.urn) === "prod" && (args.props as MoveInputs).restoreOnDelete !== true) {
          reportViolation(
            `set restoreOnDelete: true on ${args.name} in prod, so that destroying the stack moves the policy back`,
          );
        }
      }),
      remediateResource: remediateResourceOfType(compute.FirewallPolicyMove, (_move, args) =>
        stackOf(args.urn) === "prod" && (args.props as MoveInputs).restoreOnDelete !== true
          ? { ...args.props, restoreOnDelete: true }
          : undefined,
      ),
    },
  ],
});
