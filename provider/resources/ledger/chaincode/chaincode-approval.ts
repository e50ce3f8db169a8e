/**
 * ledger.ChaincodeApproval: an organization's approval of a chaincode definition (ApproveChaincodeDefinitionForMyOrg,
 * signed by its admin and endorsed by its own peer), sent exactly once across retries and a killed `pulumi up`.
 *
 * check plans it from the channel (chaincode-plan.ts: the sequence; the package installed on the organization's
 * peers) and says on the resource's row what would be sent and the commit readiness per organization; a declared
 * sequence lower than the committed one, or a package not installed, fails there naming the field, before anything
 * is sent. create and update send it through the library (provider/ledger/lifecycle/lifecycle-transactions.ts) with
 * the generation's nonce: a transaction of this resource already committed is adopted, an approval the organization
 * has already made is not sent again. An approval is reported once every organization's peer has it, so that a commit
 * that follows — in this program or another organization's — counts it in its readiness. refresh reads the
 * organization's newest approval (drift: any field another admin changed, the package id included); destroy sends
 * nothing (Fabric cannot withdraw an approval) and says so.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { log } from "../../../runtime/context";
import { awaitEndorsingPeers } from "../../../ledger/endorsing-peers";
import { approveChaincodeDefinition } from "../../../ledger/lifecycle/lifecycle-transactions";
import { queryInstalledChaincodes } from "../../../ledger/lifecycle/lifecycle-install";
import { queryApprovedDefinition } from "../../../ledger/lifecycle/lifecycle-reads";
import { readLifecycleEndorsementPolicy } from "../../../ledger/lifecycle/lifecycle-policy";
import { hasUnknown } from "../ledger-values";
import { resourceFrame, sessionChanged, sessionOutputs, withSession } from "../session/ledger-session";
import type { Connection } from "../session/gateway-connection";
import type { Gateway } from "../../../ledger";
import type { FieldFailure } from "../../../errors";
import {
  approvalView,
  declaredView,
  libraryDefinition,
  packageIdFailures,
  peersFailures,
  viewDifferences,
} from "./chaincode-inputs";
import { openPeers } from "./chaincode-peers";
import { planSequence, readinessText, sendsKey, stepNonce } from "./chaincode-plan";
import type { ChaincodeApprovalOutcome, ChaincodeApprovalShape } from "./chaincode-shapes";
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

export type ChaincodeApprovalInputs = ChaincodeStepInputs & Pick<ChaincodeApprovalShape, "packageId" | "peers">;
export type ChaincodeApprovalOutputs = ChaincodeStepOutputs<ChaincodeApprovalInputs> &
  Pick<ChaincodeApprovalOutcome, "approved">;

/** The peers that must have the package: those named, else the gateway's. */
const peersOf = (i: Pick<ChaincodeApprovalInputs, "peers" | "gateway">) => i.peers ?? [i.gateway];
const peerField = (i: Pick<ChaincodeApprovalInputs, "peers">) => (index: number) =>
  i.peers === undefined ? "gateway" : `peers[${String(index)}]`;

/** A failure naming packageId when a peer of the organization has not installed it (its QueryInstalledChaincodes). */
async function notInstalled(
  i: ChaincodeApprovalInputs,
  connection: Connection,
  packageId: string,
): Promise<FieldFailure | undefined> {
  const peers = openPeers(peersOf(i), i.identity, connection.signer, peerField(i));
  try {
    for (const peer of peers.endorsers) {
      const installed = await queryInstalledChaincodes(peer);
      if (!installed.some((p) => p.packageId === packageId)) {
        return {
          property: "packageId",
          reason:
            `package ${packageId} is not installed on ${i.identity.mspId}'s peer at ${peer.address} (it has ` +
            `${installed.map((p) => p.packageId).join(", ") || "none"}): install it there first (a ChaincodeInstallation, ` +
            "whose packageId this approval then names); nothing was sent",
        };
      }
    }
    return undefined;
  } finally {
    peers.close();
  }
}

async function check(
  olds: Partial<ChaincodeApprovalInputs>,
  news: ChaincodeApprovalInputs,
): Promise<dynamic.CheckResult> {
  const failures = await stepFailures(news, [...packageIdFailures(news.packageId), ...peersFailures(news.peers)]);
  return checkStep("approve", olds, news, failures, async (gateway: Gateway, connection: Connection) => {
    const plan = await planSequence(gateway, news.channel, news.definition, news.identity.mspId);
    if ("failure" in plan) return plan.failure;
    const packageId = news.packageId ?? "";
    if (packageId !== "" && !hasUnknown(packageId) && !hasUnknown(news.peers)) {
      const missing = await notInstalled(news, connection, packageId);
      if (missing !== undefined) return missing;
    }
    const seq = plan.sequence.toString();
    const name = news.definition.name;
    const approved = await queryApprovedDefinition(gateway, news.channel, name, {
      sequence: plan.sequence,
      organization: news.identity.mspId,
    });
    const same =
      approved !== undefined &&
      viewDifferences({ ...declaredView(news.definition, Number(plan.sequence)), packageId }, approvalView(approved))
        .length === 0;
    const what = same
      ? `${news.identity.mspId} has approved ${name} sequence ${seq} as declared: nothing to send`
      : `to send: ApproveChaincodeDefinitionForMyOrg of ${name} sequence ${seq} (version ${news.definition.version}, ` +
        `endorsementPolicy ${plan.prepared.view.endorsementPolicy}, package ${packageText(packageId)}) ` +
        `by ${news.identity.mspId}`;
    const readiness = plan.alreadyCommitted
      ? `committed on channel '${news.channel}' at sequence ${seq}`
      : await readinessText(gateway, news.channel, plan.prepared);
    return { plan, packageId, says: `${what}; ${readiness}` };
  });
}

/** A package id for messages: none, or not known yet (preview: the installation this update makes). */
const packageText = (packageId: string): string =>
  packageId === "" ? "none" : hasUnknown(packageId) ? "the one its installation reports" : packageId;

/** What an approval sends and with what: the declared definition at its sequence and package id. */
function desired(i: Pick<ChaincodeApprovalInputs, "definition" | "packageId">) {
  return { ...declaredView(i.definition, i.definition.sequence ?? 1), packageId: i.packageId ?? "" };
}

async function diff(
  _id: string,
  olds: ChaincodeApprovalOutputs,
  news: ChaincodeApprovalInputs,
): Promise<dynamic.DiffResult> {
  const replaces = [
    ...(differs(olds.channel, news.channel) ? ["channel"] : []),
    ...(differs(olds.definition.name, news.definition.name) ? ["definition"] : []),
    ...(differs(olds.identity.mspId, news.identity.mspId) ? ["identity"] : []),
  ];
  const sends =
    hasUnknown([news.definition, news.packageId]) ||
    sendsKey(olds.channel, olds.definition, olds.packageId) !== sendsKey(news.channel, news.definition, news.packageId);
  // The organization's approval as last read (after a refresh: another admin's) against what is declared.
  const drifted = !hasUnknown(news.definition) && viewDifferences(desired(news), olds.approved).length > 0;
  const settings = (["peers", "trustedRootCertificates", "timeouts", "channelCapability"] as const).some((k) =>
    differs(olds[k], news[k]),
  );
  return Promise.resolve({
    changes: replaces.length > 0 || sends || drifted || settings || sessionChanged(olds, news),
    replaces,
    deleteBeforeReplace: false,
  });
}

/** Approves (or adopts, or finds approved), then reads the approval back. */
async function approve(i: ChaincodeApprovalInputs, step: "create" | "update"): Promise<ChaincodeApprovalOutputs> {
  const subject = subjectOf("approve", i.__urn);
  return withSession(i, step, resourceFrame(subject, { urn: i.__urn }), async ({ gateway, connection }) => {
    const peers = openPeers(peersOf(i), i.identity, connection.signer, peerField(i));
    try {
      const sequence = i.definition.sequence ?? 1;
      const { result, generation } = await sendOnce(subject, i.__urn, i.__generation ?? 1, (g) =>
        approveChaincodeDefinition(gateway, {
          channelId: i.channel,
          definition: libraryDefinition(i.definition, sequence),
          ...(i.packageId === undefined ? {} : { packageId: i.packageId }),
          peers: i.packageId === undefined || i.packageId === "" ? [] : peers.endorsers,
          nonce: stepNonce(i.identity, i.__urn, "approve", g),
          trustedMsps: trustedMspsOf(i.trustedRootCertificates),
          address: i.gateway.address,
          timeoutMs: stepTimeoutMs(i.timeouts, step),
          report: reportOn(i.__urn, subject),
        }),
      );
      if (result.outcome === "already-approved") {
        log("info", `${subject}: ${i.identity.mspId} had approved this definition already: nothing was sent`, i.__urn);
      } else if (result.transactionId !== undefined) {
        // Every organization's peer has it before the step ends: a commit reads the readiness on its own peer.
        const organizations = (await readLifecycleEndorsementPolicy(gateway, i.channel)).organizations;
        const behind = await awaitEndorsingPeers(gateway, i.channel, result.transactionId, organizations);
        if (behind.length > 0) {
          log(
            "warning",
            `${subject}: the approval is committed, but the peer of ${behind.join(", ")} did not report it within the ` +
              "wait; a commit asked there may not count it until that peer catches up",
            i.__urn,
          );
        }
      }
      const approved = await queryApprovedDefinition(gateway, i.channel, i.definition.name, {
        sequence,
        organization: i.identity.mspId,
      });
      if (approved === undefined)
        throw new Error(`${subject}: the approval of sequence ${String(sequence)} cannot be read back`);
      const { gateway: _g, identity: _i, txId: _t, ...rest } = i;
      return {
        ...rest,
        ...sessionOutputs(i),
        ...outcomeOutputs(result),
        __generation: generation,
        approved: approvalView(approved),
      };
    } finally {
      peers.close();
    }
  });
}

export const chaincodeApprovalProvider = {
  check,
  diff,
  async create(inputs: ChaincodeApprovalInputs): Promise<dynamic.CreateResult> {
    const outs = await approve(inputs, "create");
    return { id: `${inputs.channel}/${inputs.definition.name}/${inputs.identity.mspId}`, outs };
  },
  async update(
    _id: string,
    _olds: ChaincodeApprovalOutputs,
    news: ChaincodeApprovalInputs,
  ): Promise<dynamic.UpdateResult> {
    return { outs: await approve(news, "update") };
  },
  /** Refresh: the organization's newest approval, read by its admin; any field that differs is reported. */
  read(id: string, props: ChaincodeApprovalOutputs): Promise<dynamic.ReadResult> {
    return refreshStep(id, props, {
      step: "approve",
      key: "approved",
      read: async (gateway) => {
        const newest = await queryApprovedDefinition(gateway, props.channel, props.definition.name, {
          organization: props.identity.mspId,
        });
        return newest === undefined ? undefined : approvalView(newest);
      },
      declared: desired(props),
      says: (changed) =>
        `${props.identity.mspId}'s newest approval of ${props.definition.name} differs from the declared definition ` +
        `(${changed}): the next pulumi up approves the declared one again, at the next sequence`,
    });
  },
  /** An approval cannot be withdrawn: destroy sends nothing and says so. */
  delete(_id: string, props: ChaincodeApprovalOutputs): Promise<void> {
    log(
      "info",
      `${subjectOf("approve", props.__urn)}: ${props.identity.mspId}'s approval of ${props.definition.name} sequence ` +
        `${String(props.definition.sequence ?? "")} stays on channel '${props.channel}' (Fabric cannot withdraw an ` +
        "approval); it leaves the stack only",
      props.__urn,
    );
    return Promise.resolve();
  },
};
