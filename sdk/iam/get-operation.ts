import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import { readIamOperation } from "../../provider/functions/google-reads";
import type { GetOperationArgs, GetOperationResult } from "../../provider/functions/google-reads";
import type { Inputs } from "../inputs";
import { endpointCaller } from "../program-client";
import type { InvokeOptions } from "../provider";
import { readOrInvokeMocks } from "../under-mocks";

export type { GetOperationArgs, GetOperationResult };

/** getOperation's arguments, each of which may be an Input. */
export type GetOperationOutputArgs = Inputs<GetOperationArgs>;

/** Reads the latest state of an IAM v3beta long-running operation under a folder location (endpoint 2). */
export function getOperation(args: GetOperationArgs, opts?: InvokeOptions): Promise<GetOperationResult> {
  return readOrInvokeMocks(FUNCTIONS.getOperation, args, () => readIamOperation(endpointCaller(opts), args));
}

/** getOperation with arguments that may be Outputs. */
export function getOperationOutput(
  args: GetOperationOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetOperationResult> {
  return pulumi.output(args).apply((a) => getOperation(a, opts));
}
