/**
 * The five data sources, read with ids from the stack config. Read-only credentials are enough, which is what a
 * pull-request preview job has. Defaults are ids of the sandbox's fixture (`npm run sandbox`); against Google set
 * your own with `pulumi config set` (workforcePoolId, iamOperation, project, deployment, subscription, advertiserId,
 * creativeId).
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

const policy = opsledger.iam.getWorkforcePoolIamPolicyOutput({
  workforcePoolId: config.get("workforcePoolId") ?? "sandbox-contractors",
});
const operation = opsledger.iam.getOperationOutput({
  name: config.get("iamOperation") ?? "folders/200000000001/locations/global/operations/op-binding-created",
});
const deployment = opsledger.deploymentmanager.getDeploymentOutput({
  project: config.get("project") ?? "sandbox-project",
  deployment: config.get("deployment") ?? "web-stack",
});
const subscription = opsledger.workspaceevents.getSubscriptionOutput({
  name: config.get("subscription") ?? "subscriptions/chat-spaces-sandbox",
});
const creative = opsledger.displayvideo.getCreativeOutput({
  advertiserId: config.get("advertiserId") ?? "2001",
  creativeId: config.get("creativeId") ?? "7001",
});

export const workforcePoolEtag = policy.etag;
export const workforcePoolRoles = policy.bindings.apply((bindings) => bindings.map((b) => b.role ?? ""));
export const iamOperationDone = operation.done;
export const iamOperationResponseType = operation.apply((o) => (o.response?.["@type"] as string | undefined) ?? "");
export const deploymentOperationStatus = deployment.apply((d) => d.operation?.status ?? "");
export const deploymentLabels = deployment.apply((d) => (d.labels ?? []).map((l) => `${l.key ?? ""}=${l.value ?? ""}`));
export const subscriptionState = subscription.apply((s) => s.state ?? "");
export const subscriptionEventTypes = subscription.apply((s) => s.eventTypes ?? []);
export const creativeName = creative.apply((c) => c.displayName ?? "");
export const creativeType = creative.apply((c) => c.creativeType ?? "");
