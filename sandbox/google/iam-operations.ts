/**
 * The google.longrunning.Operation of an IAM v3beta operation, computed from the clock: `done` is left out while
 * it runs (ProtoJSON drops false), then exactly one of `response` (a PolicyBinding) or `error` is set.
 */
import { protoTimestamp } from "./clock";
import type { IamOperationRecord } from "./state";
import type { LongRunningOperation } from "./wire";

export const IAM_OPERATION_METADATA_TYPE = "type.googleapis.com/google.iam.v3beta.OperationMetadata";
export const POLICY_BINDING_TYPE = "type.googleapis.com/google.iam.v3beta.PolicyBinding";

export function iamOperationView(op: IamOperationRecord, nowMs: number): LongRunningOperation {
  const endMs = op.startMs + op.durationMs;
  const done = nowMs >= endMs;
  const metadata: LongRunningOperation["metadata"] = {
    "@type": IAM_OPERATION_METADATA_TYPE,
    createTime: protoTimestamp(op.startMs),
    ...(done ? { endTime: protoTimestamp(endMs) } : {}),
    target: op.target,
    verb: op.verb,
    apiVersion: "v3beta",
  };
  const view: LongRunningOperation = { name: op.name, metadata };
  if (!done) return view;
  view.done = true;
  if (op.outcome.kind === "response") {
    view.response = { "@type": POLICY_BINDING_TYPE, ...structuredClone(op.outcome.response) };
  } else {
    view.error = { code: op.outcome.error.code, message: op.outcome.error.message };
  }
  return view;
}
