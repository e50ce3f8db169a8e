/**
 * End-to-end submissions per second through one in-process Fabric sandbox: our gateway client (Endorse →
 * verify-before-sign → sign → Submit → CommitStatus) vs the official @hyperledger/fabric-gateway client (Endorse →
 * sign → Submit → CommitStatus, no verification), the same chaincode call (a blind PutAsset of a fresh key, so no
 * MVCC conflicts), the same identity and the same concurrency. Rounds are interleaved and the best of each side
 * counts. Prints nothing; the caller prints the rows.
 */
import { createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as official from "@hyperledger/fabric-gateway";
import { connectToSandbox } from "./sandbox-client";
import { startFabricSandbox } from "../sandbox/fabric";

export interface LedgerSubmitBenchOptions {
  /** Transactions per side and round. @default DEFAULT_BENCH_SUBMIT_TRANSACTIONS */
  readonly transactions?: number;
  /** Submissions in flight at once, on both sides. @default DEFAULT_BENCH_SUBMIT_CONCURRENCY */
  readonly concurrency?: number;
}

export interface LedgerSubmitBenchRow {
  readonly client: string;
  readonly submissionsPerSec: number;
  /** submissionsPerSec / the official client's (the target is at least 1). */
  readonly ratioVsOfficial: number;
}

export const DEFAULT_BENCH_SUBMIT_TRANSACTIONS = 300;
export const DEFAULT_BENCH_SUBMIT_CONCURRENCY = 8;
/** Transactions per side before timing (connection set-up, JIT warm-up). */
const WARM_UP_TRANSACTIONS = 20;
const ROUNDS = 2;

/** Runs `total` submissions with at most `concurrency` in flight; resolves with submissions per second. */
async function throughput(
  total: number,
  concurrency: number,
  submit: (i: number) => Promise<unknown>,
): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      const i = next++;
      await submit(i);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return (total * 1000) / (performance.now() - started);
}

export async function benchLedgerSubmit(options: LedgerSubmitBenchOptions = {}): Promise<LedgerSubmitBenchRow[]> {
  const transactions = options.transactions ?? DEFAULT_BENCH_SUBMIT_TRANSACTIONS;
  const concurrency = options.concurrency ?? DEFAULT_BENCH_SUBMIT_CONCURRENCY;
  const sandbox = await startFabricSandbox({ port: 0 });
  const identity = sandbox.newClientIdentity("Org1MSP");
  const ours = connectToSandbox(sandbox, identity);
  const grpcClient = new grpc.Client(sandbox.address, grpc.credentials.createInsecure());
  const theirs = official.connect({
    client: grpcClient,
    identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
    signer: official.signers.newPrivateKeySigner(createPrivateKey(identity.privateKeyPem)),
  });
  const contract = theirs.getNetwork(sandbox.channel).getContract(sandbox.chaincode);
  let sequence = 0;
  const key = (): string => `asset-${String(sequence++)}`;
  const viaOurs = async (): Promise<void> => {
    const { status } = await ours.submitTransaction({
      channelId: sandbox.channel,
      chaincodeName: sandbox.chaincode,
      functionName: "PutAsset",
      args: [key(), "blue"],
    });
    if (!status.successful) throw new Error(`benchLedgerSubmit: our transaction committed ${status.codeName}`);
  };
  // submitTransaction of the official client throws CommitError unless the transaction is VALID.
  const viaOfficial = (): Promise<Uint8Array> => contract.submitTransaction("PutAsset", key(), "blue");
  try {
    await throughput(WARM_UP_TRANSACTIONS, concurrency, viaOurs);
    await throughput(WARM_UP_TRANSACTIONS, concurrency, viaOfficial);
    let oursPerSec = 0;
    let officialPerSec = 0;
    for (let round = 0; round < ROUNDS; round++) {
      // A fresh ledger per round, so both sides commit against the same ledger size.
      sandbox.reset();
      oursPerSec = Math.max(oursPerSec, await throughput(transactions, concurrency, viaOurs));
      sandbox.reset();
      officialPerSec = Math.max(officialPerSec, await throughput(transactions, concurrency, viaOfficial));
    }
    const round2 = (x: number): number => Math.round(x * 100) / 100;
    return [
      {
        client: "pulumi-opsledger provider/ledger (verify-before-sign)",
        submissionsPerSec: round2(oursPerSec),
        ratioVsOfficial: round2(oursPerSec / officialPerSec),
      },
      {
        client: "@hyperledger/fabric-gateway 1.12.1",
        submissionsPerSec: round2(officialPerSec),
        ratioVsOfficial: 1,
      },
    ];
  } finally {
    ours.close();
    theirs.close();
    grpcClient.close();
    await sandbox.close();
  }
}
