import * as pulumi from "@pulumi/pulumi";
import { callEndpoint } from "../program-client";
import { readDeployment } from "../../provider/resources/data-sources";
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
export function getDeployment(args: GetDeploymentArgs, _opts?: pulumi.InvokeOptions): Promise<GetDeploymentResult> {
  return readDeployment(callEndpoint, args);
}

export function getDeploymentOutput(
  args: GetDeploymentOutputArgs,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetDeploymentResult> {
  return pulumi.output(args).apply((a) => getDeployment(a, opts));
}
