import * as pulumi from "@pulumi/pulumi";
import { endpointCaller } from "../program-client";
import { readOrInvokeMocks } from "../under-mocks";
import type { InvokeOptions } from "../provider";
import { readSubscription } from "../../provider/functions/google-reads";
import type { Subscription } from "../../provider/google";

export interface GetSubscriptionArgs {
  /** The subscription's resource name: subscriptions/<id>. */
  name: string;
}

export interface GetSubscriptionOutputArgs {
  name: pulumi.Input<string>;
}

/** A Google Workspace Events v1beta subscription (Developer Preview API). */
export type GetSubscriptionResult = Readonly<Subscription>;

/**
 * Reads one Workspace Events subscription (v1beta `subscriptions.get`). The token needs a scope matching the
 * subscription's target (chat.*, meetings.* or drive.*); set opsledger:workspaceEventsScopes to change the default.
 */
export function getSubscription(args: GetSubscriptionArgs, opts?: InvokeOptions): Promise<GetSubscriptionResult> {
  return readOrInvokeMocks(getSubscription, args, () => readSubscription(endpointCaller(opts), args));
}

export function getSubscriptionOutput(
  args: GetSubscriptionOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetSubscriptionResult> {
  return pulumi.output(args).apply((a) => getSubscription(a, opts));
}
