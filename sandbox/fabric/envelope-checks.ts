/**
 * Committer stage A (Fabric core/common/validation/msgvalidation.go ValidateTransaction), in Fabric's order:
 * envelope, payload, common header, creator signature, txId, then the endorser-transaction structure with the
 * proposal-hash binding. Each failure returns the TxValidationCode a Fabric peer assigns to it.
 */
import { computeTxId, HeaderType, sha256 } from "./channel-config";
import type { ChaincodeActionPayload, ChannelHeader, Envelope, Payload, SignatureHeader } from "./messages";
import type { MembershipServices } from "./msp";
import { TxValidationCode } from "../../provider/ledger/protos/tx-validation-code";
import { tryDecode } from "./wire";

/** A structurally valid endorser transaction, as stage A leaves it for the later stages. */
export interface EndorserTransaction {
  readonly channelHeader: ChannelHeader;
  readonly signatureHeader: SignatureHeader;
  readonly actionPayload: ChaincodeActionPayload;
  /** The exact ProposalResponsePayload bytes the endorsers signed. */
  readonly proposalResponsePayload: Buffer;
}

export interface EnvelopeCheck {
  readonly code: number;
  /** Known once the channel header parses; empty before. */
  readonly txId: string;
  /** Why the code is not VALID, for diagnostics. */
  readonly reason: string;
  readonly channelHeader?: ChannelHeader;
  readonly transaction?: EndorserTransaction;
}

function failure(code: number, reason: string, txId = "", channelHeader?: ChannelHeader): EnvelopeCheck {
  return channelHeader === undefined ? { code, txId, reason } : { code, txId, reason, channelHeader };
}

interface Headers {
  readonly channelHeader: ChannelHeader;
  readonly signatureHeader: SignatureHeader;
}

function commonHeader(payload: Payload): Headers | string {
  if (payload.header === null) return "header is nil";
  const channelHeader = tryDecode("common.ChannelHeader", payload.header.channelHeader);
  if (channelHeader === undefined) return "channel header does not parse";
  const signatureHeader = tryDecode("common.SignatureHeader", payload.header.signatureHeader);
  if (signatureHeader === undefined) return "signature header does not parse";
  const allowed: readonly number[] = [HeaderType.ENDORSER_TRANSACTION, HeaderType.CONFIG_UPDATE, HeaderType.CONFIG];
  if (!allowed.includes(channelHeader.type)) return `invalid header type ${channelHeader.type}`;
  if (channelHeader.epoch !== 0n) return `invalid epoch in channel header: ${channelHeader.epoch}, expected 0`;
  if (signatureHeader.nonce.length === 0) return "invalid nonce specified in the header";
  if (signatureHeader.creator.length === 0) return "invalid creator specified in the header";
  return { channelHeader, signatureHeader };
}

/** Fabric validateEndorserTransaction: one action, a well-formed action header, and the proposal-hash binding. */
function endorserTransaction(data: Buffer, payload: Payload, headers: Headers): EndorserTransaction | string {
  const tx = tryDecode("protos.Transaction", data);
  if (tx === undefined) return "transaction does not parse";
  if (tx.actions.length !== 1) return `only one action per transaction is supported, tx contains ${tx.actions.length}`;
  const action = tx.actions[0];
  if (action === undefined) return "nil action";
  const actionHeader = tryDecode("common.SignatureHeader", action.header);
  if (actionHeader === undefined) return "action header does not parse";
  if (actionHeader.nonce.length === 0 || actionHeader.creator.length === 0)
    return "action header lacks nonce or creator";
  const actionPayload = tryDecode("protos.ChaincodeActionPayload", action.payload);
  if (actionPayload === undefined) return "chaincode action payload does not parse";
  if (actionPayload.action === null) return "chaincode action payload has no endorsed action";
  const prpBytes = actionPayload.action.proposalResponsePayload;
  const prp = tryDecode("protos.ProposalResponsePayload", prpBytes);
  if (prp === undefined) return "proposal response payload does not parse";
  // GetProposalHash2: the payload's channel header, the action's signature header, the cpp bytes as they are.
  const expected = sha256(
    payload.header?.channelHeader ?? Buffer.alloc(0),
    action.header,
    actionPayload.chaincodeProposalPayload,
  );
  if (!expected.equals(prp.proposalHash)) return "proposal hash does not match";
  return {
    channelHeader: headers.channelHeader,
    signatureHeader: headers.signatureHeader,
    actionPayload,
    proposalResponsePayload: prpBytes,
  };
}

/** Stage A for one block entry. */
export async function checkEnvelope(bytes: Uint8Array, msp: MembershipServices): Promise<EnvelopeCheck> {
  if (bytes.length === 0) return failure(TxValidationCode.NIL_ENVELOPE, "nil envelope");
  const envelope: Envelope | undefined = tryDecode("common.Envelope", bytes);
  if (envelope === undefined) return failure(TxValidationCode.INVALID_OTHER_REASON, "block entry is not an Envelope");
  const payload = tryDecode("common.Payload", envelope.payload);
  if (payload === undefined) return failure(TxValidationCode.BAD_PAYLOAD, "payload does not parse");
  const headers = commonHeader(payload);
  if (typeof headers === "string") return failure(TxValidationCode.BAD_COMMON_HEADER, headers);
  const { channelHeader, signatureHeader } = headers;
  const txId = channelHeader.txId;

  const creator = await msp.verify(signatureHeader.creator, envelope.payload, envelope.signature);
  if (!creator.ok) {
    return failure(TxValidationCode.BAD_CREATOR_SIGNATURE, `creator: ${creator.detail}`, txId, channelHeader);
  }
  switch (channelHeader.type) {
    case HeaderType.ENDORSER_TRANSACTION: {
      const computed = computeTxId(signatureHeader.nonce, signatureHeader.creator);
      if (computed !== txId) {
        return failure(
          TxValidationCode.BAD_PROPOSAL_TXID,
          `invalid txid: got ${txId}, expected ${computed}`,
          txId,
          channelHeader,
        );
      }
      const tx = endorserTransaction(payload.data, payload, headers);
      if (typeof tx === "string")
        return failure(TxValidationCode.INVALID_ENDORSER_TRANSACTION, tx, txId, channelHeader);
      return { code: TxValidationCode.VALID, txId, reason: "", channelHeader, transaction: tx };
    }
    case HeaderType.CONFIG:
      // The sandbox channel has no configuration to update, so no config transaction can validate.
      return failure(
        TxValidationCode.INVALID_CONFIG_TRANSACTION,
        "config transactions are not supported",
        txId,
        channelHeader,
      );
    default:
      return failure(
        TxValidationCode.UNSUPPORTED_TX_PAYLOAD,
        `unsupported header type ${channelHeader.type}`,
        txId,
        channelHeader,
      );
  }
}
