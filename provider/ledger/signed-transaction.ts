/**
 * SignedTransaction (Fabric 1.4, gone from modern Fabric) as an offline-signing export format only:
 * the serialized Transaction and the creator's signature over it. It is never sent on the wire: Fabric carries
 * transactions as a common.Envelope signed over its payload.
 *
 * Spec rules enforced by `verifySignedTransaction`: the public key for the signature is in the header of the
 * TransactionAction, and all action headers carry the same transactor identity.
 */
import { codecs } from "./codec";
import { bytesEqual, DEFAULT_HASH } from "./hash";
import type { Hash } from "./hash";
import { LedgerDecodeError } from "../errors/ledger/ledger-decode-error";
import type { Envelope, SignedTransaction } from "./messages";
import { normalizeLowS, verifySignature } from "./signing";
import type { Signer } from "./signing";
import { TxValidationCode } from "../errors/ledger/validation-codes";
import { VerificationError } from "../errors/ledger/verification-error";

/** The serialized Transaction inside an envelope (Payload.data). Throws LedgerDecodeError. */
export function transactionBytesOf(envelope: Envelope | Uint8Array): Uint8Array {
  const env = envelope instanceof Uint8Array ? codecs.Envelope.decode(envelope) : envelope;
  return codecs.Payload.decode(env.payload, { validationCode: TxValidationCode.BAD_PAYLOAD }).data;
}

/** The digest an offline signer signs for a SignedTransaction export: hash(transaction bytes). */
export function signedTransactionDigest(transactionBytes: Uint8Array, hash: Hash = DEFAULT_HASH): Uint8Array {
  return hash(transactionBytes);
}

/** Encodes a SignedTransaction export from transaction bytes and a signature made elsewhere (low-S enforced). */
export function encodeSignedTransaction(transactionBytes: Uint8Array, signature: Uint8Array): Uint8Array {
  return codecs.SignedTransaction.encode({ transactionBytes, signature: normalizeLowS(signature) });
}

/** Signs the transaction inside an envelope and returns the SignedTransaction export bytes. */
export async function exportSignedTransaction(
  envelope: Envelope | Uint8Array,
  signer: Signer,
  hash: Hash = DEFAULT_HASH,
): Promise<Uint8Array> {
  const transactionBytes = transactionBytesOf(envelope);
  return encodeSignedTransaction(transactionBytes, await signer(signedTransactionDigest(transactionBytes, hash)));
}

export interface SignedTransactionInfo {
  readonly signedTransaction: SignedTransaction;
  readonly creatorMspId: string;
  readonly actionCount: number;
}

/**
 * Verifies a SignedTransaction export: it decodes, every action header names the same creator, and the signature
 * verifies over transaction_bytes with that creator's certificate. Rejects with VerificationError only.
 */
export function verifySignedTransaction(
  bytes: Uint8Array,
  options: { readonly hashAlgorithm?: string } = {},
): Promise<SignedTransactionInfo> {
  const fail = (
    mismatch: "malformed" | "creator" | "creatorSignature",
    code: number,
    reason: string,
    cause?: unknown,
  ): never => {
    throw new VerificationError({ transactionId: "", mismatch, validationCode: code, reason, cause });
  };
  try {
    const signedTransaction = codecs.SignedTransaction.decode(bytes);
    const transaction = codecs.Transaction.decode(signedTransaction.transactionBytes, {
      path: "SignedTransaction.transaction_bytes",
      validationCode: TxValidationCode.INVALID_ENDORSER_TRANSACTION,
    });
    const headers = transaction.actions.map((a, i) =>
      codecs.SignatureHeader.decode(a.header, {
        path: `Transaction.actions[${i}].header`,
        validationCode: TxValidationCode.INVALID_ENDORSER_TRANSACTION,
      }),
    );
    const first = headers[0];
    if (first === undefined)
      return fail("malformed", TxValidationCode.INVALID_ENDORSER_TRANSACTION, "the transaction has no actions");
    if (headers.some((h) => !bytesEqual(h.creator, first.creator))) {
      return fail(
        "creator",
        TxValidationCode.INVALID_ENDORSER_TRANSACTION,
        "the action headers carry different creators",
      );
    }
    const creator = codecs.SerializedIdentity.decode(first.creator, {
      validationCode: TxValidationCode.BAD_CREATOR_SIGNATURE,
    });
    const ok = verifySignature({
      publicKey: creator.idBytes,
      message: signedTransaction.transactionBytes,
      signature: signedTransaction.signature,
      hashAlgorithm: options.hashAlgorithm ?? "sha256",
    });
    if (!ok)
      return fail(
        "creatorSignature",
        TxValidationCode.BAD_CREATOR_SIGNATURE,
        "the signature does not verify over transaction_bytes for the creator",
      );
    return Promise.resolve({ signedTransaction, creatorMspId: creator.mspid, actionCount: transaction.actions.length });
  } catch (error) {
    if (error instanceof VerificationError) return Promise.reject(error);
    const code = error instanceof LedgerDecodeError ? error.validationCode : TxValidationCode.INVALID_OTHER_REASON;
    const reason = error instanceof LedgerDecodeError ? `${error.path}: ${error.reason}` : "unexpected failure";
    return Promise.reject(
      new VerificationError({ transactionId: "", mismatch: "malformed", validationCode: code, reason, cause: error }),
    );
  }
}
