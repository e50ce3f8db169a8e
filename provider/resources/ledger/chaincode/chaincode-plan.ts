/**
 * What an approval or a commit would send, decided from the channel as it is now (preview included): the sequence, the
 * commit readiness per organization, and the txId of the resource's generation.
 *
 * The sequence (docs/decisions/0077-chaincode-sequence-chosen-from-the-channel.md): the committed sequence when the
 * channel has committed this very definition, else the next one — so a change of any field, or a definition another
 * admin committed in its place, is approved and committed again at the next sequence. An approval also goes to the
 * next sequence when its organization has approved a newer, uncommitted one (it approves the declared definition
 * there). A declared `definition.sequence` is an assertion: one lower than the committed sequence, one that skips
 * ahead, or the committed one with other fields is refused naming the field and the fix, before anything is sent.
 *
 * The txIds (decision 0069): `deriveNonce(creator, "<URN>#approve" | "<URN>#commit", generation)`, the generation
 * bumped whenever what the step sends changes (the definition at its sequence, the package id).
 */
import type { FieldFailure } from "../../../errors";
import { ValidationError } from "../../../errors";
import { LifecycleError } from "../../../errors/ledger/lifecycle-error";
import { LedgerReadError } from "../../../errors/ledger/ledger-read-error";
import type { Gateway } from "../../../ledger";
import {
  compareDefinitions,
  describeDifferences,
  prepareDefinition,
} from "../../../ledger/lifecycle/chaincode-definition";
import type { PreparedDefinition } from "../../../ledger/lifecycle/chaincode-definition";
import { readLifecycleEndorsementPolicy } from "../../../ledger/lifecycle/lifecycle-policy";
import {
  checkCommitReadiness,
  queryApprovedDefinition,
  queryCommittedDefinition,
} from "../../../ledger/lifecycle/lifecycle-reads";
import type { CommittedDefinition } from "../../../ledger/lifecycle/lifecycle-reads";
import { messageOf } from "../../common";
import { creatorOf, deriveNonce, deriveTxId } from "../ledger-transaction-txid";
import { canonical } from "../ledger-values";
import { libraryDefinition } from "./chaincode-inputs";
import type { ChaincodeDefinitionFields } from "./chaincode-shapes";

/** The two lifecycle steps a resource makes, each with its own txIds. */
export type LifecycleStep = "approve" | "commit";

/** The key a step's nonce is derived from: never a resource's URN itself (decision 0069). */
export const stepKey = (urn: string, step: LifecycleStep): string => `${urn}#${step}`;

/** The nonce of a step's generation: decision 0016's derivation, keyed by the step. */
export function stepNonce(
  identity: { mspId: string; certificatePem: string },
  urn: string,
  step: LifecycleStep,
  generation: number,
): Uint8Array {
  return deriveNonce(creatorOf(identity), stepKey(urn, step), generation);
}

/** The txId of a step's generation. */
export function stepTxId(
  identity: { mspId: string; certificatePem: string },
  urn: string,
  step: LifecycleStep,
  generation: number,
): string {
  return deriveTxId(identity, stepKey(urn, step), generation);
}

/** What a step sends, as one canonical text: a change is a new generation. */
export function sendsKey(channel: string, definition: ChaincodeDefinitionFields, packageId?: string): string {
  return canonical({ channel, definition, packageId: packageId ?? "" });
}

/** The planned sequence and what it was read from. */
export interface SequencePlan {
  readonly sequence: bigint;
  /** The definition at that sequence, checked. */
  readonly prepared: PreparedDefinition;
  readonly committed: CommittedDefinition | undefined;
  /** Whether the channel has committed this very definition at that sequence (nothing to approve or commit anew). */
  readonly alreadyCommitted: boolean;
}

/** A declared sequence checked against the committed one: the failure naming `definition.sequence`, or undefined. */
function declaredSequenceFailure(
  declared: number,
  name: string,
  channel: string,
  committed: CommittedDefinition | undefined,
  differences: string,
): FieldFailure | undefined {
  const current = Number(committed?.sequence ?? 0n);
  const fix = `leave sequence out to let the resource choose, or set ${String(current + 1)}`;
  if (declared < current) {
    return {
      property: "definition.sequence",
      reason:
        `${String(declared)} is lower than the sequence ${String(current)} committed for ${name} on channel ` +
        `'${channel}': ${fix}`,
    };
  }
  if (declared > current + 1) {
    return {
      property: "definition.sequence",
      reason:
        `${String(declared)} skips ahead: ${name} is committed at sequence ${String(current)} on channel '${channel}', ` +
        `so the next definition is sequence ${String(current + 1)}: ${fix}`,
    };
  }
  if (declared === current && differences !== "") {
    return {
      property: "definition.sequence",
      reason: `sequence ${String(current)} of ${name} is committed with other fields (${differences}): ${fix}`,
    };
  }
  return undefined;
}

/**
 * The sequence an approval (`newest`: its organization's newest approval, read when given) or a commit sends the
 * declared definition at, from the committed definition; or the failure of a declared sequence.
 */
export async function planSequence(
  gateway: Gateway,
  channel: string,
  fields: ChaincodeDefinitionFields,
  approvalOf?: string,
): Promise<SequencePlan | { readonly failure: FieldFailure }> {
  const committed = await queryCommittedDefinition(gateway, channel, fields.name);
  const current = committed?.sequence ?? 0n;
  const atCurrent = prepareDefinition(libraryDefinition(fields, current === 0n ? 1n : current));
  const differences = committed === undefined ? [] : compareDefinitions(atCurrent.view, committed);
  const equal = committed !== undefined && differences.length === 0;
  if (fields.sequence !== undefined) {
    const failure = declaredSequenceFailure(
      fields.sequence,
      fields.name,
      channel,
      committed,
      describeDifferences(differences),
    );
    if (failure !== undefined) return { failure };
  }
  let sequence = fields.sequence === undefined ? (equal ? current : current + 1n) : BigInt(fields.sequence);
  if (fields.sequence === undefined && equal && approvalOf !== undefined) {
    const newest = await queryApprovedDefinition(gateway, channel, fields.name, { organization: approvalOf });
    if (newest !== undefined && newest.sequence > current) sequence = newest.sequence;
  }
  return {
    sequence,
    prepared: prepareDefinition(libraryDefinition(fields, sequence)),
    committed,
    alreadyCommitted: equal && sequence === current,
  };
}

/** The readiness of a definition, per organization, and whether the LifecycleEndorsement policy is met: for messages. */
export async function readinessText(gateway: Gateway, channel: string, prepared: PreparedDefinition): Promise<string> {
  const approvals = await checkCommitReadiness(gateway, channel, prepared);
  const policy = await readLifecycleEndorsementPolicy(gateway, channel);
  const approved = policy.organizations.filter((o) => approvals[o] === true);
  const each = policy.organizations.map((o) => `${o} ${approvals[o] === true ? "yes" : "no"}`).join(", ");
  const met = policy.isMetBy(new Set(approved)) ? "met" : "not met yet: a commit waits for it";
  return `approved now: ${each}; LifecycleEndorsement ${policy.description} ${met}`;
}

/** The readable approvals of a committed definition ("Org1MSP approved, Org2MSP not"). */
export function approvalsText(approvals: Readonly<Record<string, boolean>>): string {
  return Object.entries(approvals)
    .map(([org, yes]) => `${org} ${yes ? "approved" : "not"}`)
    .join(", ");
}

/** The failure a check reports for an error of its reads: the field the error names, and its message. */
export function readFailure(error: unknown): FieldFailure {
  if (error instanceof LifecycleError) {
    const field = error.field ?? "identity";
    return { property: field === "sequence" ? "definition.sequence" : field, reason: error.message };
  }
  if (error instanceof LedgerReadError) return { property: error.field, reason: error.message };
  if (error instanceof ValidationError) return error.failures[0] ?? { property: "definition", reason: error.message };
  return { property: "gateway", reason: `the channel could not be read: ${messageOf(error)}` };
}
