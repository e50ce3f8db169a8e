import * as pulumi from "@pulumi/pulumi";
import { callEndpoint } from "../program-client";
import type { LongRunningOperation, RpcStatus } from "../../provider/operations/types";

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
export async function getOperation(args: GetOperationArgs, _opts?: pulumi.InvokeOptions): Promise<GetOperationResult> {
  const op: LongRunningOperation = await callEndpoint("iam.operations.get", { name: args.name });
  return {
    name: op.name ?? args.name,
    done: op.done ?? false,
    metadata: op.metadata ?? {},
    ...(op.error ? { error: op.error } : {}),
    ...(op.response ? { response: op.response } : {}),
  };
}

export function getOperationOutput(
  args: GetOperationOutputArgs,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetOperationResult> {
  return pulumi.output(args).apply((a) => getOperation(a, opts));
}
