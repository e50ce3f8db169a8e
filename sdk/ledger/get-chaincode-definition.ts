import * as pulumi from "@pulumi/pulumi";
import type * as ChaincodeReads from "../../provider/resources/ledger/chaincode/chaincode-reads";
import type {
  GetChaincodeDefinitionInputs,
  GetChaincodeDefinitionOutcome,
} from "../../provider/resources/ledger/chaincode/chaincode-reads";
import { FUNCTIONS } from "../../provider/registry";
import { readOrInvokeMocks } from "../under-mocks";
import { gatewayOf, identityOf } from "./ledger-read-args";
import type { DeepInput } from "./ledger-read-args";

/** What getChaincodeDefinition takes: a ledger read's arguments and the chaincode's name. */
export type GetChaincodeDefinitionArgs = GetChaincodeDefinitionInputs;

/** The committed definition with each organization's approval, and the identity's organization's own approval. */
export type GetChaincodeDefinitionResult = GetChaincodeDefinitionOutcome;

/** The chaincode lifecycle's reads (gRPC, the Fabric protos), loaded on a program's first call. */
function chaincodeReads(): typeof ChaincodeReads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use; CommonJS build
  return require("../../provider/resources/ledger/chaincode/chaincode-reads") as typeof ChaincodeReads;
}

/**
 * Reads a chaincode's definition committed on a channel, with each organization's approval of it, and — when the
 * identity is an organization's admin — that organization's newest approval (its package id included). Fabric's
 * default ACLs let the channel's Writers (a client or an admin) read the committed definition, and only an
 * organization's admin its approvals: a reader that is neither is refused with a message naming the ACL.
 */
export function getChaincodeDefinition(
  args: GetChaincodeDefinitionArgs,
  _opts?: pulumi.InvokeOptions,
): Promise<GetChaincodeDefinitionResult> {
  return readOrInvokeMocks(FUNCTIONS.getChaincodeDefinition, args, () =>
    chaincodeReads().readChaincodeDefinition({
      ...args,
      gateway: gatewayOf(args.gateway),
      identity: identityOf(args.identity),
    }),
  );
}

/** getChaincodeDefinition with inputs that may be Outputs. */
export function getChaincodeDefinitionOutput(
  args: DeepInput<GetChaincodeDefinitionArgs>,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetChaincodeDefinitionResult> {
  return pulumi.output(args).apply((a) => getChaincodeDefinition(a as GetChaincodeDefinitionArgs, opts));
}
