/**
 * A policy pack for pulumi-opsledger stacks, written once for every face: `validateOpsLedgerResource` (from
 * `pulumi-opsledger/policy`) matches a resource whether a TypeScript program declared it
 * (`pulumi-nodejs:dynamic/compute:FirewallPolicyMove`) or a YAML, Go or Python program through the plugin
 * (`opsledger:compute:FirewallPolicyMove`), with its inputs typed as the class's arguments.
 *   pulumi preview --policy-pack ../policy-pack
 */
import { PolicyPack } from "@pulumi/policy";
import { compute, ledger } from "pulumi-opsledger";
import { validateOpsLedgerResource } from "pulumi-opsledger/policy";

/** The firewall policies that may sit at an organization's root. */
const ORGANIZATION_ROOT_ALLOW_LIST = ["700000000001"];

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
      validateResource: validateOpsLedgerResource(compute.FirewallPolicyMove, (props, _args, reportViolation) => {
        if (
          props.parentId.startsWith("organizations/") &&
          !ORGANIZATION_ROOT_ALLOW_LIST.includes(props.firewallPolicy)
        ) {
          reportViolation(
            `firewall policy ${props.firewallPolicy} may not move to ${props.parentId}: only ${ORGANIZATION_ROOT_ALLOW_LIST.join(", ")} may sit at an organization's root`,
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
      name: "restore-on-delete-in-prod",
      description: "In a stack named prod, a firewall policy move restores the previous parent when it is deleted.",
      enforcementLevel: "advisory",
      validateResource: validateOpsLedgerResource(compute.FirewallPolicyMove, (props, args, reportViolation) => {
        if (stackOf(args.urn) === "prod" && props.restoreOnDelete !== true) {
          reportViolation(
            `set restoreOnDelete: true on ${args.name} in prod, so that destroying the stack moves the policy back`,
          );
        }
      }),
    },
  ],
});
