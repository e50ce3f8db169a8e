import * as pulumi from "@pulumi/pulumi";
import { endpointCaller } from "../program-client";
import { readOrInvokeMocks } from "../under-mocks";
import type { InvokeOptions } from "../provider";
import type { RpcStatus } from "../../provider/errors/operations/operation-failure-types";
import { readIamOperation } from "../../provider/functions/google-reads";

export interface GetOperationArgs {
  /** The operation's full name: folders/<id>/locations/<location>/operations/<id> (IAM v3beta). */
  name: string;
}

export interface GetOperationOutputArgs {
  name: pulumi.Input<string>;
}

export interface GetOperationResult {
  readonly name: string;
  readonly done: boolean;
  /** The metadata (google.iam.v3beta.OperationMetadata), with its @type. */
  readonly metadata: Record<string, unknown>;
  /** Set when the operation failed. */
  readonly error?: RpcStatus;
  /** Set when the operation succeeded, with its @type. */
  readonly response?: Record<string, unknown>;
}

/** Reads the latest state of an IAM v3beta long-running operation under a folder location (endpoint 2). */
export function getOperation(args: GetOperationArgs, opts?: InvokeOptions): Promise<GetOperationResult> {
  return readOrInvokeMocks(getOperation, args, () => readIamOperation(endpointCaller(opts), args));
}

export function getOperationOutput(
  args: GetOperationOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetOperationResult> {
  return pulumi.output(args).apply((a) => getOperation(a, opts));
}
