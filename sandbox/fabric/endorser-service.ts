/**
 * A peer's Endorser service (`/protos.Endorser/ProcessProposal`, Fabric core/endorser/endorser.go ProcessProposal):
 * what the peer CLI and the library's endorser client send _lifecycle's InstallChaincode and QueryInstalledChaincodes
 * to. The sandbox's peers share one address, so a proposal goes to the peer of the organization that signed it (the
 * first organization's for a creator the sandbox cannot read). As Fabric: a proposal refused before it runs
 * (unparsable, a creator the peer's MSP refuses) is a gRPC error UNKNOWN with the endorser's message; one that could
 * not run, or whose chaincode answered 400 or more, is a ProposalResponse with that status and no endorsement.
 */
import { status } from "@grpc/grpc-js";
import type { GatewayContext } from "./gateway-context";
import { GatewayError } from "./gateway-error";
import { ProposalError, unpackProposal } from "./proposal";
import { decode, encode, tryDecode } from "./wire";

const ERROR_STATUS = 500;

export async function processProposal(ctx: GatewayContext, requestBytes: Buffer): Promise<Buffer> {
  const signed = decode("protos.SignedProposal", requestBytes);
  let up;
  try {
    up = unpackProposal(signed);
  } catch (error) {
    if (error instanceof ProposalError) throw new GatewayError({ code: status.UNKNOWN, message: error.message });
    throw error;
  }
  const mspId = tryDecode("msp.SerializedIdentity", up.signatureHeader.creator)?.mspid;
  const peer = ctx.peers.find((p) => p.mspId === mspId) ?? ctx.peers[0];
  if (peer === undefined) throw new GatewayError({ code: status.UNAVAILABLE, message: "the sandbox has no peers" });
  const outcome = await peer.process(up, ctx.supportsVisibility, ctx.faults().failEndorsementFor.has(peer.mspId));
  switch (outcome.kind) {
    case "unavailable":
      throw new GatewayError({ code: status.UNAVAILABLE, message: outcome.message });
    case "refused":
      if (outcome.preProcess === true) throw new GatewayError({ code: status.UNKNOWN, message: outcome.message });
      return encode("protos.ProposalResponse", { response: { status: ERROR_STATUS, message: outcome.message } });
    case "chaincode-error":
      return encode("protos.ProposalResponse", { response: outcome.response });
    case "endorsed":
      return encode("protos.ProposalResponse", {
        version: 1,
        response: outcome.response,
        payload: outcome.proposalResponsePayload,
        endorsement: outcome.endorsement,
      });
  }
}
