/**
 * Endorser-side proposal handling (Fabric core/endorser/msgvalidation.go UnpackProposal and Validate, and
 * preProcess's duplicate check and ACL check), with Fabric's error messages. These failures are errors returned to the gateway,
 * not validation codes.
 */
import { computeTxId, HeaderType } from "./channel-config";
import type {
  ChaincodeInput,
  ChaincodeProposalPayload,
  ChannelHeader,
  Header,
  Proposal,
  SignatureHeader,
  SignedProposal,
} from "./messages";
import { policyDenied, WRITER_ROLES, type MembershipServices } from "./msp";
import { LIFECYCLE_SCC } from "./lifecycle-store";
import { QSCC_NAME } from "./qscc";
import { decode, encode, WireDecodeError } from "./wire";

export interface UnpackedProposal {
  readonly signedProposal: SignedProposal;
  readonly proposal: Proposal;
  readonly header: Header;
  readonly channelHeader: ChannelHeader;
  readonly signatureHeader: SignatureHeader;
  /** The chaincode named in the header extension: the one the endorser runs. */
  readonly chaincodeName: string;
  /** The chaincode named in the invocation spec: the one the gateway plans endorsement for. */
  readonly specChaincodeName: string;
  /** ChaincodeHeaderExtension field 1 (empty for Fabric's only mode, full visibility). */
  readonly payloadVisibility: string;
  readonly payload: ChaincodeProposalPayload;
  readonly input: ChaincodeInput;
  /** marshal(ChaincodeProposalPayload{input}): the payload without the TransientMap. */
  readonly payloadWithoutTransient: Buffer;
}

/**
 * Why a proposal was refused; `message` is what Fabric's endorser would say. `malformed` marks messages that do
 * not decode at all (the gateway itself answers those with INVALID_ARGUMENT).
 */
export class ProposalError extends Error {
  readonly malformed: boolean;

  constructor(message: string, malformed = false) {
    super(message);
    this.name = "ProposalError";
    this.malformed = malformed;
  }
}

function decodeOrRefuse<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof WireDecodeError) throw new ProposalError(err.message, true);
    throw err;
  }
}

/** Unpacks a signed proposal; throws ProposalError with Fabric's message when a part is missing or malformed. */
export function unpackProposal(signedProposal: SignedProposal): UnpackedProposal {
  return decodeOrRefuse(() => {
    const proposal = decode("protos.Proposal", signedProposal.proposalBytes);
    const header = decode("common.Header", proposal.header);
    const channelHeader = decode("common.ChannelHeader", header.channelHeader);
    const signatureHeader = decode("common.SignatureHeader", header.signatureHeader);
    const extension = decode("protos.ChaincodeHeaderExtension", channelHeader.extension);
    if (extension.chaincodeId === null) throw new ProposalError("ChaincodeHeaderExtension.ChaincodeId is nil");
    if (extension.chaincodeId.name === "")
      throw new ProposalError("ChaincodeHeaderExtension.ChaincodeId.Name is empty");
    const payload = decode("protos.ChaincodeProposalPayload", proposal.payload);
    const spec = decode("protos.ChaincodeInvocationSpec", payload.input);
    if (spec.chaincodeSpec === null)
      throw new ProposalError("chaincode invocation spec did not contain chaincode spec");
    if (spec.chaincodeSpec.input === null) throw new ProposalError("chaincode input did not contain any input");
    return {
      signedProposal,
      proposal,
      header,
      channelHeader,
      signatureHeader,
      chaincodeName: extension.chaincodeId.name,
      specChaincodeName: spec.chaincodeSpec.chaincodeId?.name ?? "",
      payloadVisibility: extension.payloadVisibility.toString("utf8"),
      payload,
      input: spec.chaincodeSpec.input,
      payloadWithoutTransient: encode("protos.ChaincodeProposalPayload", { input: payload.input }),
    };
  });
}

/**
 * Fabric's UnpackedProposal.Validate followed by preProcess's duplicate-transaction check. Resolves when the
 * proposal may be simulated; throws ProposalError ("error validating proposal: ..." or "duplicate transaction ...").
 */
export async function validateProposal(
  up: UnpackedProposal,
  msp: MembershipServices,
  isCommitted: (txId: string) => boolean,
): Promise<void> {
  const refuse = (message: string): never => {
    throw new ProposalError(`error validating proposal: ${message}`);
  };
  const { channelHeader: chdr, signatureHeader: shdr } = up;
  if (chdr.type !== HeaderType.ENDORSER_TRANSACTION && chdr.type !== HeaderType.CONFIG) {
    refuse(`invalid header type ${chdr.type}`);
  }
  if (chdr.epoch !== 0n) refuse("epoch is non-zero");
  if (shdr.nonce.length === 0) refuse("nonce is empty");
  if (shdr.creator.length === 0) refuse("creator is empty");
  const expected = computeTxId(shdr.nonce, shdr.creator);
  if (chdr.txId !== expected) refuse(`incorrectly computed txid '${chdr.txId}' -- expected '${expected}'`);
  if (up.signedProposal.proposalBytes.length === 0) refuse("empty proposal bytes");
  if (up.signedProposal.signature.length === 0) refuse("empty signature bytes");
  const creator = await msp.verify(shdr.creator, up.signedProposal.proposalBytes, up.signedProposal.signature);
  if (!creator.ok) {
    if (creator.problem === "invalid")
      refuse(`access denied: channel [${chdr.channelId}] creator org [${creator.mspId}]`);
    refuse(`access denied: channel [${chdr.channelId}] creator org unknown, creator is malformed`);
  }
  if (isCommitted(chdr.txId)) {
    throw new ProposalError(`duplicate transaction found [${chdr.txId}]. Creator [${shdr.creator.toString("hex")}]`);
  }
  // The endorser's ACL check (peer/Propose = the channel's Writers) for application chaincodes; the system
  // chaincodes check their own (qscc the channel's Readers, _lifecycle per function: peer.ts), as Fabric's do.
  const system = up.chaincodeName === QSCC_NAME || up.chaincodeName === LIFECYCLE_SCC;
  if (creator.ok && !system && up.channelHeader.channelId !== "" && !WRITER_ROLES.includes(creator.identity.role)) {
    throw new ProposalError(policyDenied(chdr.channelId, "Writers"));
  }
}
