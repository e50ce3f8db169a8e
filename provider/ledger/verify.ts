/**
 * Verification of endorsed transactions.
 *
 * - `verifyPreparedTransaction` is verify-before-sign: before we sign what a gateway prepared, check that it is the
 *   transaction we proposed (same txId, channel, creator, chaincode; TransactionAction.header is our
 *   SignatureHeader; chaincode_proposal_payload is f(our payload); proposal_hash is our proposal's hash) and that
 *   it would validate (every endorsement signature verifies over proposal_response_payload ‖ endorser with an
 *   endorser certificate chaining to a trusted MSP root). The official client signs whatever comes back; we don't.
 * - `verifyTransactionEnvelope` checks any signed envelope the way a committing peer would (no expectations):
 *   what the `opsledger-ledger verify` command runs.
 *
 * Checks run in the committer's order (Fabric's core/committer/txvalidator); the first failure rejects with
 * VerificationError naming the mismatch and the TxValidationCode a committer would assign. Nothing but
 * VerificationError is thrown.
 */
import { verifyCertificateChain } from "./cert-chain";
import type { TrustedMsp } from "./cert-chain";
import { codecs } from "./codec";
import { checkEndorsements } from "./endorsements";
import type { VerifiedEndorser } from "./endorsements";
import { bytesEqual, concatBytes, sha256, toHex } from "./hash";
import { LedgerDecodeError } from "../errors/ledger/ledger-decode-error";
import type { ChaincodeResponse, Envelope } from "./messages";
import { computeTxId, parseVisibility } from "./proposal";
import type { BuiltProposal, Visibility } from "./proposal";
import { verifySignature } from "./signing";
import { unwrapChaincodeAction, unwrapEnvelope } from "./unwrap";
import type { UnwrappedChaincodeAction, UnwrappedEnvelope } from "./unwrap";
import { TxValidationCode } from "../errors/ledger/validation-codes";
import { VerificationError } from "../errors/ledger/verification-error";
import type { VerificationMismatch } from "../errors/ledger/verification-error";

export interface VerifyOptions {
  /** The MSPs whose root CAs are trusted for endorsers (and, for envelopes, the creator). */
  readonly trustedMsps: readonly TrustedMsp[];
  /** @default () => new Date() */
  readonly now?: () => Date;
  /**
   * The hash of the channel's SignatureHashFamily, by Node name.
   * @default "sha256"
   */
  readonly hashAlgorithm?: string;
  /** MSP ids that must each have a valid endorsement (for example the requested endorsing organizations). */
  readonly requiredOrganizations?: readonly string[];
}

export interface EnvelopeVerifyOptions extends Omit<VerifyOptions, "trustedMsps"> {
  /** Trust anchors; when absent, certificate chains are not checked (signatures still are). */
  readonly trustedMsps?: readonly TrustedMsp[];
  /**
   * Accept an envelope with an empty signature (a prepared, not yet signed transaction): the creator-signature
   * check is then skipped and reported as "creatorSignature(unsigned)".
   * @default false
   */
  readonly allowUnsigned?: boolean;
}

export interface VerificationReport {
  readonly transactionId: string;
  readonly channelId: string;
  readonly creatorMspId: string;
  readonly chaincode: { readonly name: string; readonly version: string };
  /** From the header extension; "unrecognized" for a value that is none of the modes. */
  readonly visibility: Visibility | "unrecognized";
  /** Lower-case hex. */
  readonly proposalHash: string;
  readonly response: ChaincodeResponse;
  readonly endorsers: readonly VerifiedEndorser[];
  /** Whether certificate chains were verified against trusted roots. */
  readonly chainsVerified: boolean;
  /** The checks that passed, in order. */
  readonly checks: readonly string[];
}

class Checks {
  readonly passed: string[] = [];
  constructor(public transactionId: string) {}

  pass(name: string): void {
    this.passed.push(name);
  }

  fail(mismatch: VerificationMismatch, code: number, reason: string, cause?: unknown): never {
    throw new VerificationError({
      transactionId: this.transactionId,
      mismatch,
      validationCode: code,
      reason,
      passedChecks: [...this.passed],
      cause,
    });
  }

  /** Runs a decode step, turning LedgerDecodeError into VerificationError (`malformed`, or `chaincode` for 25). */
  decode<T>(step: () => T): T {
    try {
      return step();
    } catch (error) {
      if (error instanceof LedgerDecodeError) {
        const mismatch = error.validationCode === TxValidationCode.INVALID_CHAINCODE ? "chaincode" : "malformed";
        this.fail(mismatch, error.validationCode, `${error.path}: ${error.reason}`, error);
      }
      this.fail("malformed", TxValidationCode.INVALID_OTHER_REASON, "unexpected decode failure", error);
    }
  }
}

function envelopeBytesOf(envelope: Envelope | Uint8Array): Uint8Array {
  return envelope instanceof Uint8Array ? envelope : codecs.Envelope.encode(envelope);
}

function checkResponse(checks: Checks, stageC: UnwrappedChaincodeAction): ChaincodeResponse {
  const response = stageC.chaincodeAction.response;
  if (response === undefined) checks.fail("response", TxValidationCode.VALID, "the chaincode action has no response");
  if (response.status < 200 || response.status >= 400) {
    checks.fail(
      "response",
      TxValidationCode.VALID,
      `the chaincode response status is ${response.status}, not a success`,
    );
  }
  checks.pass("response");
  return response;
}

/** The expected-proposal checks, in committer order, up to and including the proposal hash. */
function checkAgainstProposal(checks: Checks, a: UnwrappedEnvelope, expected: BuiltProposal): void {
  const C = TxValidationCode;
  const chdr = a.channelHeader;
  if (!bytesEqual(a.signatureHeader.creator, expected.creator)) {
    checks.fail(
      "creator",
      C.BAD_CREATOR_SIGNATURE,
      `the creator is ${a.creator.mspid}'s identity, not ours; our signature would not verify for it`,
    );
  }
  checks.pass("creator");
  if (chdr.txId !== computeTxId(a.signatureHeader.nonce, a.signatureHeader.creator)) {
    checks.fail("txId", C.BAD_PROPOSAL_TXID, `tx_id '${chdr.txId}' is not hex(SHA-256(nonce ‖ creator))`);
  }
  if (chdr.txId !== expected.txId) {
    checks.fail("txId", C.INVALID_ENDORSER_TRANSACTION, `tx_id is '${chdr.txId}', we proposed '${expected.txId}'`);
  }
  checks.pass("txId");
  if (chdr.channelId !== expected.channelId) {
    checks.fail(
      "channel",
      C.INVALID_ENDORSER_TRANSACTION,
      `channel is '${chdr.channelId}', we proposed '${expected.channelId}'`,
    );
  }
  checks.pass("channel");
  let name: string | undefined;
  try {
    name = codecs.ChaincodeHeaderExtension.decode(chdr.extension).chaincodeId?.name;
  } catch {
    name = undefined;
  }
  if (name !== expected.chaincodeName) {
    checks.fail(
      "chaincode",
      C.INVALID_ENDORSER_TRANSACTION,
      `the header names chaincode '${name ?? "(none)"}', we proposed '${expected.chaincodeName}'`,
    );
  }
  checks.pass("chaincode");
  if (!bytesEqual(a.header.channelHeader, expected.channelHeader)) {
    checks.fail("channelHeader", C.INVALID_ENDORSER_TRANSACTION, "the channel header bytes differ from our proposal's");
  }
  if (!bytesEqual(a.header.signatureHeader, expected.signatureHeader)) {
    checks.fail(
      "signatureHeader",
      C.INVALID_ENDORSER_TRANSACTION,
      "the signature header bytes differ from our proposal's",
    );
  }
  checks.pass("header");
  if (!bytesEqual(a.action.header, expected.signatureHeader)) {
    checks.fail("actionHeader", C.INVALID_ENDORSER_TRANSACTION, "TransactionAction.header is not our SignatureHeader");
  }
  checks.pass("actionHeader");
  const cpp = a.actionPayload.chaincodeProposalPayload;
  if (!bytesEqual(cpp, expected.transactionPayload)) {
    const [mismatch, reason] = diagnosePayload(cpp, expected);
    checks.fail(mismatch, C.INVALID_ENDORSER_TRANSACTION, reason);
  }
  checks.pass("chaincodeProposalPayload");
  if (!bytesEqual(a.proposalResponsePayload.proposalHash, expected.proposalHash)) {
    checks.fail(
      "proposalHash",
      C.INVALID_ENDORSER_TRANSACTION,
      "proposal_hash is not the hash of our proposal (channel header ‖ signature header ‖ f(payload))",
    );
  }
  checks.pass("proposalHash");
}

/** Names what differs in chaincode_proposal_payload: the chaincode, the arguments, or just the bytes. */
function diagnosePayload(cpp: Uint8Array, expected: BuiltProposal): [VerificationMismatch, string] {
  const generic: [VerificationMismatch, string] = [
    "chaincodeProposalPayload",
    `chaincode_proposal_payload is not f(our payload) for visibility '${expected.visibility}'`,
  ];
  if (expected.visibility !== "full") return generic;
  try {
    const spec = (p: Uint8Array) =>
      codecs.ChaincodeInvocationSpec.decode(codecs.ChaincodeProposalPayload.decode(p).input).chaincodeSpec;
    const theirs = spec(cpp);
    const ours = spec(expected.transactionPayload);
    if (theirs?.chaincodeId?.name !== ours?.chaincodeId?.name) {
      return [
        "chaincode",
        `the invocation is for chaincode '${theirs?.chaincodeId?.name ?? "(none)"}', we proposed '${expected.chaincodeName}'`,
      ];
    }
    const a = theirs?.input?.args ?? [];
    const b = ours?.input?.args ?? [];
    if (a.length !== b.length || a.some((x, i) => !bytesEqual(x, b[i] ?? new Uint8Array(0)))) {
      return ["args", "the function or arguments differ from the ones we proposed"];
    }
  } catch {
    return generic;
  }
  return generic;
}

function checkCreatorSignature(
  checks: Checks,
  a: UnwrappedEnvelope,
  certificate: Uint8Array,
  hashAlgorithm: string,
): void {
  const ok = verifySignature({
    publicKey: certificate,
    message: a.envelope.payload,
    signature: a.envelope.signature,
    hashAlgorithm,
  });
  if (!ok) {
    checks.fail(
      "creatorSignature",
      TxValidationCode.BAD_CREATOR_SIGNATURE,
      "the envelope signature does not verify for the creator (or is not canonical low-S DER)",
    );
  }
  checks.pass("creatorSignature");
}

/** Committer-style checks of the creator signature, txId and proposal hash (no expectations). */
async function checkAsCommitter(checks: Checks, a: UnwrappedEnvelope, options: EnvelopeVerifyOptions): Promise<void> {
  const C = TxValidationCode;
  const creator = { mspId: a.creator.mspid, credentials: a.creator.idBytes };
  if (options.trustedMsps !== undefined) {
    try {
      await verifyCertificateChain(creator, {
        trustedMsps: options.trustedMsps,
        now: options.now ?? (() => new Date()),
      });
    } catch (error) {
      checks.fail("creator", C.BAD_CREATOR_SIGNATURE, error instanceof Error ? error.message : String(error), error);
    }
    checks.pass("creatorChain");
  }
  if (options.allowUnsigned === true && a.envelope.signature.length === 0) {
    checks.pass("creatorSignature(unsigned)");
  } else {
    checkCreatorSignature(checks, a, creator.credentials, options.hashAlgorithm ?? "sha256");
  }
  if (a.channelHeader.txId !== computeTxId(a.signatureHeader.nonce, a.signatureHeader.creator)) {
    checks.fail("txId", C.BAD_PROPOSAL_TXID, `tx_id '${a.channelHeader.txId}' is not hex(SHA-256(nonce ‖ creator))`);
  }
  checks.pass("txId");
  const hash = sha256(concatBytes(a.header.channelHeader, a.action.header, a.actionPayload.chaincodeProposalPayload));
  if (!bytesEqual(hash, a.proposalResponsePayload.proposalHash)) {
    checks.fail(
      "proposalHash",
      C.INVALID_ENDORSER_TRANSACTION,
      "proposal_hash is not SHA-256(channel header ‖ action header ‖ chaincode_proposal_payload)",
    );
  }
  checks.pass("proposalHash");
}

async function finish(
  checks: Checks,
  a: UnwrappedEnvelope,
  options: EnvelopeVerifyOptions,
  trustedMsps: readonly TrustedMsp[] | undefined,
): Promise<VerificationReport> {
  const c = checks.decode(() => unwrapChaincodeAction(a));
  checks.pass("chaincodeAction");
  const response = checkResponse(checks, c);
  const endorsers = await checkEndorsements({
    transactionId: checks.transactionId,
    proposalResponsePayload: a.endorsedAction.proposalResponsePayload,
    endorsements: a.endorsedAction.endorsements,
    trustedMsps,
    now: options.now ?? (() => new Date()),
    hashAlgorithm: options.hashAlgorithm ?? "sha256",
    requiredOrganizations: options.requiredOrganizations ?? [],
    passedChecks: checks.passed,
  });
  return {
    transactionId: a.channelHeader.txId,
    channelId: a.channelHeader.channelId,
    creatorMspId: a.creator.mspid,
    chaincode: {
      name: c.chaincodeAction.chaincodeId?.name ?? "",
      version: c.chaincodeAction.chaincodeId?.version ?? "",
    },
    visibility: parseVisibility(c.headerExtension.payloadVisibility) ?? "unrecognized",
    proposalHash: toHex(a.proposalResponsePayload.proposalHash),
    response,
    endorsers,
    chainsVerified: trustedMsps !== undefined,
    checks: [...checks.passed],
  };
}

/**
 * Verify-before-sign. `prepared` is the unsigned envelope from EndorseResponse.prepared_transaction (its signature
 * is ignored). Resolves with a report when the transaction is ours and would validate; rejects with
 * VerificationError otherwise (and never with anything else).
 */
export async function verifyPreparedTransaction(
  expected: BuiltProposal,
  prepared: Envelope | Uint8Array,
  options: VerifyOptions,
): Promise<VerificationReport> {
  const checks = new Checks(expected.txId);
  try {
    const a = checks.decode(() => unwrapEnvelope(envelopeBytesOf(prepared)));
    checks.pass("structure");
    checkAgainstProposal(checks, a, expected);
    return await finish(checks, a, options, options.trustedMsps);
  } catch (error) {
    if (error instanceof VerificationError) throw error;
    return checks.fail("malformed", TxValidationCode.INVALID_OTHER_REASON, "unexpected verification failure", error);
  }
}

/**
 * Committer-style verification of a signed envelope (for example from ProcessedTransaction or an export): the
 * creator signature, txId, proposal hash, chaincode action and endorsements. Rejects with VerificationError.
 */
export async function verifyTransactionEnvelope(
  envelope: Envelope | Uint8Array,
  options: EnvelopeVerifyOptions = {},
): Promise<VerificationReport> {
  const checks = new Checks("");
  try {
    const a = checks.decode(() => unwrapEnvelope(envelopeBytesOf(envelope)));
    checks.transactionId = a.channelHeader.txId;
    checks.pass("structure");
    await checkAsCommitter(checks, a, options);
    return await finish(checks, a, options, options.trustedMsps);
  } catch (error) {
    if (error instanceof VerificationError) throw error;
    return checks.fail("malformed", TxValidationCode.INVALID_OTHER_REASON, "unexpected verification failure", error);
  }
}
