/**
 * Read-only routes over seeded resources: Deployment Manager v2beta deployments.get and Workspace Events v1beta
 * subscriptions.get.
 */
import { invalidField, notFound } from "./google-errors";
import { ok, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { DEPLOYMENT_MANAGER_READ_SCOPES, WORKSPACE_EVENTS_GET_SCOPES } from "./scopes";
import type { SeedDeployment } from "./seed-types";
import type { Deployment } from "./wire";

const PROJECT_PATTERN =
  "(?:(?:[-a-z0-9]{1,63}\\.)*(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?):)?(?:[0-9]{1,19}|(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?))";
const DEPLOYMENT_PATTERN = "[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?";
const SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{1,256}$/;

export function deploymentView(d: SeedDeployment, dmRoot: string): Deployment {
  const base = `${dmRoot}/deploymentmanager/v2beta/projects/${d.project}/global`;
  const op = d.lastOperation;
  const view: Deployment = {
    id: d.id,
    name: d.name,
    ...(d.description === undefined ? {} : { description: d.description }),
    operation: {
      kind: "deploymentmanager#operation",
      id: op.id,
      name: op.name,
      operationType: op.operationType,
      targetLink: `${base}/deployments/${d.name}`,
      targetId: d.id,
      status: "DONE",
      user: op.user,
      progress: 100,
      insertTime: op.insertTime,
      startTime: op.startTime,
      endTime: op.endTime,
      selfLink: `${base}/operations/${op.name}`,
    },
    fingerprint: d.fingerprint,
    ...(d.manifest === undefined ? {} : { manifest: `${base}/deployments/${d.name}/manifests/${d.manifest}` }),
    insertTime: d.insertTime,
    ...(d.updateTime === undefined ? {} : { updateTime: d.updateTime }),
    selfLink: `${base}/deployments/${d.name}`,
  };
  if (d.labels.length > 0) view.labels = d.labels.map((l) => ({ key: l.key, value: l.value }));
  return view;
}

function getDeployment(context: RequestContext): RouteResult {
  const { project, deployment } = context.params as { project: string; deployment: string };
  if (!new RegExp(`^${PROJECT_PATTERN}$`).test(project)) {
    return invalidField(
      "project",
      `Invalid value for field 'project': '${project}'. Must be a match of regex '${PROJECT_PATTERN}'`,
      "invalid",
    );
  }
  if (!new RegExp(`^${DEPLOYMENT_PATTERN}$`).test(deployment)) {
    return invalidField(
      "deployment",
      `Invalid value for field 'deployment': '${deployment}'. Must be a match of regex '${DEPLOYMENT_PATTERN}'`,
      "invalid",
    );
  }
  const found = context.state.deployment(project, deployment);
  if (found === undefined) {
    return notFound(`The object 'projects/${project}/global/deployments/${deployment}' is not found.`);
  }
  return ok(deploymentView(found, context.env.endpoints.deploymentManager));
}

function getSubscription(context: RequestContext): RouteResult {
  const id = context.params["subscription"] ?? "";
  const name = `subscriptions/${id}`;
  if (!SUBSCRIPTION_ID.test(id)) {
    return invalidField(
      "name",
      `Invalid resource name '${name}': the subscription id may contain only letters, digits, '-' and '_'.`,
    );
  }
  const found = context.state.subscription(name);
  if (found === undefined) return notFound(`Resource '${name}' was not found.`);
  return ok(structuredClone(found));
}

export const RESOURCE_ROUTES: readonly Route[] = [
  {
    id: "deploymentmanager.deployments.get",
    service: "deploymentManager",
    method: "GET",
    template: "/deploymentmanager/v2beta/projects/{project}/global/deployments/{deployment}",
    api: () => ({
      service: "deploymentmanager.googleapis.com",
      method: "deploymentmanager.v2beta.DeploymentsService.Get",
    }),
    scopes: DEPLOYMENT_MANAGER_READ_SCOPES,
    body: "empty",
    queryParams: ["header.bypassBillingFilter"],
    invalidReason: "invalid",
    handle: getDeployment,
  },
  {
    id: "workspaceevents.subscriptions.get",
    service: "workspaceEvents",
    method: "GET",
    template: "/v1beta/subscriptions/{subscription}",
    api: () => ({
      service: "workspaceevents.googleapis.com",
      method: "google.apps.events.subscriptions.v1beta.SubscriptionsService.GetSubscription",
    }),
    scopes: WORKSPACE_EVENTS_GET_SCOPES,
    body: "empty",
    queryParams: [],
    invalidReason: "badRequest",
    handle: getSubscription,
  },
];
