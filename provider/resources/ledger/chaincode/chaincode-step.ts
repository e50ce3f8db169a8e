/**
 * What a ChaincodeApproval and a ChaincodeDefinition share: their inputs as the provider gets them, their plain
 * checks (the session's, the definition's, the admin's certificate against its CA), the check's reads in the session
 * (the sequence planned from the channel, the generation and its txId, a line saying what would be sent), and the
 * step that sends it exactly once — the library's approve or commit with the generation's nonce, the next generation
 * when its txId is on the ledger already as invalid or for another proposal (as LedgerTransaction skips them).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { LifecycleError } from "../../../errors/ledger/lifecycle-error";
import { newIdentity } from "../../../ledger";
import type { Gateway } from "../../../ledger";
import { checkAdminIdentity } from "../../../ledger/lifecycle/admin-identity";
import type { LifecycleTransactionResult } from "../../../ledger/lifecycle/lifecycle-submit";
import { log, status as rowStatus } from "../../../runtime/context";
import { checkTimeouts, nameFromUrn, timeoutMs } from "../../common";
import type { Timeouts } from "../../common";
import { MAX_GENERATION_SKIPS } from "../ledger-transaction-submit";
import { canonical, hasUnknown } from "../ledger-values";
import { checkSession, resourceFrame, sessionOfOutputs, withSession } from "../session/ledger-session";
import type { SessionOutputs } from "../session/ledger-session";
import { openGateway } from "../session/gateway-connection";
import type { Connection } from "../session/gateway-connection";
import { sessionFailures } from "../session/session-checks";
import { definitionFailures, viewDifferences } from "./chaincode-inputs";
import { readFailure, sendsKey, stepTxId } from "./chaincode-plan";
import type { LifecycleStep, SequencePlan } from "./chaincode-plan";
import type {
  ChaincodeChannelShape,
  ChaincodeDefinitionFields,
  ChaincodeDefinitionView,
  ChaincodeStepOutcome,
} from "./chaincode-shapes";

/** An approval's or a commit's inputs as the provider gets them: the shape, its plumbing, and what check sets. */
export interface ChaincodeStepInputs extends Omit<ChaincodeChannelShape, "timeouts"> {
  /** Plumbing (decision 0007): the resource's URN, which the nonces are derived from. */
  __urn: string;
  timeouts?: Timeouts;
  /** Plumbing set by check: the generation of what the step sends (bumped when that changes). */
  __generation?: number;
  /** Set by check: the txId the step sends (or sent) with. */
  txId?: string;
}

/** The outputs every step keeps: the settings without keys, the session as the state keeps it, the outcome. */
export type ChaincodeStepOutputs<I extends ChaincodeStepInputs> = Omit<I, "gateway" | "identity" | "txId"> &
  SessionOutputs &
  ChaincodeStepOutcome & { __generation: number };

/** The trusted roots as the library names them. */
export function trustedMspsOf(roots: Record<string, string>): { mspId: string; rootCertificates: string[] }[] {
  return Object.entries(roots).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] }));
}

/**
 * The plain failures of an approval's or commit's inputs, and then (each once known) the admin's certificate against
 * its organization's CA in `trustedRootCertificates`: nothing read, opened or sent.
 */
export async function stepFailures(news: ChaincodeStepInputs, own: readonly FieldFailure[]): Promise<FieldFailure[]> {
  const failures = [
    ...sessionFailures(news, "required"),
    ...definitionFailures(news.definition),
    ...own,
    ...checkTimeouts(news.timeouts),
  ];
  if (failures.length > 0 || hasUnknown([news.identity, news.trustedRootCertificates])) return failures;
  try {
    await checkAdminIdentity(newIdentity(news.identity.mspId, news.identity.certificatePem), "the identity", {
      trustedMsps: trustedMspsOf(news.trustedRootCertificates),
    });
    return [];
  } catch (error) {
    if (!(error instanceof LifecycleError)) throw error;
    return [{ property: error.field ?? "identity", reason: error.message.replace(/^the identity: /, "") }];
  }
}

/**
 * A check's session part for a step: the session's own checks (signer, client TLS key, channel capabilities), then
 * `plan` over the gateway (the reads that decide what would be sent), a read Fabric refuses being a failure naming
 * the field. The inputs come back with the definition at its planned sequence, the generation and its txId; a log
 * line on the resource's row says what the step would send.
 */
export function checkStep<I extends ChaincodeStepInputs>(
  step: LifecycleStep,
  olds: Partial<I & { __generation: number }>,
  news: I,
  failures: readonly FieldFailure[],
  plan: (
    gateway: Gateway,
    connection: Connection,
  ) => Promise<{ readonly plan: SequencePlan; readonly packageId?: string; readonly says: string } | FieldFailure>,
): Promise<dynamic.CheckResult> {
  return checkSession(news, news.__urn, failures, async (connection) => {
    if (connection === undefined || hasUnknown([news.gateway, news.channel, news.definition])) return { inputs: news };
    const gateway = openGateway(connection, "create");
    let planned: Awaited<ReturnType<typeof plan>>;
    try {
      planned = await plan(gateway, connection);
    } catch (error) {
      return { failures: [readFailure(error)] };
    } finally {
      gateway.close();
    }
    if ("property" in planned) return { failures: [planned] };
    const definition: ChaincodeDefinitionFields = { ...news.definition, sequence: Number(planned.plan.sequence) };
    const sends = sendsKey(news.channel, definition, planned.packageId);
    const oldPackage = (olds as { packageId?: string }).packageId;
    const before =
      olds.definition === undefined ? undefined : sendsKey(olds.channel ?? "", olds.definition, oldPackage);
    const generation =
      olds.__generation !== undefined && before === sends ? olds.__generation : (olds.__generation ?? 0) + 1;
    const txId = stepTxId(news.identity, news.__urn, step, generation);
    log("info", `${subjectOf(step, news.__urn)}: ${planned.says}`, news.__urn);
    return { inputs: { ...news, definition, __generation: generation, txId } };
  });
}

/** "ChaincodeApproval org1" / "ChaincodeDefinition assets2": what messages name the resource by. */
export function subjectOf(step: LifecycleStep, urn: string): string {
  return `${step === "approve" ? "ChaincodeApproval" : "ChaincodeDefinition"} ${nameFromUrn(urn)}`;
}

/** The delivery's progress: lasting lines to the engine's log on the resource's row, the rest as its status. */
export function reportOn(urn: string, subject: string): (message: string, lasting: boolean) => void {
  return (message, lasting) => {
    if (lasting) log("info", `${subject}: ${message}`, urn);
    else rowStatus(urn, message);
  };
}

/** The deadline of a step, in ms. */
export const stepTimeoutMs = (timeouts: Timeouts | undefined, step: keyof Timeouts): number =>
  timeoutMs(timeouts, step);

/**
 * Sends a step exactly once: `send` with the nonce of the planned generation, then of the next ones while a
 * generation's txId is on the ledger already (invalid, or for another proposal: it changed nothing), at most
 * MAX_GENERATION_SKIPS. Returns the result and the generation it was made with.
 */
export async function sendOnce<R extends LifecycleTransactionResult>(
  subject: string,
  urn: string,
  first: number,
  send: (generation: number) => Promise<R>,
): Promise<{ readonly result: R; readonly generation: number }> {
  for (let generation = first; generation < first + MAX_GENERATION_SKIPS; generation++) {
    try {
      return { result: await send(generation), generation };
    } catch (error) {
      if (!(error instanceof LifecycleError) || error.problem !== "TRANSACTION_ID_USED") throw error;
      log("info", `${subject}: ${error.message}; sending the next generation's transaction`, urn);
    }
  }
  throw new LedgerError({
    message: `${subject}: ${String(MAX_GENERATION_SKIPS)} transactions of this resource are already on the ledger as invalid or for other proposals; see the earlier messages`,
  });
}

/** The outcome as the outputs keep it: a txId and block only when a transaction was sent or adopted. */
export function outcomeOutputs(result: LifecycleTransactionResult): ChaincodeStepOutcome {
  return {
    outcome: result.outcome,
    ...(result.transactionId === undefined ? {} : { txId: result.transactionId }),
    ...(result.blockNumber === undefined ? {} : { blockNumber: result.blockNumber.toString() }),
  };
}

/** Whether two values of the inputs differ (canonical text: key order and undefined ignored). */
export const differs = (a: unknown, b: unknown): boolean => canonical(a) !== canonical(b);

/** What a step's refresh reads and says: the record Fabric holds now, and the warning when it differs. */
export interface StepRefresh<V extends ChaincodeDefinitionView> {
  readonly step: LifecycleStep;
  /** The output the record is kept under. */
  readonly key: "approved" | "committed";
  /** The record now, as the outputs keep it; undefined when Fabric has none. */
  readonly read: (gateway: Gateway) => Promise<V | undefined>;
  /** The declared definition, as the record would read. */
  readonly declared: ChaincodeDefinitionView & { readonly packageId?: string };
  /** The warning's text, given the fields that differ ("version "1.0" → "1.1"; …"). */
  readonly says: (changed: string) => string;
}

/**
 * A step's refresh: the record read in the step's own session (its admin), the resource gone when Fabric has none,
 * and a warning on the resource's row naming every field another admin changed (decision 0070); the next up sends the
 * declared definition again at the next sequence.
 */
export function refreshStep<V extends ChaincodeDefinitionView>(
  id: string,
  props: ChaincodeStepOutputs<ChaincodeStepInputs>,
  refresh: StepRefresh<V>,
): Promise<dynamic.ReadResult> {
  const subject = subjectOf(refresh.step, props.__urn);
  return withSession(sessionOfOutputs(props), "create", resourceFrame(subject), async ({ gateway }) => {
    const now = await refresh.read(gateway);
    if (now === undefined) return { id: "" };
    const changed = viewDifferences(refresh.declared, now);
    if (changed.length > 0) log("warning", `${subject}: ${refresh.says(changed.join("; "))}`, props.__urn);
    return { id, props: { ...props, [refresh.key]: now } };
  });
}
