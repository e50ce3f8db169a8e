import * as pulumi from "@pulumi/pulumi";
import type { ChainInfo } from "../../provider/ledger";
import { FUNCTIONS } from "../../provider/registry";
import { readOrInvokeMocks } from "../under-mocks";
import { gatewayOf, identityOf, ledgerReads } from "./ledger-read-args";
import type { DeepInput, LedgerReadArgs } from "./ledger-read-args";

export type GetChainInfoArgs = LedgerReadArgs;

/** The channel's height (decimal) and the newest block's hash and its predecessor's (lower-case hex). */
export type GetChainInfoResult = ChainInfo;

/** Reads the channel's height and current block hash (qscc GetChainInfo); the channel's Readers may ask. */
export function getChainInfo(args: GetChainInfoArgs, _opts?: pulumi.InvokeOptions): Promise<GetChainInfoResult> {
  return readOrInvokeMocks(FUNCTIONS.getChainInfo, args, () =>
    ledgerReads().readLedgerChainInfo({
      ...args,
      gateway: gatewayOf(args.gateway),
      identity: identityOf(args.identity),
    }),
  );
}

/** getChainInfo with inputs that may be Outputs. */
export function getChainInfoOutput(
  args: DeepInput<GetChainInfoArgs>,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetChainInfoResult> {
  return pulumi.output(args).apply((a) => getChainInfo(a as GetChainInfoArgs, opts));
}
