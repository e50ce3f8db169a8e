import * as pulumi from "@pulumi/pulumi";
import { endpointCaller } from "../program-client";
import { readOrInvokeMocks } from "../under-mocks";
import type { InvokeOptions } from "../provider";
import { readCreative } from "../../provider/functions/google-reads";
import type { Creative } from "../../provider/google";

export interface GetCreativeArgs {
  /** The advertiser owning the creative (int64 as a decimal string). */
  advertiserId: string;
  /** The creative id (int64 as a decimal string). */
  creativeId: string;
  /** Display & Video 360 API version. @default opsledger:displayVideoApiVersion, else "v3" (sunset by Google: prefer "v4") */
  apiVersion?: string;
}

export interface GetCreativeOutputArgs {
  advertiserId: pulumi.Input<string>;
  creativeId: pulumi.Input<string>;
  apiVersion?: pulumi.Input<string>;
}

export type GetCreativeResult = Readonly<Creative>;

/** Reads one Display & Video 360 creative (`advertisers.creatives.get`). */
export function getCreative(args: GetCreativeArgs, opts?: InvokeOptions): Promise<GetCreativeResult> {
  return readOrInvokeMocks(getCreative, args, () => readCreative(endpointCaller(opts), args));
}

export function getCreativeOutput(args: GetCreativeOutputArgs, opts?: InvokeOptions): pulumi.Output<GetCreativeResult> {
  return pulumi.output(args).apply((a) => getCreative(a, opts));
}
