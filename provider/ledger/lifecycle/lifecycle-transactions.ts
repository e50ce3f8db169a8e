/**
 * The two _lifecycle transactions, endorsed through a gateway and ordered once: ApproveChaincodeDefinitionForMyOrg
 * (endorsed by the approving organization's own peer, which writes the approval into that organization's implicit
 * collection) and CommitChaincodeDefinition (endorsed by the peers of the organizations that approved, each of which
 * refuses a definition its organization did not approve), sent by lifecycle-submit.ts (exactly once by the caller's
 * nonce). Before anything is endorsed, reads say whether it is needed and allowed: the committed definition (a
 * sequence behind it or more than one ahead refused; the same definition committed already → "already-committed"),
 * the organization's own approval ("already-approved"), the package on the organization's peers, and for a commit the
 * organizations that approved against the channel's LifecycleEndorsement policy (LifecycleError NOT_APPROVED names
 * those that have not).
 */
import type { Endorser } from "../endorser-client";
import type { Gateway } from "../gateway-client";
import { newNonce } from "../proposal";
import { checkAdminIdentity } from "./admin-identity";
import {
  compareDefinitions,
  describeDifferences,
  PACKAGE_ID_PATTERN,
  prepareDefinition,
  sourceOfPackageId,
} from "./chaincode-definition";
import type { PreparedDefinition } from "./chaincode-definition";
import { queryInstalledChaincodes } from "./lifecycle-install";
import { lifecycleCodecs } from "./lifecycle-codecs";
import { LifecycleError } from "../../errors/ledger/lifecycle-error";
import { readLifecycleEndorsementPolicy } from "./lifecycle-policy";
import { checkCommitReadiness, queryApprovedDefinition, queryCommittedDefinition } from "./lifecycle-reads";
import { deliveryOf, lifecycleTransactionId, lookUp, submitOnce } from "./lifecycle-submit";
import type { LifecycleStepOptions, LifecycleTransactionResult, Step } from "./lifecycle-submit";

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
