/**
 * The _lifecycle reads, evaluated through a gateway (nothing is ordered): CheckCommitReadiness (which organizations
 * approved a definition), QueryApprovedChaincodeDefinition (one organization's approval, read from its own peer by
 * its admin: Fabric keeps approvals in each organization's implicit private collection and guards the read with the
 * peer's local Admins), QueryChaincodeDefinition and QueryChaincodeDefinitions (what the channel has committed, for a
 * channel Writer). Fabric's refusals become LifecycleError naming the identity to fix; an unknown channel
 * LedgerReadError (qscc-reads.ts readErrorOf).
 */
import type * as grpc from "@grpc/grpc-js";
import type { Gateway } from "../gateway-client";
import { EndorserError } from "../../errors/ledger/endorser-error";
import { GatewayError } from "../../errors/ledger/gateway-error";
import type { MessageCodec, MessageInit } from "../codec";
import { readErrorOf } from "../qscc-reads";
import { packageIdOfSource, viewOf } from "./chaincode-definition";
import type { DefinitionView, PreparedDefinition } from "./chaincode-definition";
import { lifecycleCodecs } from "./lifecycle-codecs";
import { LifecycleError } from "../../errors/ledger/lifecycle-error";

/** The system chaincode of the v2 lifecycle. */
export const LIFECYCLE_CHAINCODE = "_lifecycle";

/** An approval read back: the definition's view and the package id it names ("" for none). */
export interface ApprovedDefinition extends DefinitionView {
  readonly packageId: string;
  /** The organization whose approval this is. */
  readonly organization: string;
}

/** A committed definition read back, with each organization's approval of it. */
export interface CommittedDefinition extends DefinitionView {
  readonly approvals: Readonly<Record<string, boolean>>;
}

/** Fabric's words when it does not know the identity (2.x, and 3.x for a key type the channel does not accept). */
const UNKNOWN_IDENTITY = /creator org unknown|creator is malformed|creator org \[[^\]]*\]/;
/** Fabric's words when the identity is not its organization's admin (a peer's local Admins). */
const NOT_ADMIN = /policy \[Admins\]|is not an admin|does not contain OU \[ADMIN\]/;
/** Fabric's words when a peer's local Admins get another organization's identity. */
const OTHER_ORGANIZATION = /expected MSP ID (\S+), received (\S+?)\]/;
/** Fabric's words when a channel ACL (`_lifecycle/<function>`, by default the channel's Writers) refuses the identity. */
const CHANNEL_ACL = /policy \[(\/Channel\/Application\/\w+)\]/;
const NOT_DEFINED = /namespace (\S+) is not defined/;
const NOT_APPROVED = /could not fetch approved chaincode definition/;

/** The peers' own words in an error: each ErrorDetail then the gateway's message, or a peer's Endorser answer. */
function textsOf(error: unknown): string[] {
  if (error instanceof GatewayError) return [...error.details.map((d) => d.message), error.message];
  if (error instanceof EndorserError) return [error.responseMessage];
  return [error instanceof Error ? error.message : String(error)];
}

/** Whether an error is Fabric's "namespace X is not defined" (no committed definition). */
export function isNotDefined(error: unknown): boolean {
  return textsOf(error).some((t) => NOT_DEFINED.test(t));
}

/**
 * The error a _lifecycle call's failure becomes: LifecycleError for an identity Fabric refused (naming it and the
 * fix), LedgerReadError for an unknown channel, the error itself otherwise. `what` names the step for messages.
 */
export function lifecycleErrorOf(
  error: unknown,
  context: {
    readonly channel: string;
    readonly organization: string;
    readonly what: string;
    readonly transactionId?: string;
  },
): unknown {
  const texts = textsOf(error);
  const fabric = texts.find((t) => UNKNOWN_IDENTITY.test(t) || NOT_ADMIN.test(t)) ?? "";
  const base = { organization: context.organization, transactionId: context.transactionId, cause: error };
  const otherPeer = OTHER_ORGANIZATION.exec(fabric);
  if (otherPeer !== null) {
    return new LifecycleError({
      ...base,
      problem: "NOT_AN_ADMIN",
      organization: otherPeer[1],
      field: "identity.mspId",
      message:
        `${context.what}: the peer of ${otherPeer[1] ?? ""} takes this only from ${otherPeer[1] ?? ""}'s admin, and ` +
        `the identity is ${otherPeer[2] ?? ""}'s (Fabric: ${fabric}). Ask ${otherPeer[1] ?? ""}'s peer as its admin, ` +
        `or ${otherPeer[2] ?? ""}'s own peer; nothing was submitted`,
    });
  }
  if (UNKNOWN_IDENTITY.test(fabric)) {
    return new LifecycleError({
      ...base,
      problem: "UNKNOWN_IDENTITY",
      field: "identity.certificatePem",
      message:
        // A channelless call (install, query installed) is judged by the peer's own MSP, not a channel's.
        `${context.what}: ${context.channel === "" ? "the peer" : `channel '${context.channel}'`} does not know the ` +
        `identity of ${context.organization} it was signed with (Fabric: ${fabric}). Use a certificate issued by ` +
        `${context.organization}'s CA for a member of the ${context.channel === "" ? "peer's organizations" : "channel"}; ` +
        "nothing was submitted",
    });
  }
  if (NOT_ADMIN.test(fabric)) {
    return new LifecycleError({
      ...base,
      problem: "NOT_AN_ADMIN",
      field: "identity.certificatePem",
      message:
        `${context.what}: the identity is not an admin of ${context.organization} (Fabric: ${fabric}). Use the ` +
        `certificate and key of ${context.organization}'s admin; nothing was submitted`,
    });
  }
  const acl = texts.map((t) => CHANNEL_ACL.exec(t)).find((m) => m !== null);
  if (acl) {
    const fn = context.what.split(" ")[0] ?? context.what;
    return new LifecycleError({
      ...base,
      problem: "NOT_A_WRITER",
      field: "identity",
      message:
        `${context.what}: channel '${context.channel}' refused the identity of ${context.organization} (Fabric: ` +
        `${acl.input}). The channel's ACL _lifecycle/${fn} names ${acl[1] ?? ""} (Fabric's default: ` +
        "/Channel/Application/Writers, a client or admin of an organization of the channel): use such an identity, " +
        "or a channel whose ACL lets this one read; nothing was submitted",
    });
  }
  return readErrorOf(error, { channel: context.channel, chaincode: LIFECYCLE_CHAINCODE });
}

async function evaluate<Req, Res>(
  gateway: Gateway,
  call: {
    readonly channelId: string;
    readonly functionName: string;
    readonly args: MessageInit<Req>;
    readonly argsCodec: MessageCodec<Req>;
    readonly resultCodec: MessageCodec<Res>;
    readonly targetOrganizations?: readonly string[];
    readonly options?: grpc.CallOptions | undefined;
  },
): Promise<Res> {
  const answer = await gateway.evaluateTransaction(
    {
      channelId: call.channelId,
      chaincodeName: LIFECYCLE_CHAINCODE,
      functionName: call.functionName,
      args: [call.argsCodec.encode(call.args)],
      ...(call.targetOrganizations === undefined ? {} : { targetOrganizations: call.targetOrganizations }),
    },
    call.options,
  );
  return call.resultCodec.decode(answer, { path: `${call.functionName} result` });
}

/** Which organizations have approved this definition (CheckCommitReadiness, on the gateway's peer). */
export async function checkCommitReadiness(
  gateway: Gateway,
  channelId: string,
  definition: PreparedDefinition,
  options?: grpc.CallOptions,
): Promise<Readonly<Record<string, boolean>>> {
  const organization = gateway.getIdentity().mspId;
  try {
    const result = await evaluate(gateway, {
      channelId,
      functionName: "CheckCommitReadiness",
      args: definition.args,
      argsCodec: lifecycleCodecs.CheckCommitReadinessArgs,
      resultCodec: lifecycleCodecs.CheckCommitReadinessResult,
      options,
    });
    return Object.fromEntries(result.approvals.map((a) => [a.key, a.value]));
  } catch (error) {
    throw lifecycleErrorOf(error, {
      channel: channelId,
      organization,
      what: `CheckCommitReadiness of ${definition.args.name}`,
    });
  }
}

/**
 * The definition `organization` approved for `name` at `sequence` (0 or absent: its newest), read from that
 * organization's peer — the gateway's identity must be its admin. Undefined when it approved none.
 */
export async function queryApprovedDefinition(
  gateway: Gateway,
  channelId: string,
  name: string,
  query: {
    readonly sequence?: number | bigint;
    readonly organization?: string;
    readonly options?: grpc.CallOptions;
  } = {},
): Promise<ApprovedDefinition | undefined> {
  const organization = query.organization ?? gateway.getIdentity().mspId;
  try {
    const result = await evaluate(gateway, {
      channelId,
      functionName: "QueryApprovedChaincodeDefinition",
      args: { name, sequence: BigInt(query.sequence ?? 0) },
      argsCodec: lifecycleCodecs.QueryApprovedChaincodeDefinitionArgs,
      resultCodec: lifecycleCodecs.QueryApprovedChaincodeDefinitionResult,
      targetOrganizations: [organization],
      options: query.options,
    });
    return { ...viewOf(name, result), packageId: packageIdOfSource(result.source), organization };
  } catch (error) {
    if (textsOf(error).some((t) => NOT_APPROVED.test(t))) return undefined;
    throw lifecycleErrorOf(error, {
      channel: channelId,
      organization,
      what: `QueryApprovedChaincodeDefinition of ${name}`,
    });
  }
}

/** The definition of `name` committed on the channel, with each organization's approval; undefined when none is. */
export async function queryCommittedDefinition(
  gateway: Gateway,
  channelId: string,
  name: string,
  options?: grpc.CallOptions,
): Promise<CommittedDefinition | undefined> {
  const organization = gateway.getIdentity().mspId;
  try {
    const result = await evaluate(gateway, {
      channelId,
      functionName: "QueryChaincodeDefinition",
      args: { name },
      argsCodec: lifecycleCodecs.QueryChaincodeDefinitionArgs,
      resultCodec: lifecycleCodecs.QueryChaincodeDefinitionResult,
      options,
    });
    return { ...viewOf(name, result), approvals: Object.fromEntries(result.approvals.map((a) => [a.key, a.value])) };
  } catch (error) {
    if (isNotDefined(error)) return undefined;
    throw lifecycleErrorOf(error, { channel: channelId, organization, what: `QueryChaincodeDefinition of ${name}` });
  }
}

/** Every definition committed on the channel (QueryChaincodeDefinitions), by name. */
export async function queryCommittedDefinitions(
  gateway: Gateway,
  channelId: string,
  options?: grpc.CallOptions,
): Promise<DefinitionView[]> {
  const organization = gateway.getIdentity().mspId;
  try {
    const result = await evaluate(gateway, {
      channelId,
      functionName: "QueryChaincodeDefinitions",
      args: {},
      argsCodec: lifecycleCodecs.QueryChaincodeDefinitionsArgs,
      resultCodec: lifecycleCodecs.QueryChaincodeDefinitionsResult,
      options,
    });
    return result.chaincodeDefinitions.map((d) => viewOf(d.name, d)).sort((a, b) => a.name.localeCompare(b.name));
  } catch (error) {
    throw lifecycleErrorOf(error, { channel: channelId, organization, what: "QueryChaincodeDefinitions" });
  }
}
