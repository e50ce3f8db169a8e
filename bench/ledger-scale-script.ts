/**
 * The baseline of the ledger scale benchmark: a plain Node.js script, run as its own process as a user would run
 * one, that submits the same blind PutAssets as `pulumi up` of the ledger bench program, with our gateway client,
 * the same identity and key file and the same parallelism.
 *
 * - `submit`: what a user's script does: per transaction, Endorse (verify-before-sign included), Submit, wait for
 *   the commit status (the same as `submitTransaction`, with SmartBFT's "request already processed" taken as ordered).
 * - `component`: the calls a LedgerTransactionSubmission's create makes (provider/resources/ledger/ledger-transaction-submit.ts):
 *   the qscc lookup that adopts a committed transaction, Endorse, Submit and the commit status, the qscc read of the
 *   committed transaction for the outputs, and the wait until every endorsing organization's peer has it — each
 *   step timed, so the table shows where a LedgerTransaction's time goes beyond the plain submission.
 *
 * Usage: node dist/bench/ledger-scale-script.js '<json LedgerScriptJob>' — prints one JSON line, LedgerScriptResult.
 */
import type { CommitStatus, Transaction } from "../provider/ledger/gateway-objects";
import type { Gateway } from "../provider/ledger";
import { isAlreadyOrdered } from "../provider/ledger/delivery";
import { awaitEndorsingPeers } from "../provider/ledger/endorsing-peers";
import { lookup } from "../provider/resources/ledger/ledger-transaction-submit";
import { openFabricNetwork } from "../sandbox/fabric-network";
import { ourOrg1Client } from "./ledger-client";
import { runLimited } from "./scale-moves-script";

export interface LedgerScriptJob {
  readonly mode: "submit" | "component";
  /** network.json of the running network. */
  readonly networkFile: string;
  readonly count: number;
  readonly parallel: number;
  /** Asset keys are `${prefix}-${i}`. */
  readonly prefix: string;
}

/** The steps of `component` mode, in order. */
export const COMPONENT_STEPS = ["lookup", "endorse", "submitAndCommit", "read", "endorsingPeers"] as const;
export type ComponentStep = (typeof COMPONENT_STEPS)[number];

export interface LedgerScriptResult {
  /** From the first call to the last commit (the process's start-up is measured by the caller). */
  readonly workMs: number;
  /** Connecting: the signer and the gRPC channel. */
  readonly connectMs: number;
  /** Submissions the orderers answered "request already processed" (SmartBFT), then committed. */
  readonly alreadyOrdered: number;
  /** `component` mode: the mean milliseconds of each step per transaction. */
  readonly stepMs?: Readonly<Record<ComponentStep, number>>;
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? "{}") as LedgerScriptJob;
  const network = openFabricNetwork(job.networkFile);
  const connectStarted = performance.now();
  const gateway: Gateway = ourOrg1Client(network);
  const connectMs = performance.now() - connectStarted;
  const spent: Record<ComponentStep, number> = {
    lookup: 0,
    endorse: 0,
    submitAndCommit: 0,
    read: 0,
    endorsingPeers: 0,
  };
  const timed = async <T>(step: ComponentStep, work: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await work();
    } finally {
      spent[step] += performance.now() - started;
    }
  };
  const keys = Array.from({ length: job.count }, (_, i) => `${job.prefix}-${String(i)}`);
  const request = (key: string): Parameters<Gateway["newProposal"]>[0] => ({
    channelId: network.channel,
    chaincodeName: network.chaincode,
    functionName: "PutAsset",
    args: [key, "blue"],
  });
  let alreadyOrdered = 0;
  const started = performance.now();
  try {
    /**
     * Submit, then the commit status. A SmartBFT gateway submits to every orderer; under load some have the request
     * from the leader already and answer "request already processed", and with two of four the gateway fails the
     * Submit although the transaction was ordered (seen at 1,000, 2026-11-27): then the txId's commit status decides,
     * as the component's delivery does (provider/ledger/delivery.ts).
     */
    const submitAndCommit = async (transaction: Transaction): Promise<CommitStatus> => {
      try {
        return await (await transaction.submit()).getStatus();
      } catch (error) {
        if (!isAlreadyOrdered(error)) throw error;
        alreadyOrdered++;
        return gateway.getCommitStatus(network.channel, transaction.getTransactionId());
      }
    };
    await runLimited(keys, job.parallel, async (key) => {
      if (job.mode === "submit") {
        const status = await submitAndCommit(await gateway.newProposal(request(key)).endorse());
        if (!status.successful) throw new Error(`${key}: committed ${status.codeName}`);
        return;
      }
      const proposal = gateway.newProposal(request(key));
      const txId = proposal.getTransactionId();
      const found = await timed("lookup", () => lookup(gateway, network.channel, txId));
      if (found !== undefined) throw new Error(`${key}: transaction ${txId} is already on the ledger`);
      const transaction = await timed("endorse", () => proposal.endorse());
      const status = await timed("submitAndCommit", () => submitAndCommit(transaction));
      if (!status.successful) throw new Error(`${key}: committed ${status.codeName}`);
      await timed("read", () => gateway.getTransactionById(network.channel, txId));
      const behind = await timed("endorsingPeers", () =>
        awaitEndorsingPeers(
          gateway,
          network.channel,
          txId,
          network.organizations.map((o) => o.mspId),
        ),
      );
      if (behind.length > 0) throw new Error(`${key}: the peers of ${behind.join(", ")} did not report ${txId}`);
    });
  } finally {
    gateway.close();
  }
  const perTx = (ms: number): number => Math.round((ms / Math.max(1, job.count)) * 10) / 10;
  const result: LedgerScriptResult = {
    workMs: Math.round(performance.now() - started),
    connectMs: Math.round(connectMs),
    alreadyOrdered,
    ...(job.mode === "component"
      ? {
          stepMs: Object.fromEntries(COMPONENT_STEPS.map((s) => [s, perTx(spent[s])])) as Record<ComponentStep, number>,
        }
      : {}),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  });
}
