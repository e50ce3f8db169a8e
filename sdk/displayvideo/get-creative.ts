import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import { readCreative } from "../../provider/functions/google-reads";
import type { GetCreativeArgs, GetCreativeResult } from "../../provider/functions/google-reads";
import type { Inputs } from "../inputs";
import { endpointCaller } from "../program-client";
import type { InvokeOptions } from "../provider";
import { readOrInvokeMocks } from "../under-mocks";

export type { GetCreativeArgs, GetCreativeResult };

/** getCreative's arguments, each of which may be an Input. */
export type GetCreativeOutputArgs = Inputs<GetCreativeArgs>;

/** Reads one Display & Video 360 creative (`advertisers.creatives.get`). */
export function getCreative(args: GetCreativeArgs, opts?: InvokeOptions): Promise<GetCreativeResult> {
  return readOrInvokeMocks(FUNCTIONS.getCreative, args, () => readCreative(endpointCaller(opts), args));
}

/** getCreative with arguments that may be Outputs. */
export function getCreativeOutput(args: GetCreativeOutputArgs, opts?: InvokeOptions): pulumi.Output<GetCreativeResult> {
  return pulumi.output(args).apply((a) => getCreative(a, opts));
}
