import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import { readSubscription } from "../../provider/functions/google-reads";
import type { GetSubscriptionArgs, GetSubscriptionResult } from "../../provider/functions/google-reads";
import type { Inputs } from "../inputs";
import { endpointCaller } from "../program-client";
import type { InvokeOptions } from "../provider";
import { readOrInvokeMocks } from "../under-mocks";

export type { GetSubscriptionArgs, GetSubscriptionResult };

/** getSubscription's arguments, each of which may be an Input. */
export type GetSubscriptionOutputArgs = Inputs<GetSubscriptionArgs>;

/**
 * Reads one Workspace Events subscription (v1beta `subscriptions.get`). The token needs a scope matching the
 * subscription's target (chat.*, meetings.* or drive.*); set opsledger:workspaceEventsScopes to change the default.
 */
export function getSubscription(args: GetSubscriptionArgs, opts?: InvokeOptions): Promise<GetSubscriptionResult> {
  return readOrInvokeMocks(FUNCTIONS.getSubscription, args, () => readSubscription(endpointCaller(opts), args));
}

/** getSubscription with arguments that may be Outputs. */
export function getSubscriptionOutput(
  args: GetSubscriptionOutputArgs,
  opts?: InvokeOptions,
): pulumi.Output<GetSubscriptionResult> {
  return pulumi.output(args).apply((a) => getSubscription(a, opts));
}
