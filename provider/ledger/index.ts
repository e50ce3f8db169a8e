/**
 * The ledger library: Fabric-compatible messages and codec, identities and low-S ECDSA signing, proposals and the
 * visibility function, verify-before-sign, and a Gateway client. No @pulumi/pulumi here. See README.md.
 */
export { PROTO_FILES, findProtosDir, protoRoot, protoType, protoEnum } from "./proto-root";
export { codecs } from "./codec";
export type { CodecName, DecodeContext, MessageCodec, MessageInit } from "./codec";
export type * from "./messages";
export type * from "./config-messages";
export {
  ChannelCapabilityError,
  cachedChannelCapabilities,
  capabilitiesOfConfigBlock,
  describeChannelCapabilities,
  forgetChannelCapabilities,
  lastConfigIndexOf,
  readChannelCapabilities,
  resolveChannelCapabilities,
} from "./channel-capabilities";
export type {
  ChannelCapabilities,
  ChannelCapabilityLevel,
  ChannelCapabilityProblem,
  ChannelCapabilityRequest,
  ChannelCapabilityResolution,
} from "./channel-capabilities";
export { unwrap, unwrapEnvelope, unwrapChaincodeAction, HeaderType } from "./unwrap";
export type { UnwrappedChaincodeAction, UnwrappedEnvelope, UnwrappedNamespace, UnwrappedTransaction } from "./unwrap";
export {
  TxValidationCode,
  describeValidationCode,
  validationCodeMeaning,
  validationCodeName,
  validationCodeNumber,
} from "./validation-codes";
export type { TxValidationCodeName } from "./validation-codes";
export { MetaDataKeys } from "./metadata-keys";
export { DEFAULT_HASH, bytesEqual, concatBytes, none, sha256, sha384, sha3_256, sha3_384, toHex } from "./hash";
export type { Hash } from "./hash";
export { deserializeIdentity, identityKeyType, newIdentity, serializeIdentity } from "./identity";
export {
  KEY_TYPES,
  KEY_TYPE_NAMES,
  SUPPORTED_KEY_TYPES_TEXT,
  describeKey,
  ecdsaCurveOf,
  keyTypeOf,
  needsV3,
} from "./key-types";
export type { KeyType } from "./key-types";
export type { Identity } from "./identity";
export {
  isLowS,
  lowSSigner,
  newPrivateKeySigner,
  normalizeLowS,
  privateKeySignerType,
  signatureFormProblem,
  toLowSDer,
  verifySignature,
} from "./signing";
export type { Signer, VerifySignatureOptions } from "./signing";
export { DEFAULT_HSM_MAX_SESSIONS, openHsmSigner } from "./hsm-signer";
export type { HsmSigner, HsmSignerOptions } from "./hsm-signer";
export {
  assertSignerMatchesCertificate,
  certificateSubject,
  ecPointOf,
  fabricSki,
  publicKeyFromEcPoint,
  samePublicKey,
} from "./signer-keys";
export type { SignerKeyCheck } from "./signer-keys";
export { verifyCertificateChain } from "./cert-chain";
export type { CertificateTrustOptions, TrustedMsp, VerifiedChain } from "./cert-chain";
export {
  DEFAULT_CHAINCODE_TYPE,
  DEFAULT_NONCE_LENGTH_BYTES,
  DEFAULT_VISIBILITY,
  VISIBILITY_MODES,
  applyVisibility,
  buildProposal,
  computeProposalHash,
  computeTxId,
  newNonce,
  parseProposal,
  parseVisibility,
  visibilityBytes,
} from "./proposal";
export type { BuiltProposal, ProposalOptions, Visibility } from "./proposal";
export { verifyPreparedTransaction, verifyTransactionEnvelope } from "./verify";
export type { EnvelopeVerifyOptions, VerificationReport, VerifyOptions } from "./verify";
export type { VerifiedEndorser } from "./endorsements";
export {
  encodeSignedTransaction,
  exportSignedTransaction,
  signedTransactionDigest,
  transactionBytesOf,
  verifySignedTransaction,
} from "./signed-transaction";
export type { SignedTransactionInfo } from "./signed-transaction";
export {
  DEFAULT_COMMIT_STATUS_TIMEOUT_MS,
  DEFAULT_ENDORSE_TIMEOUT_MS,
  DEFAULT_EVALUATE_TIMEOUT_MS,
  DEFAULT_SUBMIT_TIMEOUT_MS,
  connect,
  isTransactionNotFound,
  newGatewayGrpcClient,
} from "./gateway-client";
export type {
  CallOptionsSupplier,
  ConnectOptions,
  Gateway,
  GatewayTlsOptions,
  ProposalRequest,
  SubmitResult,
} from "./gateway-client";
export type { Commit, CommitStatus, Proposal, Signable, StepCallOptions, Transaction } from "./gateway-objects";
export type {
  ChaincodeEvent,
  ChaincodeEventsOptions,
  ChaincodeEventsRequest,
  Checkpoint,
  CloseableAsyncIterable,
  GetEventsOptions,
} from "./chaincode-events";
export { GATEWAY_METHODS, parseErrorDetails } from "./grpc-transport";
export { detectMessage, renderMessage } from "./json-view";
export type { DetectedType } from "./json-view";
export { main } from "./cli";
export type { CliIo } from "./cli";
export { evaluateChaincode, readChainInfo, readErrorOf, readTransaction, transactionIdProblem } from "./qscc-reads";
export type { ChainInfo, EvaluationResult } from "./qscc-reads";
export { bytesView, describeProcessedTransaction } from "./transaction-record";
export type {
  LedgerBytesView,
  LedgerIdentityView,
  LedgerNamespaceView,
  LedgerVerificationView,
  TransactionRecord,
} from "./transaction-record";
export { LedgerReadError } from "./ledger-read-error";
export type { LedgerReadProblem } from "./ledger-read-error";
export { LedgerError } from "./ledger-error";
export { LedgerDecodeError } from "./ledger-decode-error";
export { VerificationError } from "./verification-error";
export type { VerificationMismatch } from "./verification-error";
export { IdentityError } from "./identity-error";
export { SignerError } from "./signer-error";
export { GatewayError } from "./gateway-error";
export { EndorseError } from "./endorse-error";
export { SubmitError } from "./submit-error";
export { CommitStatusError } from "./commit-status-error";
export { ChaincodeEventsError } from "./chaincode-events-error";
export { CommitError } from "./commit-error";
