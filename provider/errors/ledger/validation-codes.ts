/**
 * TxValidationCode: names and numbers (provider/ledger/protos/tx-validation-code.ts, generated from the .proto, which
 * holds INVALID_CHAINCODE = 25 from Fabric 2.0) and the meanings the client explains them with. Numbers outside the
 * enum are rendered as `UNKNOWN(n)`, never thrown on.
 */
import { TxValidationCode, validationCodeName } from "../../ledger/protos/tx-validation-code";
import type { TxValidationCodeName } from "../../ledger/protos/tx-validation-code";

export { TxValidationCode, validationCodeName };
export type { TxValidationCodeName };

const MEANINGS: Readonly<Record<TxValidationCodeName, string>> = {
  VALID: "the transaction is valid and its writes were committed",
  NIL_ENVELOPE: "the block held no envelope for the transaction",
  BAD_PAYLOAD: "the envelope payload is not a parsable common.Payload",
  BAD_COMMON_HEADER:
    "the common header is missing or malformed (unparsable channel or signature header, wrong header type, non-zero epoch, or empty nonce or creator)",
  BAD_CREATOR_SIGNATURE:
    "the creator identity is not valid for the channel or the envelope signature does not verify (including high-S or non-DER signatures)",
  INVALID_ENDORSER_TRANSACTION:
    "the endorser transaction is malformed: not exactly one action, unparsable action or response payload, or the proposal hash does not match the header and chaincode proposal payload",
  INVALID_CONFIG_TRANSACTION: "the configuration transaction is invalid",
  UNSUPPORTED_TX_PAYLOAD: "the header type is not supported for a transaction payload",
  BAD_PROPOSAL_TXID: "the transaction id is not hex(SHA-256(nonce ‖ creator))",
  DUPLICATE_TXID: "a transaction with the same id is already in the ledger or earlier in the block",
  ENDORSEMENT_POLICY_FAILURE:
    "the endorsements do not satisfy the endorsement policy (missing, untrusted or invalid endorsement signatures)",
  MVCC_READ_CONFLICT: "a key read during simulation was changed by a transaction committed in between",
  PHANTOM_READ_CONFLICT: "the results of a range query changed between simulation and commit",
  UNKNOWN_TX_TYPE: "the header type is neither an endorser nor a configuration transaction",
  TARGET_CHAIN_NOT_FOUND: "the channel is not known to the committing peer",
  MARSHAL_TX_ERROR: "the envelope could not be re-marshalled",
  NIL_TXACTION: "the transaction action could not be extracted",
  EXPIRED_CHAINCODE: "the chaincode has expired (legacy, no longer produced)",
  CHAINCODE_VERSION_CONFLICT: "the chaincode version conflicts (legacy, no longer produced)",
  BAD_HEADER_EXTENSION: "the chaincode header extension is not parsable",
  BAD_CHANNEL_HEADER: "the channel header is not parsable",
  BAD_RESPONSE_PAYLOAD: "the chaincode action could not be extracted from the proposal response payload",
  BAD_RWSET: "the read-write set is not a parsable TxReadWriteSet",
  ILLEGAL_WRITESET: "the read-write set names the same namespace twice",
  INVALID_WRITESET: "the write set failed validation",
  INVALID_CHAINCODE:
    "the chaincode is invalid: empty or mismatched name, empty version, or no definition for a namespace written (Fabric ≥ 2.0)",
  NOT_VALIDATED: "the transaction has not been validated yet",
  INVALID_OTHER_REASON: "the transaction is invalid for another reason",
};

/** One sentence explaining the code, or a note that the number is outside the known table. */
export function validationCodeMeaning(code: number): string {
  const name = validationCodeName(code);
  return Object.hasOwn(MEANINGS, name)
    ? MEANINGS[name as TxValidationCodeName]
    : `validation code ${code} is not in the known TxValidationCode table`;
}

/** The number for a code name (case-sensitive, as in the .proto), or `undefined` when the name is not known. */
export function validationCodeNumber(name: string): number | undefined {
  return Object.hasOwn(TxValidationCode, name) ? TxValidationCode[name as TxValidationCodeName] : undefined;
}

/** `NAME (n)`, for error messages. */
export function describeValidationCode(code: number): string {
  return `${validationCodeName(code)} (${code})`;
}
