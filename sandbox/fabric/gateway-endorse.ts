/**
 * Gateway Endorse and Evaluate (Fabric internal/pkg/gateway endorse.go, evaluate.go), with Fabric's status codes
 * and messages. Endorse collects one endorsement per organization until the endorsement policy is met, starting
 * with the gateway's own organization (or exactly the client's `endorsing_organizations`), then assembles the
 * prepared transaction; Evaluate runs the proposal on one peer, preferring the gateway's organization.
 */
import { status } from "@grpc/grpc-js";
import { requiredOrganizationCount } from "./endorsement-policy";
import { errorDetail, type GatewayContext } from "./gateway-context";
import { GatewayError } from "./gateway-error";
import type { Endorsement, ErrorDetail, SignedProposal } from "./messages";
import { applyVisibility, chaincodeErrorMessage, effectiveVisibility, type EndorsingPeer } from "./peer";
import { prepareTransaction, tamper } from "./prepared-transaction";
import { ProposalError, unpackProposal, type UnpackedProposal } from "./proposal";
import { QSCC_NAME } from "./qscc";
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
  const known = channel === ctx.config.channel && (name === ctx.config.chaincode.name || name === QSCC_NAME);
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

function peersFor(
  ctx: GatewayContext,
  organizations: readonly string[],
  notFound: (orgs: string) => GatewayError,
): EndorsingPeer[] {
  const unknown = organizations.filter((o) => !ctx.peers.some((p) => p.mspId === o));
  if (unknown.length > 0) throw notFound(unknown.join(", "));
  return organizations
    .map((o) => ctx.peers.find((p) => p.mspId === o))
    .filter((p): p is EndorsingPeer => p !== undefined);
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
  const candidates = explicit
    ? peersFor(
        ctx,
        request.endorsingOrganizations,
        (orgs) =>
          new GatewayError({
            code: status.UNAVAILABLE,
            message: `failed to find any endorsing peers for org(s): ${orgs}`,
          }),
      )
    : [...ctx.peers];
  const required = explicit ? candidates.length : requiredOrganizationCount(ctx.config.policy);
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
    if (endorsements.length >= required) break;
    const outcome = await peer.process(up, ctx.supportsVisibility, faults.failEndorsementFor.has(peer.mspId));
    switch (outcome.kind) {
      case "unavailable":
        details.push(errorDetail(peer, outcome.message));
        break;
      case "refused":
        throw failed([...details, errorDetail(peer, outcome.message)]);
      case "chaincode-error":
        throw failed([...details, errorDetail(peer, chaincodeErrorMessage(outcome.response))]);
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
  if (payload === undefined || endorsements.length < required) {
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
  const candidates =
    targets.length > 0
      ? peersFor(
          ctx,
          targets,
          () =>
            new GatewayError({
              code: status.FAILED_PRECONDITION,
              message: `no peers available to evaluate chaincode ${up instanceof ProposalError ? "" : up.specChaincodeName} in channel ${ctx.config.channel}`,
            }),
        )
      : [...ctx.peers];
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
