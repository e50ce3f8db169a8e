/**
 * Committer stage C (Fabric core/committer/txvalidator/v20/plugindispatcher Dispatch) for an endorser transaction
 * that passed stage A: header extension, chaincode action, read-write set, chaincode identity and version, event,
 * namespaces, and finally the endorsement policy with endorsement-signature verification, in that order.
 */
import type { ChannelConfig } from "./channel-config";
import { describePolicy, evaluateEndorsements } from "./endorsement-policy";
import type { EndorserTransaction } from "./envelope-checks";
import type { ChaincodeEvent, KVRWSet } from "./messages";
import { TxValidationCode } from "../../provider/ledger/protos/tx-validation-code";
import { tryDecode } from "./wire";

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
}

function failure(code: number, reason: string): ActionCheck {
  return { code, reason };
}

/** Parses the results like Fabric's TxRwSet.FromProtoBytes: the outer set and every nested KV / hashed set. */
function parseResults(results: Buffer): NamespaceRwSet[] | undefined {
  const txRwSet = tryDecode("rwset.TxReadWriteSet", results);
  if (txRwSet === undefined) return undefined;
  const sets: NamespaceRwSet[] = [];
  for (const ns of txRwSet.nsRwset) {
    const kv = tryDecode("kvrwset.KVRWSet", ns.rwset);
    if (kv === undefined) return undefined;
    for (const c of ns.collectionHashedRwset) {
      if (tryDecode("kvrwset.HashedRWSet", c.hashedRwset) === undefined) return undefined;
    }
    sets.push({ namespace: ns.namespace, kv });
  }
  return sets;
}

function writesTo(set: NamespaceRwSet): boolean {
  return set.kv.writes.length > 0 || set.kv.metadataWrites.length > 0;
}

export async function checkAction(tx: EndorserTransaction, config: ChannelConfig): Promise<ActionCheck> {
  const extension = tryDecode("protos.ChaincodeHeaderExtension", tx.channelHeader.extension);
  if (extension === undefined) return failure(TxValidationCode.BAD_HEADER_EXTENSION, "header extension does not parse");
  const prp = tryDecode("protos.ProposalResponsePayload", tx.proposalResponsePayload);
  const action = prp === undefined ? undefined : tryDecode("protos.ChaincodeAction", prp.extension);
  if (action === undefined) return failure(TxValidationCode.BAD_RESPONSE_PAYLOAD, "chaincode action does not parse");
  const rwsets = parseResults(action.results);
  if (rwsets === undefined) return failure(TxValidationCode.BAD_RWSET, "results are not a valid TxReadWriteSet");
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
    if (namespace !== config.chaincode.name) {
      return failure(
        TxValidationCode.INVALID_CHAINCODE,
        `no chaincode definition for ${namespace} on ${config.channel}`,
      );
    }
  }
  const endorsements = tx.actionPayload.action?.endorsements ?? [];
  const evaluation = await evaluateEndorsements(config.policy, config.msp, tx.proposalResponsePayload, endorsements);
  if (!evaluation.satisfied) {
    const by = evaluation.endorsingOrganizations.join(", ") || "no organization";
    const problems = evaluation.problems.length > 0 ? `; ${evaluation.problems.join("; ")}` : "";
    return failure(
      TxValidationCode.ENDORSEMENT_POLICY_FAILURE,
      `endorsement policy ${describePolicy(config.policy)} not satisfied (valid endorsements by ${by})${problems}`,
    );
  }
  return event === undefined
    ? { code: TxValidationCode.VALID, reason: "", rwsets }
    : { code: TxValidationCode.VALID, reason: "", rwsets, event };
}
