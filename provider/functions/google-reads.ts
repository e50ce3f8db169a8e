/**
 * The data sources' logic, shared by both faces: the TypeScript SDK's functions (sdk/<module>/get-*.ts, run in the
 * program process with the program's credentials) and the resource plugin's invokes (provider/plugin/, run in the
 * plugin with its provider's settings). Each takes the endpoint caller of its face and the plain arguments.
 */
import type { Creative, Deployment, EndpointId, EndpointParams, EndpointResult, Policy, Subscription } from "../google";
import type { RpcStatus } from "../errors/operations/operation-failure-types";
import type { LongRunningOperation } from "../operations/operation-types";

/** Calls one endpoint of the table (a GoogleClient's `call`, or the SDK's program-side `callEndpoint`). */
export type EndpointCaller = <E extends EndpointId>(id: E, params: EndpointParams<E>) => Promise<EndpointResult<E>>;

/** iam:getWorkforcePoolIamPolicy's result. */
export interface WorkforcePoolIamPolicy {
  readonly resource: string;
  readonly version: number;
  readonly bindings: NonNullable<Policy["bindings"]>;
  readonly auditConfigs: NonNullable<Policy["auditConfigs"]>;
  readonly etag: string;
  readonly policyData: string;
}

/** Reads the IAM policy of a workforce pool (iam v1 `workforcePools.getIamPolicy`). */
export async function readWorkforcePoolIamPolicy(
  call: EndpointCaller,
  args: { workforcePoolId: string; location?: string | undefined; requestedPolicyVersion?: number | undefined },
): Promise<WorkforcePoolIamPolicy> {
  const resource = `locations/${args.location ?? "global"}/workforcePools/${args.workforcePoolId}`;
  const policy = await call("iam.workforcePools.getIamPolicy", {
    resource,
    options: { requestedPolicyVersion: args.requestedPolicyVersion ?? 3 },
  });
  return {
    resource,
    version: policy.version ?? 0,
    bindings: policy.bindings ?? [],
    auditConfigs: policy.auditConfigs ?? [],
    etag: policy.etag ?? "",
    policyData: JSON.stringify(policy),
  };
}

/** iam:getOperation's result. */
export interface IamOperation {
  readonly name: string;
  readonly done: boolean;
  readonly metadata: Record<string, unknown>;
  readonly error?: RpcStatus;
  readonly response?: Record<string, unknown>;
}

/** Reads the latest state of an IAM v3beta long-running operation under a folder location. */
export async function readIamOperation(call: EndpointCaller, args: { name: string }): Promise<IamOperation> {
  const op: LongRunningOperation = await call("iam.operations.get", { name: args.name });
  return {
    name: op.name ?? args.name,
    done: op.done ?? false,
    metadata: op.metadata ?? {},
    ...(op.error ? { error: op.error } : {}),
    ...(op.response ? { response: op.response } : {}),
  };
}

/** Reads one Deployment Manager deployment (deploymentmanager v2beta `deployments.get`). */
export function readDeployment(
  call: EndpointCaller,
  args: { project: string; deployment: string },
): Promise<Deployment> {
  return call("deploymentmanager.deployments.get", { project: args.project, deployment: args.deployment });
}

/** Reads one Workspace Events subscription (v1beta `subscriptions.get`). */
export function readSubscription(call: EndpointCaller, args: { name: string }): Promise<Subscription> {
  return call("workspaceevents.subscriptions.get", { name: args.name });
}

/** Reads one Display & Video 360 creative (`advertisers.creatives.get`). */
export function readCreative(
  call: EndpointCaller,
  args: { advertiserId: string; creativeId: string; apiVersion?: string | undefined },
): Promise<Creative> {
  return call("displayvideo.advertisers.creatives.get", {
    advertiserId: args.advertiserId,
    creativeId: args.creativeId,
    ...(args.apiVersion !== undefined ? { apiVersion: args.apiVersion } : {}),
  });
}
