/**
 * What the shared ledger bodies (one body, every target of test/helpers/ledger-targets.ts) have in common: keys of
 * their own (a shared network holds every worker's writes), requests for the target's chaincode, reading a
 * transaction's code out of its block, and proving that nothing reached the ledger.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import type * as grpc from "@grpc/grpc-js";
import { common, gateway as gw } from "@hyperledger/fabric-protos";
import { codecs } from "../../../provider/ledger/codec";
import {
  isTransactionNotFound,
  type Gateway,
  type ProposalRequest,
  type SubmitResult,
} from "../../../provider/ledger/gateway-client";
import { validationCodeName } from "../../../provider/errors/ledger/validation-codes";
import type { LedgerTarget } from "../../helpers/ledger-targets";

/** Generous per-test time for a real network on 2 shared cores. */
export const TARGET_TEST_TIMEOUT_MS = 120_000;

/** A key no other test or worker uses. */
export function uniqueKey(label: string): string {
  return `${label}-${String(process.pid)}-${crypto.randomUUID().slice(0, 8)}`;
}

/** A request for the target's channel and chaincode. */
export function call(
  ledger: LedgerTarget,
  functionName: string,
  args: readonly (string | Uint8Array)[],
  extra: Partial<ProposalRequest> = {},
): ProposalRequest {
  return { channelId: ledger.channel, chaincodeName: ledger.chaincode, functionName, args: [...args], ...extra };
}

/**
 * Submits through `gateway` and waits until every organization's peer has committed the block: a commit status is
 * the word of the gateway's own peer, and an endorsement that reads the write next runs on both organizations' peers.
 */
export async function submitEverywhere(
  ledger: LedgerTarget,
  gateway: Gateway,
  request: ProposalRequest,
): Promise<SubmitResult> {
  const submitted = await gateway.submitTransaction(request);
  await ledger.waitForBlock(submitted.status.blockNumber);
  return submitted;
}

/** Resolves with what `promise` rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

export function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** A transaction of block `blockNumber` (read through qscc, decoded with our codec): its index, envelope and code. */
export interface BlockEntry {
  readonly index: number;
  readonly envelope: Uint8Array;
  readonly codeName: string;
}

/** The entries of `blockNumber` whose channel header carries `txId` (a duplicate shares its txId), in order. */
export async function entriesOf(ledger: LedgerTarget, blockNumber: bigint, txId: string): Promise<BlockEntry[]> {
  const block = codecs.Block.decode(await ledger.readBlock(blockNumber));
  const filter = block.metadata?.metadata[2] ?? new Uint8Array(0);
  const found: BlockEntry[] = [];
  for (const [index, envelope] of (block.data?.data ?? []).entries()) {
    let id: string | undefined;
    try {
      // The channel header alone: the transaction may be malformed further down (the committer's code says how).
      const header = codecs.Payload.decode(codecs.Envelope.decode(envelope).payload).header;
      id = codecs.ChannelHeader.decode(header?.channelHeader ?? new Uint8Array(0)).txId;
    } catch {
      id = undefined;
    }
    if (id === txId) found.push({ index, envelope, codeName: validationCodeName(filter[index] ?? -1) });
  }
  return found;
}

/** The code the block's TRANSACTIONS_FILTER records for the first transaction `txId` of block `blockNumber`. */
export async function blockFilterCode(ledger: LedgerTarget, blockNumber: bigint, txId: string): Promise<string> {
  const [entry] = await entriesOf(ledger, blockNumber, txId);
  assert.ok(entry !== undefined, `block ${String(blockNumber)} holds transaction ${txId}`);
  return entry.codeName;
}

/**
 * Proves that `txIds` never reached the ledger: a transaction of ours submitted after them commits (blocks are cut in
 * submission order), and qscc then does not know any of them.
 */
export async function assertNotOrdered(
  ledger: LedgerTarget,
  gateway: Gateway,
  txIds: readonly string[],
): Promise<void> {
  const sentinel = await gateway.submitTransaction(call(ledger, "PutAsset", [uniqueKey("sentinel"), "after"]));
  assert.equal(sentinel.status.codeName, "VALID");
  for (const txId of txIds) {
    const lookup = await failure(gateway.getTransactionById(ledger.channel, txId));
    assert.equal(isTransactionNotFound(lookup), true, `transaction ${txId} is not on the ledger: ${String(lookup)}`);
  }
}

/** Calls the gateway's Submit with a SubmitRequest carrying `envelope`; rejects with the gRPC error. */
export function submitRaw(ledger: LedgerTarget, envelope: Uint8Array, transactionId: string): Promise<void> {
  const request = new gw.SubmitRequest();
  request.setTransactionId(transactionId);
  request.setChannelId(ledger.channel);
  request.setPreparedTransaction(common.Envelope.deserializeBinary(envelope));
  const client = ledger.newGrpcClient();
  return new Promise<void>((resolve, reject) => {
    client.makeUnaryRequest(
      "/gateway.Gateway/Submit",
      (b: Uint8Array) => Buffer.from(b),
      (b: Buffer) => b,
      request.serializeBinary(),
      (err: grpc.ServiceError | null) => {
        client.close();
        if (err === null) resolve();
        else reject(err);
      },
    );
  });
}
