/**
 * The data sources' logic, shared by both faces: the TypeScript SDK's functions (sdk/<module>/get-*.ts, run in the
 * program process with the program's credentials) and the resource plugin's invokes (provider/plugin/, run in the
 * plugin with its provider's settings). Each takes the endpoint caller of its face and the plain arguments.
 * Each data source's arguments and result are declared here once, under the names the SDK exports: the SDK re-exports
 * them, maps the arguments to its `…OutputArgs`, and scripts/gen-schema.ts reads their doc comments into the schema.
 */
import type { Creative, Deployment, EndpointId, EndpointParams, EndpointResult, Policy, Subscription } from "../google";
import type { RpcStatus } from "../errors/operations/operation-failure-types";
import type { LongRunningOperation } from "../operations/operation-types";

/** Calls one endpoint of the table (a GoogleClient's `call`, or the SDK's program-side `callEndpoint`). */
export type EndpointCaller = <E extends EndpointId>(id: E, params: EndpointParams<E>) => Promise<EndpointResult<E>>;

/** iam:getWorkforcePoolIamPolicy's arguments. */
export interface GetWorkforcePoolIamPolicyArgs {
  /** The pool id (the last segment of locations/<location>/workforcePools/<id>). */
  workforcePoolId: string;
  /** @default "global" */
  location?: string;
  /** 0, 1 or 3; request 3 to receive conditional bindings. @default 3 */
  requestedPolicyVersion?: number;
}

/** iam:getWorkforcePoolIamPolicy's result. */
export interface GetWorkforcePoolIamPolicyResult {
  /** locations/<location>/workforcePools/<id> */
  readonly resource: string;
  readonly version: number;
  readonly bindings: NonNullable<Policy["bindings"]>;
  readonly auditConfigs: NonNullable<Policy["auditConfigs"]>;
  readonly etag: string;
  /** The policy as JSON text, as pulumi-gcp's policyData. */
  readonly policyData: string;
}

/** Reads the IAM policy of a workforce pool (iam v1 `workforcePools.getIamPolicy`). */
export async function readWorkforcePoolIamPolicy(
  call: EndpointCaller,
  args: GetWorkforcePoolIamPolicyArgs,
): Promise<GetWorkforcePoolIamPolicyResult> {
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

/** iam:getOperation's arguments. */
export interface GetOperationArgs {
  /** The operation's full name: folders/<id>/locations/<location>/operations/<id> (IAM v3beta). */
  name: string;
}

/** iam:getOperation's result. */
export interface GetOperationResult {
  readonly name: string;
  readonly done: boolean;
  /** The metadata (google.iam.v3beta.OperationMetadata), with its `@type`. */
  readonly metadata: Record<string, unknown>;
  /** Set when the operation failed. */
  readonly error?: RpcStatus;
  /** Set when the operation succeeded, with its `@type`. */
  readonly response?: Record<string, unknown>;
}

/** Reads the latest state of an IAM v3beta long-running operation under a folder location. */
export async function readIamOperation(call: EndpointCaller, args: GetOperationArgs): Promise<GetOperationResult> {
  const op: LongRunningOperation = await call("iam.operations.get", { name: args.name });
  return {
    name: op.name ?? args.name,
    done: op.done ?? false,
    metadata: op.metadata ?? {},
    ...(op.error ? { error: op.error } : {}),
    ...(op.response ? { response: op.response } : {}),
  };
}

/** deploymentmanager:getDeployment's arguments. */
export interface GetDeploymentArgs {
  /** The project id (or number). */
  project: string;
  /** The deployment name (RFC 1035). */
  deployment: string;
}

/** A Deployment Manager v2beta deployment, as the API returns it (labels are a list of {key, value}). */
export type GetDeploymentResult = Readonly<Deployment>;

/** Reads one Deployment Manager deployment (deploymentmanager v2beta `deployments.get`). */
export function readDeployment(call: EndpointCaller, args: GetDeploymentArgs): Promise<GetDeploymentResult> {
  return call("deploymentmanager.deployments.get", { project: args.project, deployment: args.deployment });
}

/** workspaceevents:getSubscription's arguments. */
export interface GetSubscriptionArgs {
  /** The subscription's resource name: subscriptions/<id>. */
  name: string;
}

/** A Google Workspace Events v1beta subscription (Developer Preview API). */
export type GetSubscriptionResult = Readonly<Subscription>;

/** Reads one Workspace Events subscription (v1beta `subscriptions.get`). */
export function readSubscription(call: EndpointCaller, args: GetSubscriptionArgs): Promise<GetSubscriptionResult> {
  return call("workspaceevents.subscriptions.get", { name: args.name });
}

/** displayvideo:getCreative's arguments. */
export interface GetCreativeArgs {
  /** The advertiser owning the creative (int64 as a decimal string). */
  advertiserId: string;
  /** The creative id (int64 as a decimal string). */
  creativeId: string;
  /** Display & Video 360 API version. @default opsledger:displayVideoApiVersion, else "v3" (sunset by Google: prefer "v4") */
  apiVersion?: string;
}

/** A Display & Video 360 creative, as the API returns it. */
export type GetCreativeResult = Readonly<Creative>;

/** Reads one Display & Video 360 creative (`advertisers.creatives.get`). */
export function readCreative(call: EndpointCaller, args: GetCreativeArgs): Promise<GetCreativeResult> {
  return call("displayvideo.advertisers.creatives.get", {
    advertiserId: args.advertiserId,
    creativeId: args.creativeId,
    ...(args.apiVersion !== undefined ? { apiVersion: args.apiVersion } : {}),
  });
}
