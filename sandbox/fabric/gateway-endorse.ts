/**
 * Gateway Endorse and Evaluate (Fabric internal/pkg/gateway endorse.go, evaluate.go), with Fabric's status codes
 * and messages. Endorse collects one endorsement per organization until the endorsement policy is met, starting
 * with the gateway's own organization (or exactly the client's `endorsing_organizations`), then assembles the
 * prepared transaction; Evaluate runs the proposal on one peer, preferring the gateway's organization.
 */
import { status } from "@grpc/grpc-js";
import {
  isDefined,
  lifecycleEndorsement,
  namespacePolicy,
  notRunnableBecause,
  ruleCheck,
} from "./chaincode-definitions";
import { LIFECYCLE_SCC } from "./lifecycle-store";
import { errorDetail, type GatewayContext } from "./gateway-context";
import { GatewayError } from "./gateway-error";
import type { Endorsement, ErrorDetail, SignedProposal } from "./messages";
import { applyVisibility, chaincodeErrorMessage, effectiveVisibility, type EndorsingPeer } from "./peer";
import { prepareTransaction, tamper } from "./prepared-transaction";
import { ProposalError, unpackProposal, type UnpackedProposal } from "./proposal";
import { decode, encode, lengthDelimitedField } from "./wire";

function unpack(signed: SignedProposal, malformedPrefix: string): UnpackedProposal | ProposalError {
  try {
    return unpackProposal(signed);
  } catch (err) {
    if (err instanceof ProposalError && err.malformed) {
      throw new GatewayError({ code: status.INVALID_ARGUMENT, message: `${malformedPrefix}${err.message}` });
    }
    if (err instanceof ProposalError) return err;
    throw err;
  }
}

/**
 * The gateway's plan for the proposal's channel and chaincode (Fabric 2.5 internal/pkg/gateway): Evaluate reads the
 * channel's configuration first (UNAVAILABLE for an unknown channel), then looks for peers that have the chaincode;
 * Endorse asks discovery for an endorsement plan, which knows neither an unknown channel nor an unknown chaincode.
 */
function requireChaincode(
  ctx: GatewayContext,
  up: UnpackedProposal | ProposalError,
  action: "endorse" | "evaluate",
): void {
  if (up instanceof ProposalError) return;
  const channel = up.channelHeader.channelId;
  const name = up.specChaincodeName;
  const known = channel === ctx.config.channel && isDefined(ctx.config, ctx.ledger.state, name);
  if (known) return;
  if (action === "endorse") {
    throw new GatewayError({
      code: status.FAILED_PRECONDITION,
      message: `no combination of peers can be derived which satisfy the endorsement policy: No metadata was found for chaincode ${name} in channel ${channel}`,
    });
  }
  if (channel !== ctx.config.channel) {
    throw new GatewayError({
      code: status.UNAVAILABLE,
      message: `failed to get config for channel [${channel}]: could not get last config for channel ${channel}`,
    });
  }
  throw new GatewayError({
    code: status.FAILED_PRECONDITION,
    message: `no peers available to evaluate chaincode ${name} in channel ${channel}`,
  });
}

/**
 * The peers of `organizations` that have `chaincode` (discovery's view: a defined chaincode is on the peers whose
 * organization approved it with a package installed there), or `notFound` naming the organizations without one.
 */
function peersFor(
  ctx: GatewayContext,
  organizations: readonly string[],
  chaincode: string,
  notFound: (orgs: string) => GatewayError,
): EndorsingPeer[] {
  const has = (p: EndorsingPeer) => notRunnableBecause(ctx.config, ctx.ledger.state, p.mspId, chaincode) === undefined;
  const unknown = organizations.filter((o) => !ctx.peers.some((p) => p.mspId === o && has(p)));
  if (unknown.length > 0) throw notFound(unknown.join(", "));
  return organizations
    .map((o) => ctx.peers.find((p) => p.mspId === o))
    .filter((p): p is EndorsingPeer => p !== undefined);
}

/** When the endorsements gathered so far are enough: the chaincode's policy, or _lifecycle's (its LifecycleEndorsement). */
function enoughFor(ctx: GatewayContext, chaincode: string): (endorsers: readonly EndorsingPeer[]) => boolean {
  const check =
    chaincode === LIFECYCLE_SCC
      ? lifecycleEndorsement(ctx.config)
      : (namespacePolicy(ctx.config, ctx.ledger.state, chaincode) ?? ruleCheck(ctx.config.policy));
  return (endorsers) => check.satisfiedBy(endorsers.map((p) => ({ mspId: p.mspId, role: "peer" })));
}

export async function endorse(ctx: GatewayContext, requestBytes: Buffer): Promise<Buffer> {
  const request = decode("gateway.EndorseRequest", requestBytes);
  const signed = request.proposedTransaction;
  if (signed === null || signed.proposalBytes.length === 0) {
    throw new GatewayError({
      code: status.INVALID_ARGUMENT,
      message: "the proposed transaction must contain a signed proposal",
    });
  }
  const up = unpack(signed, "");
  requireChaincode(ctx, up, "endorse");
  const explicit = request.endorsingOrganizations.length > 0;
  const chaincode = up instanceof ProposalError ? "" : up.specChaincodeName;
  const candidates = explicit
    ? peersFor(
        ctx,
        request.endorsingOrganizations,
        chaincode,
        (orgs) =>
          new GatewayError({
            code: status.UNAVAILABLE,
            message: `failed to find any endorsing peers for org(s): ${orgs}`,
          }),
      )
    : ctx.peers.filter((p) => notRunnableBecause(ctx.config, ctx.ledger.state, p.mspId, chaincode) === undefined);
  const enough = explicit
    ? (endorsers: readonly EndorsingPeer[]) => endorsers.length >= candidates.length
    : enoughFor(ctx, chaincode);
  if (!explicit && !enough(candidates)) {
    throw new GatewayError({
      code: status.FAILED_PRECONDITION,
      message:
        "no combination of peers can be derived which satisfy the endorsement policy: required chaincodes are not installed on sufficient peers",
    });
  }
  const failed = (details: readonly ErrorDetail[]): GatewayError =>
    new GatewayError({
      code: status.ABORTED,
      message: "failed to endorse transaction, see attached details for more info",
      details,
    });
  const first = candidates[0];
  if (up instanceof ProposalError) throw failed(first === undefined ? [] : [errorDetail(first, up.message)]);

  const faults = ctx.faults();
  const details: ErrorDetail[] = [];
  const endorsers: EndorsingPeer[] = [];
  const endorsements: Endorsement[] = [];
  let payload: Buffer | undefined;
  for (const peer of candidates) {
    if (enough(endorsers)) break;
    const outcome = await peer.process(up, ctx.supportsVisibility, faults.failEndorsementFor.has(peer.mspId));
    switch (outcome.kind) {
      case "unavailable":
        details.push(errorDetail(peer, outcome.message));
        break;
      // With endorsing organizations named, Fabric's gateway asks each of them and collects every failure; otherwise
      // the first endorser's failure ends the endorsement.
      case "refused":
        if (!explicit) throw failed([...details, errorDetail(peer, outcome.message)]);
        details.push(errorDetail(peer, outcome.message));
        break;
      case "chaincode-error":
        if (!explicit) throw failed([...details, errorDetail(peer, chaincodeErrorMessage(outcome.response))]);
        details.push(errorDetail(peer, chaincodeErrorMessage(outcome.response)));
        break;
      case "endorsed":
        if (payload !== undefined && !payload.equals(outcome.proposalResponsePayload)) {
          details.push(errorDetail(peer, "ProposalResponsePayloads do not match"));
          break;
        }
        payload = outcome.proposalResponsePayload;
        endorsers.push(peer);
        endorsements.push(outcome.endorsement);
        break;
    }
  }
  if (payload === undefined || !enough(endorsers)) {
    throw new GatewayError({
      code: status.ABORTED,
      message: "failed to collect enough transaction endorsements, see attached details for more info",
      details,
    });
  }
  const visibility = effectiveVisibility(up.payloadVisibility, ctx.supportsVisibility);
  const parts = tamper(
    faults.tamperPreparedTransaction,
    {
      header: up.header,
      chaincodeProposalPayload: applyVisibility(visibility, up.payloadWithoutTransient),
      proposalResponsePayload: payload,
      endorsements,
    },
    { resign: (prp) => endorsers.map((p) => p.endorse(prp)), otherCreator: ctx.otherCreator },
  );
  // EndorseResponse{prepared_transaction = 1}: the envelope embedded verbatim.
  return lengthDelimitedField(1, prepareTransaction(parts));
}

export async function evaluate(ctx: GatewayContext, requestBytes: Buffer): Promise<Buffer> {
  const request = decode("gateway.EvaluateRequest", requestBytes);
  const signed = request.proposedTransaction;
  const prefix = "failed to unpack transaction proposal: ";
  if (signed === null || signed.proposalBytes.length === 0) {
    throw new GatewayError({ code: status.INVALID_ARGUMENT, message: `${prefix}a signed proposal is required` });
  }
  const up = unpack(signed, prefix);
  if (!(up instanceof ProposalError)) {
    ctx.onEvaluate?.(up.specChaincodeName, Buffer.from(up.input.args[0] ?? []).toString("utf8"));
  }
  requireChaincode(ctx, up, "evaluate");
  const targets = request.targetOrganizations;
  const chaincode = up instanceof ProposalError ? "" : up.specChaincodeName;
  const noPeers = () =>
    new GatewayError({
      code: status.FAILED_PRECONDITION,
      message: `no peers available to evaluate chaincode ${chaincode} in channel ${ctx.config.channel}`,
    });
  const candidates =
    targets.length > 0
      ? peersFor(ctx, targets, chaincode, noPeers)
      : ctx.peers.filter((p) => notRunnableBecause(ctx.config, ctx.ledger.state, p.mspId, chaincode) === undefined);
  if (candidates.length === 0) throw noPeers();
  const details: ErrorDetail[] = [];
  const faults = ctx.faults();
  const first = candidates[0];
  if (up instanceof ProposalError) {
    throw new GatewayError({
      code: status.FAILED_PRECONDITION,
      message: `evaluate call to endorser returned error: ${up.message}`,
      details: first === undefined ? [] : [errorDetail(first, up.message)],
    });
  }
  for (const peer of candidates) {
    const outcome = await peer.process(up, ctx.supportsVisibility, faults.failEndorsementFor.has(peer.mspId));
    switch (outcome.kind) {
      case "endorsed":
        return encode("gateway.EvaluateResponse", { result: outcome.response });
      case "unavailable":
        details.push(errorDetail(peer, outcome.message));
        continue;
      case "refused":
        details.push(errorDetail(peer, outcome.message));
        throw new GatewayError({
          code: status.FAILED_PRECONDITION,
          message: `evaluate call to endorser returned error: ${outcome.message}`,
          details,
        });
      case "chaincode-error": {
        const message = chaincodeErrorMessage(outcome.response);
        details.push(errorDetail(peer, message));
        throw new GatewayError({
          code: status.UNKNOWN,
          message: `evaluate call to endorser returned error: ${message}`,
          details,
        });
      }
    }
  }
  throw new GatewayError({
    code: status.UNAVAILABLE,
    message: "failed to evaluate transaction, see attached details for more info",
    details,
  });
}
