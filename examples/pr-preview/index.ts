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

// A secret the stack keeps (`pulumi config set --secret notifyToken <token>`, say the token of the chat webhook the
// deploy job announces changes on): encrypted in the stack's settings and state, and never shown in a preview
// comment, where the output derived from it prints as [secret].
const notifyToken = config.getSecret("notifyToken");

export const parent = move.parent;
export const contractorRoles = contractors.bindings.apply((bindings) => bindings.map((b) => b.role ?? ""));
export const notifyWebhook =
  notifyToken === undefined ? undefined : pulumi.interpolate`https://chat.example.com/hooks/${notifyToken}`;
