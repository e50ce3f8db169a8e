/**
 * The two _lifecycle transactions, endorsed through a gateway and ordered once: ApproveChaincodeDefinitionForMyOrg
 * (endorsed by the approving organization's own peer, which writes the approval into that organization's implicit
 * collection) and CommitChaincodeDefinition (endorsed by the peers of the organizations that approved, each of which
 * refuses a definition its organization did not approve). Each is Endorse with the endorsing organizations named →
 * verify-before-sign → Submit → commit status, through delivery.ts (transient faults retried, the same signed envelope
 * resubmitted, never a second transaction).
 *
 * Exactly once across retries and killed processes: with a caller's nonce the txId is fixed
 * (hex(SHA-256(nonce ‖ creator)), docs/decisions/0076-lifecycle-transaction-ids.md), and it is looked up first: a
 * committed VALID transaction carrying this very proposal is adopted, not sent again. Before anything is endorsed,
 * reads say whether it is needed and allowed: the committed definition (a sequence behind it or more than one ahead
 * refused; the same definition committed already → "already-committed"), the organization's own approval
 * ("already-approved"), the package on the organization's peers, and for a commit the organizations that approved
 * against the channel's LifecycleEndorsement policy (LifecycleError NOT_APPROVED names those that have not).
 */
import type * as grpc from "@grpc/grpc-js";
import type { TrustedMsp } from "../cert-chain";
import { codecs } from "../codec";
import { deliver, withRetries } from "../delivery";
import type { DeliveryOptions } from "../delivery";
import type { Endorser } from "../endorser-client";
import { isTransactionNotFound } from "../gateway-client";
import type { Gateway } from "../gateway-client";
import { GatewayError } from "../gateway-error";
import { bytesEqual } from "../hash";
import { serializeIdentity } from "../identity";
import type { Identity } from "../identity";
import type { ProcessedTransaction } from "../messages";
import { buildProposal, computeTxId, newNonce } from "../proposal";
import { unwrap } from "../unwrap";
import { validationCodeMeaning, validationCodeName } from "../validation-codes";
import { checkAdminIdentity } from "./admin-identity";
import {
  compareDefinitions,
  describeDifferences,
  PACKAGE_ID_PATTERN,
  prepareDefinition,
  sourceOfPackageId,
} from "./chaincode-definition";
import type { ChaincodeDefinition, PreparedDefinition } from "./chaincode-definition";
import { queryInstalledChaincodes } from "./lifecycle-install";
import { lifecycleCodecs } from "./lifecycle-codecs";
import { LifecycleError } from "./lifecycle-error";
import { readLifecycleEndorsementPolicy } from "./lifecycle-policy";
import {
  checkCommitReadiness,
  LIFECYCLE_CHAINCODE,
  lifecycleErrorOf,
  queryApprovedDefinition,
  queryCommittedDefinition,
} from "./lifecycle-reads";

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

export interface ApproveOptions extends LifecycleStepOptions {
  /** The package the organization's peers run for this definition; absent: none (not invocable there). */
  readonly packageId?: string;
  /** The organization's peers (each an Endorser as its admin): the package must be installed on each first. */
  readonly peers?: readonly Endorser[];
}

export interface CommitOptions extends LifecycleStepOptions {
  /**
   * The organizations whose peers endorse the commit. @default every organization that approved (CheckCommitReadiness)
   */
  readonly endorsingOrganizations?: readonly string[];
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

interface Step {
  readonly gateway: Gateway;
  readonly options: LifecycleStepOptions;
  readonly functionName: "ApproveChaincodeDefinitionForMyOrg" | "CommitChaincodeDefinition";
  readonly args: Uint8Array;
  readonly endorsingOrganizations: readonly string[];
  readonly what: string;
  readonly nonce: Uint8Array;
  readonly delivery: DeliveryOptions;
}

function deliveryOf(options: LifecycleStepOptions, what: string): DeliveryOptions {
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
  try {
    const built = buildProposal({ identity: step.gateway.getIdentity(), ...requestOf(step) });
    const tx = unwrap(codecs.Envelope.encode(processed.transactionEnvelope ?? {}));
    return (
      tx.channelHeader.channelId === step.options.channelId &&
      bytesEqual(tx.actionPayload.chaincodeProposalPayload, built.transactionPayload)
    );
  } catch {
    return false;
  }
}

/** The committed transaction with this step's txId, or undefined (qscc; retried through transient faults). */
async function lookUp(step: Step, txId: string): Promise<ProcessedTransaction | undefined> {
  return withRetries(step.delivery, undefined, async (o: grpc.CallOptions) => {
    try {
      return await step.gateway.getTransactionById(step.options.channelId, txId, o);
    } catch (error) {
      if (isTransactionNotFound(error)) return undefined;
      throw error;
    }
  });
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
async function submitOnce(step: Step): Promise<LifecycleTransactionResult> {
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

/**
 * The committed definition against this one's sequence: undefined when it may be sent, "same" when this very
 * definition is committed; LifecycleError SEQUENCE or DEFINITION_DIFFERS otherwise (nothing sent).
 */
async function checkAgainstCommitted(
  gateway: Gateway,
  prepared: PreparedDefinition,
  options: LifecycleStepOptions,
  what: string,
  approving: boolean,
): Promise<"same" | undefined> {
  const { name, sequence } = prepared.args;
  const committed = await queryCommittedDefinition(gateway, options.channelId, name);
  const current = committed?.sequence ?? 0n;
  const organization = gateway.getIdentity().mspId;
  const refuse = (problem: "SEQUENCE" | "DEFINITION_DIFFERS", message: string): never => {
    throw new LifecycleError({
      problem,
      organization,
      field: "sequence",
      message: `${what}: ${message}; nothing was sent`,
    });
  };
  if (sequence < current) {
    refuse(
      "SEQUENCE",
      `sequence ${sequence.toString()} is lower than the sequence ${current.toString()} committed for ${name} on channel ` +
        `'${options.channelId}': set sequence ${(current + 1n).toString()} for a new definition`,
    );
  }
  if (sequence > current + 1n) {
    refuse(
      "SEQUENCE",
      `sequence ${sequence.toString()} skips ahead: ${name} is committed at sequence ${current.toString()} on channel ` +
        `'${options.channelId}', so the next definition is sequence ${(current + 1n).toString()}`,
    );
  }
  if (committed !== undefined && sequence === current) {
    const differences = compareDefinitions(prepared.view, committed);
    if (differences.length > 0) {
      refuse(
        "DEFINITION_DIFFERS",
        `sequence ${current.toString()} of ${name} is committed with other fields (${describeDifferences(differences)}): ` +
          `set sequence ${(current + 1n).toString()} to define it anew`,
      );
    }
    return approving ? undefined : "same";
  }
  return undefined;
}

/**
 * ApproveChaincodeDefinitionForMyOrg as the gateway identity's organization (its admin), endorsed by its own peer.
 * Refuses before anything is sent: a bad definition or package id (ValidationError), an identity that cannot be the
 * admin, a sequence behind the committed one or skipping ahead, a package not installed on `peers`.
 */
export async function approveChaincodeDefinition(
  gateway: Gateway,
  options: ApproveOptions,
): Promise<LifecycleTransactionResult> {
  const prepared = prepareDefinition(options.definition);
  const organization = gateway.getIdentity().mspId;
  const { name, sequence } = prepared.args;
  const what = `ApproveChaincodeDefinitionForMyOrg of ${name} sequence ${sequence.toString()} by ${organization}`;
  const packageId = options.packageId ?? "";
  if (packageId !== "" && !PACKAGE_ID_PATTERN.test(packageId)) {
    throw new LifecycleError({
      problem: "PACKAGE_NOT_INSTALLED",
      organization,
      field: "packageId",
      message: `${what}: packageId '${packageId}' must be <label>:<64 hex digits>, as installChaincode or calculatepackageid gives it; nothing was sent`,
    });
  }
  await checkAdminIdentity(
    gateway.getIdentity(),
    what,
    options.trustedMsps === undefined ? {} : { trustedMsps: options.trustedMsps },
  );
  const args = lifecycleCodecs.ApproveChaincodeDefinitionForMyOrgArgs.encode({
    ...prepared.args,
    source: sourceOfPackageId(packageId),
  });
  const step: Step = {
    gateway,
    options,
    functionName: "ApproveChaincodeDefinitionForMyOrg",
    args,
    endorsingOrganizations: [organization],
    what,
    nonce: options.nonce ?? newNonce(),
    delivery: deliveryOf(options, what),
  };
  if (options.nonce !== undefined) {
    const txId = lifecycleTransactionId(gateway.getIdentity(), options.nonce);
    const committed = await lookUp(step, txId);
    if (committed !== undefined) return submitOnce(step);
  }
  await checkAgainstCommitted(gateway, prepared, options, what, true);
  const approved = await queryApprovedDefinition(gateway, options.channelId, name, { sequence, organization });
  if (approved !== undefined && compareDefinitions({ ...prepared.view, packageId }, approved).length === 0) {
    return { outcome: "already-approved", transactionId: undefined, blockNumber: undefined, submissions: 0 };
  }
  if (packageId !== "") {
    for (const peer of options.peers ?? []) {
      const installed = await queryInstalledChaincodes(peer);
      if (!installed.some((p) => p.packageId === packageId)) {
        throw new LifecycleError({
          problem: "PACKAGE_NOT_INSTALLED",
          organization,
          field: "packageId",
          message:
            `${what}: package ${packageId} is not installed on ${organization}'s peer at ${peer.address} (it has ` +
            `${installed.map((p) => p.packageId).join(", ") || "none"}): install it there first; nothing was sent`,
        });
      }
    }
  }
  return submitOnce(step);
}

/**
 * CommitChaincodeDefinition, endorsed by the organizations that approved, sent only when they meet the channel's
 * LifecycleEndorsement policy (LifecycleError NOT_APPROVED names those that have not approved otherwise). The
 * definition committed already is "already-committed"; a sequence behind or ahead of the next is refused.
 */
export async function commitChaincodeDefinition(
  gateway: Gateway,
  options: CommitOptions,
): Promise<LifecycleTransactionResult & { readonly approvals: Readonly<Record<string, boolean>> }> {
  const prepared = prepareDefinition(options.definition);
  const organization = gateway.getIdentity().mspId;
  const { name, sequence } = prepared.args;
  const what = `CommitChaincodeDefinition of ${name} sequence ${sequence.toString()} on channel '${options.channelId}'`;
  await checkAdminIdentity(
    gateway.getIdentity(),
    what,
    options.trustedMsps === undefined ? {} : { trustedMsps: options.trustedMsps },
  );
  const nonce = options.nonce ?? newNonce();
  const stepOf = (endorsingOrganizations: readonly string[]): Step => ({
    gateway,
    options,
    functionName: "CommitChaincodeDefinition",
    args: lifecycleCodecs.CommitChaincodeDefinitionArgs.encode(prepared.args),
    endorsingOrganizations,
    what,
    nonce,
    delivery: deliveryOf(options, what),
  });
  if (options.nonce !== undefined) {
    const probe = stepOf([]);
    const committed = await lookUp(probe, lifecycleTransactionId(gateway.getIdentity(), options.nonce));
    if (committed !== undefined) return { ...(await submitOnce(probe)), approvals: {} };
  }
  if ((await checkAgainstCommitted(gateway, prepared, options, what, false)) === "same") {
    const approvals = (await queryCommittedDefinition(gateway, options.channelId, name))?.approvals ?? {};
    return {
      outcome: "already-committed",
      transactionId: undefined,
      blockNumber: undefined,
      submissions: 0,
      approvals,
    };
  }
  const approvals = await checkCommitReadiness(gateway, options.channelId, prepared);
  const policy = await readLifecycleEndorsementPolicy(gateway, options.channelId);
  const approved = policy.organizations.filter((o) => approvals[o] === true);
  if (!policy.isMetBy(new Set(approved))) {
    const missing = policy.organizations.filter((o) => approvals[o] !== true);
    throw new LifecycleError({
      problem: "NOT_APPROVED",
      organization,
      organizations: missing,
      field: "definition",
      message:
        `${what}: the channel's LifecycleEndorsement policy (${policy.description}) is not met: ` +
        `${approved.length === 0 ? "no organization has approved this definition" : `approved by ${approved.join(", ")}`}, ` +
        `not by ${missing.join(", ")}. Approve this very definition (sequence ${sequence.toString()}) as the admin of ` +
        `${missing.length === 1 ? (missing[0] ?? "") : "each of them"}, then commit; nothing was sent`,
    });
  }
  const result = await submitOnce(stepOf(options.endorsingOrganizations ?? approved));
  return { ...result, approvals };
}
