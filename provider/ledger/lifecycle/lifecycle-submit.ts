/**
 * How one _lifecycle transaction is made exactly once (docs/decisions/0069-lifecycle-transaction-ids.md): its txId,
 * fixed by the caller's nonce, is looked up first — a committed VALID transaction carrying this very proposal is
 * adopted, one there invalid or for another proposal is TRANSACTION_ID_USED — then it is endorsed with the endorsing
 * organizations named (verify-before-sign), submitted and waited for through delivery.ts (transient faults retried,
 * the same signed envelope resubmitted), Fabric's refusals of the endorsement turned into LifecycleError.
 * lifecycle-transactions.ts decides what to send; this module sends it.
 */
import type * as grpc from "@grpc/grpc-js";
import type { TrustedMsp } from "../cert-chain";
import { carriesProposal, findCommittedTransaction } from "../committed-lookup";
import { deliver, withRetries } from "../delivery";
import type { DeliveryOptions } from "../delivery";
import type { Gateway } from "../gateway-client";
import { GatewayError } from "../../errors/ledger/gateway-error";
import { serializeIdentity } from "../identity";
import type { Identity } from "../identity";
import type { ProcessedTransaction } from "../messages";
import { computeTxId } from "../proposal";
import { validationCodeMeaning, validationCodeName } from "../../errors/ledger/validation-codes";
import type { ChaincodeDefinition } from "./chaincode-definition";
import { LifecycleError } from "../../errors/ledger/lifecycle-error";
import { LIFECYCLE_CHAINCODE, lifecycleErrorOf } from "./lifecycle-reads";

/** How long one lifecycle step (its reads, endorsement, ordering and commit) may take. */
export const DEFAULT_LIFECYCLE_STEP_TIMEOUT_MS = 5 * 60_000;

/** What a step did: sent a transaction, found it committed, or found nothing to do. */
export type LifecycleOutcome = "submitted" | "adopted" | "already-approved" | "already-committed";

export interface LifecycleTransactionResult {
  readonly outcome: LifecycleOutcome;
  /** The transaction submitted or adopted; undefined when nothing was needed. */
  readonly transactionId: string | undefined;
  readonly blockNumber: bigint | undefined;
  /** How many times the signed envelope was submitted (0 when none was). */
  readonly submissions: number;
}

/** What both steps take besides the definition. */
export interface LifecycleStepOptions {
  readonly channelId: string;
  readonly definition: ChaincodeDefinition;
  /**
   * The proposal's nonce: fixes the txId, which is looked up before anything is sent (exactly once across retries).
   * @default 24 random bytes (no adoption)
   */
  readonly nonce?: Uint8Array;
  /** The channel's organizations and CAs: the admin is checked against them before anything is sent. */
  readonly trustedMsps?: readonly TrustedMsp[];
  /** The gateway's address, named in messages. @default "the gateway" */
  readonly address?: string;
  /** @default DEFAULT_LIFECYCLE_STEP_TIMEOUT_MS */
  readonly timeoutMs?: number;
  /** Progress, as DeliveryOptions.report. */
  readonly report?: (message: string, lasting: boolean) => void;
}

/** The txId a lifecycle transaction by `identity` with `nonce` has: hex(SHA-256(nonce ‖ serialized identity)). */
export function lifecycleTransactionId(identity: Identity, nonce: Uint8Array): string {
  return computeTxId(nonce, serializeIdentity(identity));
}

/** A peer's refusal of a proposal whose txId it has committed (core/endorser preProcess). */
const DUPLICATE = /duplicate transaction found/;
/** Fabric's endorsement refusals a lifecycle step turns into its own problems. */
const NOT_AGREED = /chaincode definition not agreed to by this org \(([^)]+)\)/;
const SEQUENCE_TEXT =
  /requested sequence is \d+, but new definition must be sequence \d+|currently defined sequence \d+ is larger than requested sequence \d+|requested sequence \d+ is larger than the next available sequence number \d+/;

export interface Step {
  readonly gateway: Gateway;
  readonly options: LifecycleStepOptions;
  readonly functionName: "ApproveChaincodeDefinitionForMyOrg" | "CommitChaincodeDefinition";
  readonly args: Uint8Array;
  readonly endorsingOrganizations: readonly string[];
  readonly what: string;
  readonly nonce: Uint8Array;
  readonly delivery: DeliveryOptions;
}

export function deliveryOf(options: LifecycleStepOptions, what: string): DeliveryOptions {
  return {
    subject: what,
    address: options.address ?? "the gateway",
    deadline: Date.now() + (options.timeoutMs ?? DEFAULT_LIFECYCLE_STEP_TIMEOUT_MS),
    ...(options.report === undefined ? {} : { report: options.report }),
  };
}

function requestOf(step: Step) {
  return {
    channelId: step.options.channelId,
    chaincodeName: LIFECYCLE_CHAINCODE,
    functionName: step.functionName,
    args: [step.args],
    endorsingOrganizations: step.endorsingOrganizations,
    nonce: step.nonce,
  };
}

/** Whether a committed transaction is this step's proposal (its channel and chaincode proposal payload). */
function isThisProposal(processed: ProcessedTransaction, step: Step): boolean {
  return carriesProposal(processed, { identity: step.gateway.getIdentity(), ...requestOf(step) });
}

/** The committed transaction with this step's txId, or undefined (qscc; retried through transient faults). */
export async function lookUp(step: Step, txId: string): Promise<ProcessedTransaction | undefined> {
  return withRetries(step.delivery, undefined, (o: grpc.CallOptions) =>
    findCommittedTransaction(step.gateway, step.options.channelId, txId, o),
  );
}

/** A refusal of the endorsement as the step's own error. */
function endorseErrorOf(error: unknown, step: Step, txId: string): unknown {
  if (!(error instanceof GatewayError)) return error;
  const texts = [error.message, ...error.details.map((d) => `${d.mspId}: ${d.message}`)];
  const notAgreed = texts.map((t) => NOT_AGREED.exec(t)).find((m) => m !== null);
  if (notAgreed) {
    const org = notAgreed[1] ?? "";
    return new LifecycleError({
      problem: "NOT_APPROVED",
      organization: org,
      organizations: [org],
      field: "definition",
      transactionId: txId,
      cause: error,
      message:
        `${step.what}: ${org} has not approved this definition (its peer refused to endorse the commit: ` +
        `${notAgreed[0]}). Approve it as ${org}'s admin, then commit again; nothing was submitted`,
    });
  }
  const sequence = texts.map((t) => SEQUENCE_TEXT.exec(t)).find((m) => m !== null);
  if (sequence) {
    return new LifecycleError({
      problem: "SEQUENCE",
      field: "sequence",
      organization: step.gateway.getIdentity().mspId,
      transactionId: txId,
      cause: error,
      message: `${step.what}: Fabric refused the sequence (${sequence[0]}); nothing was submitted`,
    });
  }
  const mapped = lifecycleErrorOf(error, {
    channel: step.options.channelId,
    organization: step.gateway.getIdentity().mspId,
    what: step.what,
    transactionId: txId,
  });
  if (mapped !== error) return mapped;
  return new LifecycleError({
    problem: "REFUSED",
    organization: step.gateway.getIdentity().mspId,
    transactionId: txId,
    cause: error,
    message: `${step.what}: the endorsement was refused (${texts.slice(1).join("; ") || error.message}); nothing was submitted`,
  });
}

/** Adopts the step's committed transaction, or endorses, submits and waits for it. */
export async function submitOnce(step: Step): Promise<LifecycleTransactionResult> {
  const txId = computeTxId(step.nonce, serializeIdentity(step.gateway.getIdentity()));
  const committed = await lookUp(step, txId);
  if (committed !== undefined) {
    if (committed.validationCode === 0 && isThisProposal(committed, step)) {
      const status = await step.gateway.getCommitStatus(step.options.channelId, txId);
      step.options.report?.(
        `${step.what}: adopted transaction ${txId}, committed in block ${status.blockNumber.toString()}`,
        true,
      );
      return { outcome: "adopted", transactionId: txId, blockNumber: status.blockNumber, submissions: 0 };
    }
    const how = isThisProposal(committed, step)
      ? `as ${validationCodeName(committed.validationCode)}`
      : "for another proposal";
    throw new LifecycleError({
      problem: "TRANSACTION_ID_USED",
      field: "nonce",
      organization: step.gateway.getIdentity().mspId,
      transactionId: txId,
      message:
        `${step.what}: transaction ${txId}, which this nonce gives, is on the ledger already ${how}: use the next ` +
        "nonce (the next attempt) to send a new transaction",
    });
  }
  const proposal = step.gateway.newProposal(requestOf(step));
  let transaction;
  try {
    transaction = await withRetries(step.delivery, undefined, (o: grpc.CallOptions) => proposal.endorse(o));
  } catch (error) {
    // The peer has this txId already: a copy sent before (and still being ordered when it was looked up) committed.
    if (
      error instanceof GatewayError &&
      DUPLICATE.test(error.message + error.details.map((d) => d.message).join(" "))
    ) {
      const status = await step.gateway.getCommitStatus(step.options.channelId, txId);
      if (status.successful) {
        step.options.report?.(
          `${step.what}: adopted transaction ${txId}, committed in block ${status.blockNumber.toString()}`,
          true,
        );
        return { outcome: "adopted", transactionId: txId, blockNumber: status.blockNumber, submissions: 0 };
      }
    }
    throw endorseErrorOf(error, step, txId);
  }
  const { status, submissions } = await deliver(transaction, {
    ...step.delivery,
    commitStatus: (o) => step.gateway.getCommitStatus(step.options.channelId, txId, o),
  });
  if (!status.successful) {
    throw new LifecycleError({
      problem: "REFUSED",
      organization: step.gateway.getIdentity().mspId,
      transactionId: txId,
      message:
        `${step.what}: transaction ${txId} was committed in block ${status.blockNumber.toString()} as ` +
        `${status.codeName}: ${validationCodeMeaning(status.code)}. Nothing changed; run the step again with the next nonce`,
    });
  }
  step.options.report?.(`${step.what}: transaction ${txId} committed in block ${status.blockNumber.toString()}`, true);
  return { outcome: "submitted", transactionId: txId, blockNumber: status.blockNumber, submissions };
}
