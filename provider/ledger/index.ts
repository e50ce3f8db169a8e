/**
 * The ledger library: Fabric-compatible messages and codec, identities and low-S ECDSA signing, proposals and the
 * visibility function, verify-before-sign, and a Gateway client. No @pulumi/pulumi here. See README.md.
 *
 * This index holds what the other rooms (provider/resources, provider/plugin, sdk/, sandbox/, scripts/, bench/,
 * fuzz/) import, and nothing else; tests import the module they test by its path (`../../provider/ledger/codec`).
 * test/unit/boundaries.test.ts keeps this list to the names other rooms use.
 */
export { codecs } from "./codec";
export type { ProcessedTransaction } from "./messages";
export { resolveChannelCapabilities } from "./channel-capabilities";
export type { ChannelCapabilityResolution } from "./channel-capabilities";
export { unwrap } from "./unwrap";
export { sha256 } from "./hash";
export { certificateOf, deserializeIdentity, newIdentity, parseCertificate, serializeIdentity } from "./identity";
export { KEY_TYPE_NAMES, SUPPORTED_KEY_TYPES_TEXT, describeKey, keyTypeOf } from "./key-types";
export type { KeyType } from "./key-types";
export { isLowS, newPrivateKeySigner, toLowSDer, verifySignature } from "./signing";
export type { Signer } from "./signing";
export { openHsmSigner } from "./hsm-signer";
export { assertSignerMatchesCertificate, fabricSki, privateKeyOf, samePublicKey } from "./signer-keys";
export { VISIBILITY_MODES, computeTxId } from "./proposal";
export type { Visibility } from "./proposal";
export { connect } from "./gateway-client";
export type { Transaction } from "./gateway-objects";
export type { Gateway, ProposalRequest } from "./gateway-client";
export type { GatewayTlsOptions } from "./gateway-grpc-client";
export { evaluateChaincode, readChainInfo, readTransaction, transactionIdProblem } from "./qscc-reads";
export type { ChainInfo, EvaluationResult } from "./qscc-reads";
export type { TransactionRecord } from "./transaction-record";
