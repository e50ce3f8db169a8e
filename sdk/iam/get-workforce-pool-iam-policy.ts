import * as pulumi from "@pulumi/pulumi";
import { endpointCaller } from "../program-client";
import { readOrInvokeMocks } from "../under-mocks";
import type { InvokeOptions } from "../provider";
import { readWorkforcePoolIamPolicy } from "../../provider/functions/google-reads";
import type { Policy } from "../../provider/google";

export interface GetWorkforcePoolIamPolicyArgs {
  /** The pool id (the last segment of locations/<location>/workforcePools/<id>). */
  workforcePoolId: string;
  /** @default "global" */
  location?: string;
  /** 0, 1 or 3; request 3 to receive conditional bindings. @default 3 */
  requestedPolicyVersion?: number;
}

export interface GetWorkforcePoolIamPolicyOutputArgs {
  workforcePoolId: pulumi.Input<string>;
  location?: pulumi.Input<string>;
  requestedPolicyVersion?: pulumi.Input<number>;
}

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
export function getWorkforcePoolIamPolicy(
  args: GetWorkforcePoolIamPolicyArgs,
  opts?: InvokeOptions,
): Promise<GetWorkforcePoolIamPolicyResult> {
  return readOrInvokeMocks(getWorkforcePoolIamPolicy, args, () =>
    readWorkforcePoolIamPolicy(endpointCaller(opts), args),
  );
}

export function getWorkforcePoolIamPolicyOutput(
  args: GetWorkforcePoolIamPolicyOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetWorkforcePoolIamPolicyResult> {
  return pulumi.output(args).apply((a) => getWorkforcePoolIamPolicy(a, opts));
}
