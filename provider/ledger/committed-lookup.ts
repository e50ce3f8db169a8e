/**
 * The look-up that makes a deterministic txId exactly once: before anything is endorsed, the transaction committed
 * under that txId (qscc GetTransactionByID through the gateway; undefined when the channel has none), and whether it
 * carries this very proposal — its channel and its chaincode proposal payload as the prepared transaction carries it —
 * so that what is adopted is this step's transaction, not one an interrupted run made with other inputs. A ledger
 * transaction (provider/resources/ledger) and a lifecycle approval or commit (lifecycle/lifecycle-submit.ts) both go
 * through it (docs/decisions/0004-deterministic-txid-adopted-before-submitting.md, [0069](../../docs/decisions/0069-lifecycle-transaction-ids.md)).
 */
import type * as grpc from "@grpc/grpc-js";
import { codecs } from "./codec";
import { isTransactionNotFound } from "./gateway-client";
import type { Gateway } from "./gateway-client";
import { bytesEqual } from "./hash";
import type { ProcessedTransaction } from "./messages";
import { buildProposal } from "./proposal";
import type { ProposalOptions } from "./proposal";
import { unwrap } from "./unwrap";

/** qscc GetTransactionByID: the transaction committed with `txId`, or undefined when the channel has none. */
export async function findCommittedTransaction(
  gateway: Gateway,
  channelId: string,
  txId: string,
  options?: grpc.CallOptions,
): Promise<ProcessedTransaction | undefined> {
  try {
    return await gateway.getTransactionById(channelId, txId, options);
  } catch (error) {
    if (isTransactionNotFound(error)) return undefined;
    throw error;
  }
}

/**
 * Whether a committed transaction is the proposal `request` builds: the same channel and the same chaincode proposal
 * payload (the function, arguments and, for its visibility mode, what the transaction keeps of them). A transaction
 * that does not decode carries nothing of ours.
 */
export function carriesProposal(processed: ProcessedTransaction, request: ProposalOptions): boolean {
  try {
    const built = buildProposal(request);
    const tx = unwrap(
      codecs.Envelope.encode(
        processed.transactionEnvelope ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) },
      ),
    );
    return (
      tx.channelHeader.channelId === request.channelId &&
      bytesEqual(tx.actionPayload.chaincodeProposalPayload, built.transactionPayload)
    );
  } catch {
    return false;
  }
}
