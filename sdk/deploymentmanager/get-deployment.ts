import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import { readDeployment } from "../../provider/functions/google-reads";
import type { GetDeploymentArgs, GetDeploymentResult } from "../../provider/functions/google-reads";
import type { Inputs } from "../inputs";
import { endpointCaller } from "../program-client";
import type { InvokeOptions } from "../provider";
import { readOrInvokeMocks } from "../under-mocks";

export type { GetDeploymentArgs, GetDeploymentResult };

/** getDeployment's arguments, each of which may be an Input. */
export type GetDeploymentOutputArgs = Inputs<GetDeploymentArgs>;

/** Reads one Deployment Manager deployment (deploymentmanager v2beta `deployments.get`). */
export function getDeployment(args: GetDeploymentArgs, opts?: InvokeOptions): Promise<GetDeploymentResult> {
  return readOrInvokeMocks(FUNCTIONS.getDeployment, args, () => readDeployment(endpointCaller(opts), args));
}

/** getDeployment with arguments that may be Outputs. */
export function getDeploymentOutput(
  args: GetDeploymentOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetDeploymentResult> {
  return pulumi.output(args).apply((a) => getDeployment(a, opts));
}
