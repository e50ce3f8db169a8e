/**
 * What a peer's Endorser service was asked, read from the calls a proxy in front of the peer recorded
 * (gateway-proxy.ts): each ProcessProposal's chaincode and function, decoded with fabric-protos (not our codec), so a
 * test can tell cscc's GetChannels from its JoinChain though both are one gRPC method.
 */
import { peer } from "@hyperledger/fabric-protos";
import type { GatewayProxy } from "./gateway-proxy";

/** The peer's Endorser method: every proposal sent to the peer itself (cscc, qscc, lifecycle). */
export const PROCESS_PROPOSAL = "/protos.Endorser/ProcessProposal";

/** "cscc JoinChain": the chaincode and function a SignedProposal invokes. */
export function proposalCall(signedProposal: Uint8Array): string {
  const proposal = peer.Proposal.deserializeBinary(
    peer.SignedProposal.deserializeBinary(signedProposal).getProposalBytes_asU8(),
  );
  const payload = peer.ChaincodeProposalPayload.deserializeBinary(proposal.getPayload_asU8());
  const spec = peer.ChaincodeInvocationSpec.deserializeBinary(payload.getInput_asU8()).getChaincodeSpec();
  const name = spec?.getChaincodeId()?.getName() ?? "";
  const fn = Buffer.from(spec?.getInput()?.getArgsList_asU8()[0] ?? new Uint8Array(0)).toString("utf8");
  return `${name} ${fn}`;
}

/** The proposals `proxy` forwarded to the peer's Endorser from call index `from` on, in order ("cscc GetChannels"). */
export function proposalsSent(proxy: GatewayProxy, from = 0): string[] {
  return proxy.calls
    .slice(from)
    .filter((c) => c.path === PROCESS_PROPOSAL)
    .map((c) => proposalCall(c.requests[0] ?? new Uint8Array(0)));
}
