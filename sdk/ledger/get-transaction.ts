import * as pulumi from "@pulumi/pulumi";
import type { TransactionRecord } from "../../provider/ledger";
import { FUNCTIONS } from "../../provider/registry";
import { readOrInvokeMocks } from "../under-mocks";
import { gatewayOf, identityOf, ledgerReads } from "./ledger-read-args";
import type { DeepInput, LedgerReadArgs } from "./ledger-read-args";

export interface GetTransactionArgs extends LedgerReadArgs {
  /** The transaction id: 64 lower-case hex characters (a LedgerTransaction's txId output). */
  txId: string;
}

/**
 * The ProcessedTransaction: validation code by name and number, block number, the decoded envelope (creator,
 * chaincode, function, arguments, read/write set, event, endorsers) and how it verified, with the base64 bytes.
 */
export type GetTransactionResult = TransactionRecord;

/**
 * Reads a committed transaction by its txId (qscc GetTransactionByID and GetBlockByTxID through the Gateway's
 * Evaluate), decoded and verified as `opsledger-ledger verify` does. A txId that is not 64 hex characters is refused
 * before anything is sent; a txId not on the channel, a channel the peer has not joined, and an identity the
 * channel's Readers refuse fail with a message naming the input and the fix.
 */
export function getTransaction(args: GetTransactionArgs, _opts?: pulumi.InvokeOptions): Promise<GetTransactionResult> {
  return readOrInvokeMocks(FUNCTIONS.getTransaction, args, () =>
    ledgerReads().readLedgerTransaction({
      ...args,
      gateway: gatewayOf(args.gateway),
      identity: identityOf(args.identity),
    }),
  );
}

/** getTransaction with inputs that may be Outputs (the result is secret when a key or PIN given as a value is). */
export function getTransactionOutput(
  args: DeepInput<GetTransactionArgs>,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetTransactionResult> {
  return pulumi.output(args).apply((a) => getTransaction(a as GetTransactionArgs, opts));
}
