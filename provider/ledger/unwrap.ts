/**
 * `unwrap(envelopeBytes)`: walks Envelope → Payload → Transaction → actions → ChaincodeActionPayload →
 * ChaincodeEndorsedAction → ProposalResponsePayload → ChaincodeAction → TxReadWriteSet (and the KVRWSets inside).
 *
 * A failure throws LedgerDecodeError with the TxValidationCode a committing peer would assign at that point
 * (Fabric's core/committer/txvalidator). The walk is split in the committer's two stages so that a verifier can run the
 * stage-A checks (signature, txId, proposal hash) between them: `unwrapEnvelope` (stage A decoding) and
 * `unwrapChaincodeAction` (stage C decoding).
 */
import { codecs } from "./codec";
import type { DecodeContext, MessageCodec } from "./codec";
import { LedgerDecodeError } from "../errors/ledger/ledger-decode-error";
import type * as m from "./messages";
import { TxValidationCode } from "../errors/ledger/validation-codes";

/** common.HeaderType values used here. */
export const HeaderType = {
  MESSAGE: 0,
  CONFIG: 1,
  CONFIG_UPDATE: 2,
  ENDORSER_TRANSACTION: 3,
} as const;

/** Stage A: the envelope down to the (single) action's ProposalResponsePayload. */
export interface UnwrappedEnvelope {
  readonly envelope: m.Envelope;
  readonly payload: m.Payload;
  readonly header: m.Header;
  readonly channelHeader: m.ChannelHeader;
  readonly signatureHeader: m.SignatureHeader;
  readonly creator: m.SerializedIdentity;
  readonly transaction: m.Transaction;
  /** The only action (the committer accepts exactly one). */
  readonly action: m.TransactionAction;
  /** TransactionAction.header decoded: the proposal's SignatureHeader. */
  readonly actionSignatureHeader: m.SignatureHeader;
  readonly actionPayload: m.ChaincodeActionPayload;
  readonly endorsedAction: m.ChaincodeEndorsedAction;
  readonly proposalResponsePayload: m.ProposalResponsePayload;
}

export interface UnwrappedNamespace {
  readonly namespace: string;
  readonly kvRwSet: m.KvRwSet;
}

/** Stage C: the header extension and the chaincode action with its read/write set and event. */
export interface UnwrappedChaincodeAction {
  readonly headerExtension: m.ChaincodeHeaderExtension;
  readonly chaincodeAction: m.ChaincodeAction;
  readonly readWriteSet: m.TxReadWriteSet;
  readonly namespaces: readonly UnwrappedNamespace[];
  /** Absent when ChaincodeAction.events is empty. */
  readonly event?: m.ChaincodeEvent;
}

export type UnwrappedTransaction = UnwrappedEnvelope & UnwrappedChaincodeAction;

function fail(path: string, messageType: string, code: number, reason: string, transactionId?: string): never {
  throw new LedgerDecodeError({ messageType, path, validationCode: code, reason, transactionId });
}

function decodeAt<T>(codec: MessageCodec<T>, bytes: Uint8Array, context: DecodeContext): T {
  return codec.decode(bytes, context);
}

/** Stage A decoding (committer checks A0–A3 and A6), without signature, txId or proposal-hash verification. */
export function unwrapEnvelope(envelopeBytes: Uint8Array): UnwrappedEnvelope {
  const C = TxValidationCode;
  if (envelopeBytes.length === 0) fail("Envelope", "common.Envelope", C.NIL_ENVELOPE, "the envelope is empty");
  const envelope = decodeAt(codecs.Envelope, envelopeBytes, {
    path: "Envelope",
    validationCode: C.INVALID_OTHER_REASON,
  });
  const payload = decodeAt(codecs.Payload, envelope.payload, {
    path: "Envelope.payload",
    validationCode: C.BAD_PAYLOAD,
  });
  const header = payload.header;
  if (header === undefined) fail("Payload.header", "common.Header", C.BAD_COMMON_HEADER, "the payload has no header");
  const chPath = "Payload.header.channel_header";
  const channelHeader = decodeAt(codecs.ChannelHeader, header.channelHeader, {
    path: chPath,
    validationCode: C.BAD_COMMON_HEADER,
  });
  const txId = channelHeader.txId;
  const signatureHeader = decodeAt(codecs.SignatureHeader, header.signatureHeader, {
    path: "Payload.header.signature_header",
    validationCode: C.BAD_COMMON_HEADER,
    transactionId: txId,
  });
  checkHeader(channelHeader, signatureHeader);
  const creator = decodeAt(codecs.SerializedIdentity, signatureHeader.creator, {
    path: "SignatureHeader.creator",
    validationCode: C.BAD_CREATOR_SIGNATURE,
    transactionId: txId,
  });
  const bad = { validationCode: C.INVALID_ENDORSER_TRANSACTION, transactionId: txId };
  const transaction = decodeAt(codecs.Transaction, payload.data, { ...bad, path: "Payload.data" });
  const [action, ...more] = transaction.actions;
  if (action === undefined || more.length > 0) {
    fail(
      "Transaction.actions",
      "protos.Transaction",
      C.INVALID_ENDORSER_TRANSACTION,
      `expected exactly one action, found ${transaction.actions.length}`,
      txId,
    );
  }
  const actionSignatureHeader = decodeAt(codecs.SignatureHeader, action.header, {
    ...bad,
    path: "TransactionAction.header",
  });
  if (actionSignatureHeader.nonce.length === 0 || actionSignatureHeader.creator.length === 0) {
    fail(
      "TransactionAction.header",
      "common.SignatureHeader",
      C.INVALID_ENDORSER_TRANSACTION,
      "the action's signature header has an empty nonce or creator",
      txId,
    );
  }
  const actionPayload = decodeAt(codecs.ChaincodeActionPayload, action.payload, {
    ...bad,
    path: "TransactionAction.payload",
  });
  const endorsedAction = actionPayload.action;
  if (endorsedAction === undefined) {
    fail(
      "ChaincodeActionPayload.action",
      "protos.ChaincodeEndorsedAction",
      C.INVALID_ENDORSER_TRANSACTION,
      "the chaincode action payload has no endorsed action",
      txId,
    );
  }
  const proposalResponsePayload = decodeAt(codecs.ProposalResponsePayload, endorsedAction.proposalResponsePayload, {
    ...bad,
    path: "ChaincodeEndorsedAction.proposal_response_payload",
  });
  return {
    envelope,
    payload,
    header,
    channelHeader,
    signatureHeader,
    creator,
    transaction,
    action,
    actionSignatureHeader,
    actionPayload,
    endorsedAction,
    proposalResponsePayload,
  };
}

function checkHeader(channelHeader: m.ChannelHeader, signatureHeader: m.SignatureHeader): void {
  const C = TxValidationCode;
  const txId = channelHeader.txId;
  const type = channelHeader.type;
  if (type === HeaderType.CONFIG) {
    fail(
      "ChannelHeader.type",
      "common.ChannelHeader",
      C.INVALID_CONFIG_TRANSACTION,
      "a CONFIG transaction is not an endorser transaction",
      txId,
    );
  }
  if (type === HeaderType.CONFIG_UPDATE) {
    fail(
      "ChannelHeader.type",
      "common.ChannelHeader",
      C.UNSUPPORTED_TX_PAYLOAD,
      "a CONFIG_UPDATE is not a transaction payload",
      txId,
    );
  }
  if (type !== HeaderType.ENDORSER_TRANSACTION) {
    fail(
      "ChannelHeader.type",
      "common.ChannelHeader",
      C.BAD_COMMON_HEADER,
      `header type ${type} is not ENDORSER_TRANSACTION (3)`,
      txId,
    );
  }
  if (channelHeader.epoch !== 0n) {
    fail(
      "ChannelHeader.epoch",
      "common.ChannelHeader",
      C.BAD_COMMON_HEADER,
      `epoch is ${channelHeader.epoch}, must be 0`,
      txId,
    );
  }
  if (signatureHeader.nonce.length === 0) {
    fail("SignatureHeader.nonce", "common.SignatureHeader", C.BAD_COMMON_HEADER, "the nonce is empty", txId);
  }
  if (signatureHeader.creator.length === 0) {
    fail("SignatureHeader.creator", "common.SignatureHeader", C.BAD_COMMON_HEADER, "the creator is empty", txId);
  }
}

/** Stage C decoding (committer checks C2–C8): header extension, ChaincodeAction, read/write set and event. */
export function unwrapChaincodeAction(unwrapped: UnwrappedEnvelope): UnwrappedChaincodeAction {
  const C = TxValidationCode;
  const txId = unwrapped.channelHeader.txId;
  const headerExtension = decodeAt(codecs.ChaincodeHeaderExtension, unwrapped.channelHeader.extension, {
    path: "ChannelHeader.extension",
    validationCode: C.BAD_HEADER_EXTENSION,
    transactionId: txId,
  });
  const chaincodeAction = decodeAt(codecs.ChaincodeAction, unwrapped.proposalResponsePayload.extension, {
    path: "ProposalResponsePayload.extension",
    validationCode: C.BAD_RESPONSE_PAYLOAD,
    transactionId: txId,
  });
  const rw = { validationCode: C.BAD_RWSET, transactionId: txId };
  const readWriteSet = decodeAt(codecs.TxReadWriteSet, chaincodeAction.results, {
    ...rw,
    path: "ChaincodeAction.results",
  });
  const namespaces = readWriteSet.nsRwset.map((ns, i) => ({
    namespace: ns.namespace,
    kvRwSet: decodeAt(codecs.KvRwSet, ns.rwset, { ...rw, path: `TxReadWriteSet.ns_rwset[${i}].rwset` }),
  }));
  const ccName = headerExtension.chaincodeId?.name;
  const actionId = chaincodeAction.chaincodeId;
  if (ccName === undefined || actionId === undefined) {
    fail(
      "ChaincodeAction.chaincode_id",
      "protos.ChaincodeID",
      C.INVALID_OTHER_REASON,
      "the header extension or the chaincode action has no chaincode id",
      txId,
    );
  }
  if (ccName === "")
    fail(
      "ChaincodeHeaderExtension.chaincode_id.name",
      "protos.ChaincodeID",
      C.INVALID_CHAINCODE,
      "the chaincode name is empty",
      txId,
    );
  if (actionId.name !== ccName) {
    fail(
      "ChaincodeAction.chaincode_id.name",
      "protos.ChaincodeID",
      C.INVALID_CHAINCODE,
      `the chaincode action is for '${actionId.name}', the header names '${ccName}'`,
      txId,
    );
  }
  if (actionId.version === "") {
    fail(
      "ChaincodeAction.chaincode_id.version",
      "protos.ChaincodeID",
      C.INVALID_CHAINCODE,
      "the chaincode action has an empty chaincode version",
      txId,
    );
  }
  let event: m.ChaincodeEvent | undefined;
  if (chaincodeAction.events.length > 0) {
    event = decodeAt(codecs.ChaincodeEvent, chaincodeAction.events, {
      path: "ChaincodeAction.events",
      validationCode: C.INVALID_OTHER_REASON,
      transactionId: txId,
    });
    if (event.chaincodeId !== ccName) {
      fail(
        "ChaincodeEvent.chaincode_id",
        "protos.ChaincodeEvent",
        C.INVALID_OTHER_REASON,
        `the event names chaincode '${event.chaincodeId}', not '${ccName}'`,
        txId,
      );
    }
  }
  const seen = new Set<string>();
  for (const ns of namespaces) {
    if (seen.has(ns.namespace)) {
      fail(
        "TxReadWriteSet.ns_rwset",
        "rwset.TxReadWriteSet",
        C.ILLEGAL_WRITESET,
        `namespace '${ns.namespace}' appears more than once`,
        txId,
      );
    }
    seen.add(ns.namespace);
  }
  return event === undefined
    ? { headerExtension, chaincodeAction, readWriteSet, namespaces }
    : { headerExtension, chaincodeAction, readWriteSet, namespaces, event };
}

/** The whole walk; throws LedgerDecodeError carrying the code a committer would assign. */
export function unwrap(envelopeBytes: Uint8Array): UnwrappedTransaction {
  const stageA = unwrapEnvelope(envelopeBytes);
  return { ...stageA, ...unwrapChaincodeAction(stageA) };
}
