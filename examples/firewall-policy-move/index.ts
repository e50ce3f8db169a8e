/**
 * Keeps one organization firewall policy under a chosen folder or organization. Changing `parentId` moves the policy
 * in place (one `firewallPolicies.move`, idempotent by requestId); `pulumi refresh` shows an out-of-band move as drift.
 * Defaults are ids of the sandbox's fixture (`npm run sandbox`); against Google set your own:
 *   pulumi config set firewallPolicy 123456789012
 *   pulumi config set parentId folders/345678901234
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

const move = new opsledger.compute.FirewallPolicyMove("edge-policy", {
  firewallPolicy: config.get("firewallPolicy") ?? "700000000002",
  parentId: config.get("parentId") ?? "folders/200000000003",
  restoreOnDelete: config.getBoolean("restoreOnDelete") ?? false,
  timeouts: { create: config.get("timeout") ?? "20m", update: config.get("timeout") ?? "20m" },
});

export const parent = move.parent;
export const previousParent = move.previousParent;
export const operation = move.operation;
