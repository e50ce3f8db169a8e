/**
 * The program a pull request changes: one firewall policy kept under a folder, and the IAM policy of a workforce pool
 * read for the record. A PR that edits `parentId` (in Pulumi.<stack>.yaml) shows in its preview comment as one changed
 * line, `~ parentId: "folders/…" => "folders/…"`. Defaults are ids of the sandbox's fixture (`npm run sandbox`).
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

const move = new opsledger.compute.FirewallPolicyMove("edge-policy", {
  firewallPolicy: config.get("firewallPolicy") ?? "700000000002",
  parentId: config.get("parentId") ?? "folders/200000000003",
});

const contractors = opsledger.iam.getWorkforcePoolIamPolicyOutput({
  workforcePoolId: config.get("workforcePoolId") ?? "sandbox-contractors",
});

export const parent = move.parent;
export const contractorRoles = contractors.bindings.apply((bindings) => bindings.map((b) => b.role ?? ""));
