/**
 * Waits for an operation started outside Pulumi — an IAM v3beta long-running operation name or a compute operation's
 * selfLink — and records how it ended; fails with the operation's own error. The default is an operation of the
 * sandbox's fixture (`npm run sandbox`) that is already done.
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

const wait = new opsledger.operations.OperationWait("policy-binding", {
  operation: config.get("operation") ?? "folders/200000000001/locations/global/operations/op-binding-created",
  timeouts: { create: config.get("timeout") ?? "20m" },
});

export const kind = wait.kind;
export const status = wait.status;
export const result = wait.result;
export const operationName = wait.operationName;
