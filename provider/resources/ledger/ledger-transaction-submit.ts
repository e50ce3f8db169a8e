/**
 * Submitting a ledger.LedgerTransactionSubmission exactly once, over an open session (session/ledger-session.ts): the
 * qscc lookup that adopts a committed transaction instead of submitting it again, and the outcome reported in the
 * outputs (see ledger-transaction.ts).
 */
import { LedgerError } from "../../errors";
import { codecs, computeTxId, deserializeIdentity, newIdentity, unwrap } from "../../ledger";
import { carriesProposal, findCommittedTransaction } from "../../ledger/committed-lookup";
import { validationCodeMeaning, validationCodeName } from "../../errors/ledger/validation-codes";
import type { Gateway, ProcessedTransaction, ProposalRequest, Visibility } from "../../ledger";
import { deliver, withRetries } from "../../ledger/delivery";
import type { DeliveryOptions } from "../../ledger/delivery";
import { awaitEndorsingPeers } from "../../ledger/endorsing-peers";
import { log, status as rowStatus } from "../../runtime/context";
import { nameFromUrn, timeoutMs } from "../common";
import type { Timeouts } from "../common";
import type { LedgerBytes, LedgerOutcome, LedgerPayload } from "./ledger-shapes";
import { creatorOf, deriveNonce } from "./ledger-transaction-txid";
import type { Connection } from "./session/gateway-connection";

/** Generations skipped (each an invalid transaction already on the ledger) before a submission gives up. */
export const MAX_GENERATION_SKIPS = 20;

export const toBytes = (v: LedgerBytes): string | Uint8Array =>
  typeof v === "string" ? v : Buffer.from(v.base64, "base64");
export const payloadOf = (bytes: Uint8Array): LedgerPayload => ({
  utf8: Buffer.from(bytes).toString("utf8"),
  base64: Buffer.from(bytes).toString("base64"),
});

/**
 * qscc GetTransactionByID, or undefined when the txId is not on the ledger: the core's look-up (the same one the
 * lifecycle's approvals and commits make), with a step's deadline.
 */
export function lookup(
  gateway: Gateway,
  channel: string,
  txId: string,
  options?: { deadline: Date },
): Promise<ProcessedTransaction | undefined> {
  return findCommittedTransaction(gateway, channel, txId, options);
}

export async function outcomeOf(
  gateway: Gateway,
  channel: string,
  generation: number,
  txId: string,
  processed: ProcessedTransaction,
  /** The block the commit status named; read again (a committed txId answers at once) when not given. */
  blockNumber?: bigint,
): Promise<LedgerOutcome> {
  const block = blockNumber ?? (await gateway.getCommitStatus(channel, txId)).blockNumber;
  let result: Uint8Array = new Uint8Array(0);
  let endorsers: string[] = [];
  try {
    const tx = unwrap(
      codecs.Envelope.encode(
        processed.transactionEnvelope ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) },
      ),
    );
    result = tx.chaincodeAction.response?.payload ?? result;
    endorsers = tx.endorsedAction.endorsements.map((e) => deserializeIdentity(e.endorser).mspId);
  } catch {
    // A malformed (invalid) transaction has no result to report.
  }
  return {
    generation,
    txId,
    validationCode: validationCodeName(processed.validationCode),
    validationCodeNumber: processed.validationCode,
    blockNumber: block.toString(),
    result: payloadOf(result),
    endorsers,
    processedTransaction: Buffer.from(codecs.ProcessedTransaction.encode(processed)).toString("base64"),
  };
}

/** Whether a committed transaction carries our channel and chaincode proposal payload (not another run's inputs). */
export function carries(
  processed: ProcessedTransaction,
  request: ProposalRequest,
  identity: Connection["identity"],
): boolean {
  return carriesProposal(processed, { ...request, identity: newIdentity(identity.mspId, identity.certificatePem) });
}

export interface SubmitOnceRequest {
  urn: string;
  channel: string;
  chaincode: string;
  function: string;
  args: LedgerBytes[];
  transientData: Record<string, LedgerBytes>;
  endorsingOrganizations: string[];
  visibility: Visibility;
  allowInvalid: boolean;
  generation: number;
}

/** The gateway's proposal request for the transaction of `r` with `nonce`. */
export function proposalRequestOf(
  r: Omit<SubmitOnceRequest, "urn" | "allowInvalid" | "generation">,
  nonce: Uint8Array,
): ProposalRequest {
  return {
    channelId: r.channel,
    chaincodeName: r.chaincode,
    functionName: r.function,
    args: r.args.map(toBytes),
    transientData: Object.fromEntries(Object.entries(r.transientData).map(([k, v]) => [k, toBytes(v)])),
    endorsingOrganizations: r.endorsingOrganizations,
    visibility: r.visibility,
    nonce,
  };
}

export function invalidMessage(name: string, txId: string, block: string, code: number): string {
  return (
    `LedgerTransaction ${name}: transaction ${txId} was committed in block ${block} with validation code ` +
    `${validationCodeName(code)} (${String(code)}): ${validationCodeMeaning(code)}. An invalid transaction changes nothing on ` +
    `the ledger; run the update again to submit a new transaction, or set allowInvalid: true to record it`
  );
}

/**
 * How one transaction's delivery reports and when it gives up: its lasting messages go to the engine's log on
 * `rowUrn`'s row, the others to `status` (a row status; a batch shows its own instead).
 */
export function deliveryOptionsOf(
  c: Connection,
  r: SubmitOnceRequest,
  step: keyof Timeouts,
  rowUrn: string,
  status?: (message: string) => void,
): DeliveryOptions {
  const name = nameFromUrn(r.urn);
  return {
    subject: `LedgerTransaction ${name}`,
    address: c.gateway.address,
    deadline: Date.now() + timeoutMs(c.timeouts, step),
    report: (message, lasting) => {
      if (lasting) log("info", `LedgerTransaction ${name}: ${message}`, rowUrn);
      else status?.(message);
    },
  };
}

/**
 * Submits the transaction of `generation` (or adopts it when committed), skipping generations burnt by invalid ones.
 * A VALID submission returns once every endorsing organization's peer has it (provider/ledger/endorsing-peers.ts).
 * Faults of the network (a gateway or endorser not answering, a Raft leader election, a transaction the orderers
 * acknowledged and then lost) are retried without a second effect: see provider/ledger/delivery.ts. `step` picks
 * the deadline from `timeouts`; `rowUrn` is the resource whose row shows the progress.
 */
export async function submitOnce(
  gateway: Gateway,
  c: Connection,
  r: SubmitOnceRequest,
  step: keyof Timeouts = "create",
  rowUrn: string = r.urn,
): Promise<LedgerOutcome> {
  const name = nameFromUrn(r.urn);
  const creator = creatorOf(c.identity);
  const delivery = deliveryOptionsOf(c, r, step, rowUrn, (message) => {
    rowStatus(rowUrn, message);
  });
  for (let generation = r.generation; generation < r.generation + MAX_GENERATION_SKIPS; generation++) {
    const nonce = deriveNonce(creator, r.urn, generation);
    const request = proposalRequestOf(r, nonce);
    const txId = computeTxId(nonce, creator);
    const committed = await withRetries(delivery, undefined, (o) => lookup(gateway, r.channel, txId, o));
    if (committed !== undefined) {
      const ours = carries(committed, request, c.identity);
      if (ours && (committed.validationCode === 0 || r.allowInvalid)) {
        const outcome = await outcomeOf(gateway, r.channel, generation, txId, committed);
        log(
          "info",
          `LedgerTransaction ${name}: adopted transaction ${txId}, already committed in block ${outcome.blockNumber} (${outcome.validationCode})`,
          rowUrn,
        );
        return outcome;
      }
      const why = ours
        ? `as ${validationCodeName(committed.validationCode)}`
        : "with other inputs by an interrupted run";
      log(
        "info",
        `LedgerTransaction ${name}: transaction ${txId} was committed earlier ${why}; submitting a new transaction`,
        rowUrn,
      );
      continue;
    }
    log(
      "info",
      `LedgerTransaction ${name}: submitting transaction ${txId} (${r.chaincode}.${r.function} on channel ${r.channel})`,
      rowUrn,
    );
    const proposal = gateway.newProposal(request);
    // verify-before-sign happens in endorse(); endorsing again changes nothing on the ledger.
    const transaction = await withRetries(delivery, undefined, (o) => proposal.endorse(o));
    const { status, submissions } = await deliver(transaction, {
      ...delivery,
      commitStatus: (o) => gateway.getCommitStatus(r.channel, txId, o),
    });
    const processed = await withRetries(delivery, txId, (o) => gateway.getTransactionById(r.channel, txId, o));
    const outcome = await outcomeOf(gateway, r.channel, generation, txId, processed, status.blockNumber);
    if (status.code !== 0 && !r.allowInvalid) {
      throw new LedgerError({
        message: invalidMessage(name, txId, status.blockNumber.toString(), status.code),
        transactionId: txId,
      });
    }
    const times = submissions === 1 ? "" : ` (submitted ${String(submissions)} times with the same signature)`;
    log(
      "info",
      `LedgerTransaction ${name}: transaction ${txId} committed in block ${outcome.blockNumber}: ${outcome.validationCode}${times}`,
      rowUrn,
    );
    if (status.code === 0) {
      const behind = await awaitEndorsingPeers(gateway, r.channel, txId, outcome.endorsers);
      if (behind.length > 0) {
        log(
          "warning",
          `LedgerTransaction ${name}: transaction ${txId} is committed (block ${outcome.blockNumber}), but the peer of ` +
            `${behind.join(", ")} did not report it within the wait; a transaction that reads its writes may fail to ` +
            "endorse there until that peer catches up",
          rowUrn,
        );
      }
    }
    return { ...outcome, result: status.code === 0 ? payloadOf(transaction.getResult()) : outcome.result };
  }
  throw new LedgerError({
    message: `LedgerTransaction ${name}: ${String(MAX_GENERATION_SKIPS)} transactions of this resource are already on the ledger as invalid; see the earlier errors`,
  });
}
