import * as pulumi from "@pulumi/pulumi";
import { endpointCaller } from "../program-client";
import { readOrInvokeMocks } from "../under-mocks";
import type { InvokeOptions } from "../provider";
import { readDeployment } from "../../provider/functions/google-reads";
import type { Deployment } from "../../provider/google";

export interface GetDeploymentArgs {
  /** The project id (or number). */
  project: string;
  /** The deployment name (RFC 1035). */
  deployment: string;
}

export interface GetDeploymentOutputArgs {
  project: pulumi.Input<string>;
  deployment: pulumi.Input<string>;
}

/** A Deployment Manager v2beta deployment, as the API returns it (labels are a list of {key, value}). */
export type GetDeploymentResult = Readonly<Deployment>;

/** Reads one Deployment Manager deployment (deploymentmanager v2beta `deployments.get`). */
export function getDeployment(args: GetDeploymentArgs, opts?: InvokeOptions): Promise<GetDeploymentResult> {
  return readOrInvokeMocks(getDeployment, args, () => readDeployment(endpointCaller(opts), args));
}

export function getDeploymentOutput(
  args: GetDeploymentOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetDeploymentResult> {
  return pulumi.output(args).apply((a) => getDeployment(a, opts));
}
