import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import { readWorkforcePoolIamPolicy } from "../../provider/functions/google-reads";
import type {
  GetWorkforcePoolIamPolicyArgs,
  GetWorkforcePoolIamPolicyResult,
} from "../../provider/functions/google-reads";
import type { Inputs } from "../inputs";
import { endpointCaller } from "../program-client";
import type { InvokeOptions } from "../provider";
import { readOrInvokeMocks } from "../under-mocks";

export type { GetWorkforcePoolIamPolicyArgs, GetWorkforcePoolIamPolicyResult };

/** getWorkforcePoolIamPolicy's arguments, each of which may be an Input. */
export type GetWorkforcePoolIamPolicyOutputArgs = Inputs<GetWorkforcePoolIamPolicyArgs>;

/** Reads the IAM policy of a workforce pool (iam v1 `workforcePools.getIamPolicy`). */
export function getWorkforcePoolIamPolicy(
  args: GetWorkforcePoolIamPolicyArgs,
  opts?: InvokeOptions,
): Promise<GetWorkforcePoolIamPolicyResult> {
  return readOrInvokeMocks(FUNCTIONS.getWorkforcePoolIamPolicy, args, () =>
    readWorkforcePoolIamPolicy(endpointCaller(opts), args),
  );
}

/** getWorkforcePoolIamPolicy with arguments that may be Outputs. */
export function getWorkforcePoolIamPolicyOutput(
  args: GetWorkforcePoolIamPolicyOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetWorkforcePoolIamPolicyResult> {
  return pulumi.output(args).apply((a) => getWorkforcePoolIamPolicy(a, opts));
}
