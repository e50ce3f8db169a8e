/**
 * ledger.ChaincodeDefinition: a chaincode definition committed on a channel (CommitChaincodeDefinition), sent exactly
 * once across retries and a killed `pulumi up`, and only when CheckCommitReadiness says the organizations that
 * approved meet the channel's LifecycleEndorsement policy — otherwise the error names those that have not approved.
 *
 * check plans it from the channel (chaincode-plan.ts: the committed definition, the next sequence for any changed
 * field) and says on the resource's row what would be sent and the commit readiness per organization. create and
 * update commit through the library (provider/ledger/lifecycle/lifecycle-transactions.ts) with the generation's
 * nonce: this resource's transaction already committed is adopted, the same definition committed by anyone else is
 * not sent again. The commit is reported once every endorsing organization's peer has it, so that a transaction on
 * the chaincode that follows is endorsed there. refresh reads the committed definition (drift: any field another admin
 * changed; the next `up` commits the declared one at the next sequence); destroy sends nothing (Fabric cannot remove a
 * committed definition) and says so.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { awaitEndorsingPeers } from "../../../ledger/endorsing-peers";
import { commitChaincodeDefinition } from "../../../ledger/lifecycle/lifecycle-transactions";
import { queryCommittedDefinition } from "../../../ledger/lifecycle/lifecycle-reads";
import type { CommittedDefinition } from "../../../ledger/lifecycle/lifecycle-reads";
import { log } from "../../../runtime/context";
import { hasUnknown } from "../ledger-values";
import { organizationsFailures } from "../ledger-transaction-inputs";
import { resourceFrame, sessionChanged, sessionOutputs, withSession } from "../session/ledger-session";
import { declaredView, libraryDefinition, textView, viewDifferences } from "./chaincode-inputs";
import { approvalsText, planSequence, readinessText, sendsKey, stepNonce } from "./chaincode-plan";
import type { ChaincodeCommittedView, ChaincodeDefinitionOutcome, ChaincodeDefinitionShape } from "./chaincode-shapes";
import {
  checkStep,
  differs,
  refreshStep,
  outcomeOutputs,
  reportOn,
  sendOnce,
  stepFailures,
  stepTimeoutMs,
  subjectOf,
  trustedMspsOf,
} from "./chaincode-step";
import type { ChaincodeStepInputs, ChaincodeStepOutputs } from "./chaincode-step";

export type ChaincodeDefinitionInputs = ChaincodeStepInputs & Pick<ChaincodeDefinitionShape, "endorsingOrganizations">;
export type ChaincodeDefinitionOutputs = ChaincodeStepOutputs<ChaincodeDefinitionInputs> &
  Pick<ChaincodeDefinitionOutcome, "committed">;

const committedView = (c: CommittedDefinition): ChaincodeCommittedView => ({
  ...textView(c),
  approvals: { ...c.approvals },
});

async function check(
  olds: Partial<ChaincodeDefinitionInputs>,
  news: ChaincodeDefinitionInputs,
): Promise<dynamic.CheckResult> {
  const failures = await stepFailures(news, organizationsFailures(news.endorsingOrganizations));
  return checkStep("commit", olds, news, failures, async (gateway) => {
    const plan = await planSequence(gateway, news.channel, news.definition);
    if ("failure" in plan) return plan.failure;
    const { name, version } = news.definition;
    const seq = plan.sequence.toString();
    if (plan.alreadyCommitted) {
      const approvals = plan.committed === undefined ? "" : ` (${approvalsText(plan.committed.approvals)})`;
      return {
        plan,
        says: `${name} sequence ${seq} is committed on channel '${news.channel}' as declared${approvals}: nothing to send`,
      };
    }
    const readiness = await readinessText(gateway, news.channel, plan.prepared);
    return {
      plan,
      says:
        `to send: CommitChaincodeDefinition of ${name} sequence ${seq} (version ${version}, endorsementPolicy ` +
        `${plan.prepared.view.endorsementPolicy}) on channel '${news.channel}'; ${readiness}`,
    };
  });
}

async function diff(
  _id: string,
  olds: ChaincodeDefinitionOutputs,
  news: ChaincodeDefinitionInputs,
): Promise<dynamic.DiffResult> {
  const replaces = [
    ...(differs(olds.channel, news.channel) ? ["channel"] : []),
    ...(differs(olds.definition.name, news.definition.name) ? ["definition"] : []),
  ];
  const sends =
    hasUnknown(news.definition) || sendsKey(olds.channel, olds.definition) !== sendsKey(news.channel, news.definition);
  // The committed definition as last read (after a refresh: another admin's) against what is declared.
  const drifted =
    !hasUnknown(news.definition) &&
    viewDifferences(declaredView(news.definition, news.definition.sequence ?? 1), olds.committed).length > 0;
  const settings = (
    ["endorsingOrganizations", "trustedRootCertificates", "timeouts", "channelCapability"] as const
  ).some((k) => differs(olds[k], news[k]));
  return Promise.resolve({
    changes: replaces.length > 0 || sends || drifted || settings || sessionChanged(olds, news),
    replaces,
    deleteBeforeReplace: false,
  });
}

/** Commits (or adopts, or finds committed), then reads the committed definition back. */
async function commit(i: ChaincodeDefinitionInputs, step: "create" | "update"): Promise<ChaincodeDefinitionOutputs> {
  const subject = subjectOf("commit", i.__urn);
  return withSession(i, step, resourceFrame(subject, { urn: i.__urn }), async ({ gateway }) => {
    const sequence = i.definition.sequence ?? 1;
    const { result, generation } = await sendOnce(subject, i.__urn, i.__generation ?? 1, (g) =>
      commitChaincodeDefinition(gateway, {
        channelId: i.channel,
        definition: libraryDefinition(i.definition, sequence),
        nonce: stepNonce(i.identity, i.__urn, "commit", g),
        trustedMsps: trustedMspsOf(i.trustedRootCertificates),
        ...(i.endorsingOrganizations === undefined ? {} : { endorsingOrganizations: i.endorsingOrganizations }),
        address: i.gateway.address,
        timeoutMs: stepTimeoutMs(i.timeouts, step),
        report: reportOn(i.__urn, subject),
      }),
    );
    const committed = await queryCommittedDefinition(gateway, i.channel, i.definition.name);
    if (committed === undefined) throw new Error(`${subject}: the committed definition cannot be read back`);
    if (result.outcome === "already-committed") {
      log("info", `${subject}: the channel had committed this definition already: nothing was sent`, i.__urn);
    } else if (result.transactionId !== undefined) {
      // The approving organizations' peers endorse the chaincode's transactions: each must have the definition.
      const endorsers = Object.keys(committed.approvals).filter((o) => committed.approvals[o] === true);
      const behind = await awaitEndorsingPeers(gateway, i.channel, result.transactionId, endorsers);
      if (behind.length > 0) {
        log(
          "warning",
          `${subject}: the definition is committed, but the peer of ${behind.join(", ")} did not report it within the ` +
            "wait; a transaction on the chaincode may fail to endorse there until that peer catches up",
          i.__urn,
        );
      }
    }
    const { gateway: _g, identity: _i, txId: _t, ...rest } = i;
    return {
      ...rest,
      ...sessionOutputs(i),
      ...outcomeOutputs(result),
      __generation: generation,
      committed: committedView(committed),
    };
  });
}

export const chaincodeDefinitionProvider = {
  check,
  diff,
  async create(inputs: ChaincodeDefinitionInputs): Promise<dynamic.CreateResult> {
    return { id: `${inputs.channel}/${inputs.definition.name}`, outs: await commit(inputs, "create") };
  },
  async update(
    _id: string,
    _olds: ChaincodeDefinitionOutputs,
    news: ChaincodeDefinitionInputs,
  ): Promise<dynamic.UpdateResult> {
    return { outs: await commit(news, "update") };
  },
  /** Refresh: the definition committed now; any field that differs from the declared one is reported. */
  read(id: string, props: ChaincodeDefinitionOutputs): Promise<dynamic.ReadResult> {
    return refreshStep(id, props, {
      step: "commit",
      key: "committed",
      read: async (gateway) => {
        const now = await queryCommittedDefinition(gateway, props.channel, props.definition.name);
        return now === undefined ? undefined : committedView(now);
      },
      declared: declaredView(props.definition, props.definition.sequence ?? 1),
      says: (changed) =>
        `the definition of ${props.definition.name} committed on channel '${props.channel}' differs from the ` +
        `declared one (${changed}): the next pulumi up commits the declared definition at the next sequence, once ` +
        "its organizations have approved it",
    });
  },
  /** A committed definition cannot be removed from a channel: destroy sends nothing and says so. */
  delete(_id: string, props: ChaincodeDefinitionOutputs): Promise<void> {
    log(
      "info",
      `${subjectOf("commit", props.__urn)}: the definition of ${props.definition.name} (sequence ` +
        `${String(props.committed.sequence)}) stays committed on channel '${props.channel}': Fabric cannot remove a ` +
        "committed definition; it leaves the stack only",
      props.__urn,
    );
    return Promise.resolve();
  },
};
