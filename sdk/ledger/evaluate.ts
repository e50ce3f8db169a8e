import * as pulumi from "@pulumi/pulumi";
import type { EvaluationResult } from "../../provider/ledger";
import { FUNCTIONS } from "../../provider/registry";
import { readOrInvokeMocks } from "../under-mocks";
import { gatewayOf, identityOf, ledgerReads } from "./ledger-read-args";
import type { DeepInput, LedgerReadArgs } from "./ledger-read-args";

export interface EvaluateArgs extends LedgerReadArgs {
  /** The chaincode name. */
  chaincode: string;
  /** The function to query, e.g. "ReadAsset". */
  function: string;
  /** Arguments: strings are sent as UTF-8; bytes as `{ base64: "..." }`. @default [] */
  args?: (string | { base64: string })[];
  /** MSP ids whose peers may answer. @default the gateway's choice */
  targetOrganizations?: string[];
}

/** The chaincode's response payload: `text` (UTF-8; absent when the bytes are not valid UTF-8) and `base64`. */
export type EvaluateResult = EvaluationResult;

/**
 * Queries a chaincode (the Gateway's Evaluate: one peer simulates, nothing is ordered), signed through the identity's
 * signer reference. A channel the peer has not joined, a chaincode not defined on the channel, and an identity that
 * is not one of the channel's Writers (Fabric lets only Writers propose, even a query) fail with a message naming
 * the input and the fix.
 */
export function evaluate(args: EvaluateArgs, _opts?: pulumi.InvokeOptions): Promise<EvaluateResult> {
  return readOrInvokeMocks(FUNCTIONS.evaluate, args, () =>
    ledgerReads().evaluateLedger({
      ...args,
      gateway: gatewayOf(args.gateway),
      identity: identityOf(args.identity),
    }),
  );
}

/** evaluate with inputs that may be Outputs. */
export function evaluateOutput(
  args: DeepInput<EvaluateArgs>,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<EvaluateResult> {
  return pulumi.output(args).apply((a) => evaluate(a as EvaluateArgs, opts));
}
