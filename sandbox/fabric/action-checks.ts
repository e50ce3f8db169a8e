/**
 * Committer stage C (Fabric core/committer/txvalidator/v20/plugindispatcher Dispatch) for an endorser transaction
 * that passed stage A: header extension, chaincode action, read-write set, chaincode identity and version, event,
 * namespaces, and finally the endorsement policy with endorsement-signature verification, in that order.
 */
import type { ChannelConfig } from "./channel-config";
import { lifecycleEndorsement, namespacePolicy, type EndorsementCheck } from "./chaincode-definitions";
import { describePolicy, evaluateEndorsements, verifiedEndorsers } from "./endorsement-policy";
import type { ApproveArgs } from "./lifecycle-messages";
import { LIFECYCLE_SCC, organizationOfCollection } from "./lifecycle-store";
import type { EndorserTransaction } from "./envelope-checks";
import type { ChaincodeEvent, KVRWSet } from "./messages";
import { TxValidationCode } from "./validation-codes";
import { tryDecode } from "./wire";
import type { WorldState } from "./world-state";

export interface NamespaceRwSet {
  readonly namespace: string;
  readonly kv: KVRWSet;
}

export interface ActionCheck {
  readonly code: number;
  readonly reason: string;
  /** For a VALID action: the public read-write sets by namespace, and the chaincode event if any. */
  readonly rwsets?: readonly NamespaceRwSet[];
  readonly event?: ChaincodeEvent;
  /** For a VALID _lifecycle approval: what the committer records once the transaction is VALID. */
  readonly approval?: RecordedApproval;
}

/** An organization's approval, as a VALID ApproveChaincodeDefinitionForMyOrg transaction carries it. */
export interface RecordedApproval {
  readonly mspId: string;
  readonly args: ApproveArgs;
}

function failure(code: number, reason: string): ActionCheck {
  return { code, reason };
}

/** Parses the results like Fabric's TxRwSet.FromProtoBytes: the outer set and every nested KV / hashed set. */
function parseResults(results: Buffer): { sets: NamespaceRwSet[]; collectionWrites: string[] } | undefined {
  const txRwSet = tryDecode("rwset.TxReadWriteSet", results);
  if (txRwSet === undefined) return undefined;
  const sets: NamespaceRwSet[] = [];
  const collectionWrites: string[] = [];
  for (const ns of txRwSet.nsRwset) {
    const kv = tryDecode("kvrwset.KVRWSet", ns.rwset);
    if (kv === undefined) return undefined;
    for (const c of ns.collectionHashedRwset) {
      const hashed = tryDecode("kvrwset.HashedRWSet", c.hashedRwset);
      if (hashed === undefined) return undefined;
      if (hashed.hashedWrites.length > 0) collectionWrites.push(c.collectionName);
    }
    sets.push({ namespace: ns.namespace, kv });
  }
  return { sets, collectionWrites };
}

/** The ApproveChaincodeDefinitionForMyOrg arguments of a _lifecycle transaction's proposal, if it is one. */
function approvalArgs(tx: EndorserTransaction): ApproveArgs | undefined {
  const payload = tryDecode("protos.ChaincodeProposalPayload", tx.actionPayload.chaincodeProposalPayload);
  const spec = payload === undefined ? undefined : tryDecode("protos.ChaincodeInvocationSpec", payload.input);
  const [fn, input] = spec?.chaincodeSpec?.input?.args ?? [];
  if (fn?.toString("utf8") !== "ApproveChaincodeDefinitionForMyOrg" || input === undefined) return undefined;
  return tryDecode("lifecycle.ApproveChaincodeDefinitionForMyOrgArgs", input);
}

function writesTo(set: NamespaceRwSet): boolean {
  return set.kv.writes.length > 0 || set.kv.metadataWrites.length > 0;
}

export async function checkAction(
  tx: EndorserTransaction,
  config: ChannelConfig,
  state: WorldState,
): Promise<ActionCheck> {
  const extension = tryDecode("protos.ChaincodeHeaderExtension", tx.channelHeader.extension);
  if (extension === undefined) return failure(TxValidationCode.BAD_HEADER_EXTENSION, "header extension does not parse");
  const prp = tryDecode("protos.ProposalResponsePayload", tx.proposalResponsePayload);
  const action = prp === undefined ? undefined : tryDecode("protos.ChaincodeAction", prp.extension);
  if (action === undefined) return failure(TxValidationCode.BAD_RESPONSE_PAYLOAD, "chaincode action does not parse");
  const parsed = parseResults(action.results);
  if (parsed === undefined) return failure(TxValidationCode.BAD_RWSET, "results are not a valid TxReadWriteSet");
  const rwsets = parsed.sets;
  if (extension.chaincodeId === null || action.chaincodeId === null) {
    return failure(TxValidationCode.INVALID_OTHER_REASON, "chaincode id missing from header extension or action");
  }
  const name = extension.chaincodeId.name;
  if (name === "") return failure(TxValidationCode.INVALID_CHAINCODE, "empty chaincode name in header extension");
  if (action.chaincodeId.name !== name) {
    return failure(
      TxValidationCode.INVALID_CHAINCODE,
      `chaincode name ${action.chaincodeId.name} in the action differs from ${name} in the header`,
    );
  }
  if (action.chaincodeId.version === "") return failure(TxValidationCode.INVALID_CHAINCODE, "empty chaincode version");

  let event: ChaincodeEvent | undefined;
  if (action.events.length > 0) {
    event = tryDecode("protos.ChaincodeEvent", action.events);
    if (event === undefined) return failure(TxValidationCode.INVALID_OTHER_REASON, "chaincode event does not parse");
    if (event.chaincodeId !== name) {
      return failure(
        TxValidationCode.INVALID_OTHER_REASON,
        `chaincode event from ${event.chaincodeId}, expected ${name}`,
      );
    }
  }

  const seen = new Set<string>();
  for (const set of rwsets) {
    if (seen.has(set.namespace)) {
      return failure(
        TxValidationCode.ILLEGAL_WRITESET,
        `namespace ${set.namespace} appears twice in the read-write set`,
      );
    }
    seen.add(set.namespace);
  }
  // The invoked chaincode is always validated (V1_2 capability), plus every other namespace the transaction writes.
  const validated = [name, ...rwsets.filter((s) => s.namespace !== name && writesTo(s)).map((s) => s.namespace)];
  for (const namespace of validated) {
    if (namespace !== LIFECYCLE_SCC && namespacePolicy(config, state, namespace) === undefined) {
      return failure(
        TxValidationCode.INVALID_CHAINCODE,
        `no chaincode definition for ${namespace} on ${config.channel}`,
      );
    }
  }
  const endorsements = tx.actionPayload.action?.endorsements ?? [];
  if (validated.every((n) => n === config.chaincode.name)) {
    // The built-in chaincode alone: its rule, with the reasons other endorsements did not count.
    const evaluation = await evaluateEndorsements(config.policy, config.msp, tx.proposalResponsePayload, endorsements);
    if (!evaluation.satisfied) {
      const by = evaluation.endorsingOrganizations.join(", ") || "no organization";
      const problems = evaluation.problems.length > 0 ? `; ${evaluation.problems.join("; ")}` : "";
      return failure(
        TxValidationCode.ENDORSEMENT_POLICY_FAILURE,
        `endorsement policy ${describePolicy(config.policy)} not satisfied (valid endorsements by ${by})${problems}`,
      );
    }
  } else {
    const { identities, problems } = await verifiedEndorsers(config.msp, tx.proposalResponsePayload, endorsements);
    const failed = namespaceChecks(config, state, validated, rwsets, parsed.collectionWrites).find(
      (check) => !check.satisfiedBy(identities),
    );
    if (failed !== undefined) {
      const by = identities.map((i) => `${i.mspId}.${i.role}`).join(", ") || "no one";
      return failure(
        TxValidationCode.ENDORSEMENT_POLICY_FAILURE,
        `endorsement policy ${failed.description} not satisfied (valid endorsements by ${by})${problems.length > 0 ? `; ${problems.join("; ")}` : ""}`,
      );
    }
  }
  const args = name === LIFECYCLE_SCC ? approvalArgs(tx) : undefined;
  const mspId = parsed.collectionWrites.map(organizationOfCollection).find((m) => m !== undefined);
  return {
    code: TxValidationCode.VALID,
    reason: "",
    rwsets,
    ...(event === undefined ? {} : { event }),
    ...(args === undefined || mspId === undefined ? {} : { approval: { mspId, args } }),
  };
}

/**
 * What each validated namespace needs endorsed: an application chaincode its definition's policy; _lifecycle, when it
 * writes public state (a commit), the channel's LifecycleEndorsement, and for each implicit collection it writes (an
 * approval) a peer of that collection's organization.
 */
function namespaceChecks(
  config: ChannelConfig,
  state: WorldState,
  validated: readonly string[],
  rwsets: readonly NamespaceRwSet[],
  collectionWrites: readonly string[],
): EndorsementCheck[] {
  const checks: EndorsementCheck[] = [];
  for (const namespace of validated) {
    if (namespace !== LIFECYCLE_SCC) {
      const policy = namespacePolicy(config, state, namespace);
      if (policy !== undefined) checks.push(policy);
      continue;
    }
    if (rwsets.some((s) => s.namespace === LIFECYCLE_SCC && writesTo(s))) checks.push(lifecycleEndorsement(config));
    for (const collection of collectionWrites) {
      const owner = organizationOfCollection(collection);
      checks.push({
        description: `${owner ?? collection}'s Endorsement for its implicit collection`,
        satisfiedBy: (endorsers) => endorsers.some((e) => e.mspId === owner && e.role === "peer"),
      });
    }
  }
  return checks;
}
