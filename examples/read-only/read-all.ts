/**
 * The five data sources, read with ids from the stack config. Defaults match the sandbox's fixture, so `npm run demo`
 * and the e2e tests run it unchanged; against real Google set your own ids:
 *   pulumi config set workforcePoolId my-pool   (and iamOperation, project, deployment, subscription, advertiserId, creativeId)
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

export async function readAll(config: pulumi.Config = new pulumi.Config()): Promise<Record<string, unknown>> {
  const policy = await opsledger.iam.getWorkforcePoolIamPolicy({
    workforcePoolId: config.get("workforcePoolId") ?? "sandbox-contractors",
  });
  const operation = opsledger.iam.getOperationOutput({
    name: config.get("iamOperation") ?? "folders/200000000001/locations/global/operations/op-binding-created",
  });
  const deployment = await opsledger.deploymentmanager.getDeployment({
    project: config.get("project") ?? "sandbox-project",
    deployment: config.get("deployment") ?? "web-stack",
  });
  const subscription = opsledger.workspaceevents.getSubscriptionOutput({
    name: config.get("subscription") ?? "subscriptions/chat-spaces-sandbox",
  });
  const creative = await opsledger.displayvideo.getCreative({
    advertiserId: config.get("advertiserId") ?? "2001",
    creativeId: config.get("creativeId") ?? "7001",
  });
  return {
    workforcePoolEtag: policy.etag,
    workforcePoolRoles: policy.bindings.map((b) => b.role ?? ""),
    iamOperationDone: operation.done,
    iamOperationResponseType: operation.apply((o) => (o.response?.["@type"] as string | undefined) ?? ""),
    deploymentOperationStatus: deployment.operation?.status ?? "",
    deploymentLabels: (deployment.labels ?? []).map((l) => `${l.key ?? ""}=${l.value ?? ""}`),
    subscriptionState: subscription.apply((s) => s.state ?? ""),
    subscriptionEventTypes: subscription.apply((s) => s.eventTypes ?? []),
    creativeName: creative.displayName ?? "",
    creativeType: creative.creativeType ?? "",
  };
}
