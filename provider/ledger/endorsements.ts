/**
 * Endorsement checks shared by both verifiers: every endorsement's identity parses and chains to a trusted MSP
 * root, and its signature verifies over proposal_response_payload ‖ endorser: ECDSA (P-256, P-384) canonical DER,
 * low-S with the curve's order, over SHA-256; Ed25519 over the bytes themselves.
 */
import { verifyCertificateChain } from "./cert-chain";
import type { TrustedMsp } from "./cert-chain";
import { concatBytes } from "./hash";
import { deserializeIdentity, parseCertificate } from "./identity";
import type { Identity } from "./identity";
import type { Endorsement } from "./messages";
import { KEY_TYPE_NAMES, keyTypeOf, describeKey } from "./key-types";
import { signatureFormProblem, verifySignature } from "./signing";
import { TxValidationCode } from "../errors/ledger/validation-codes";
import { VerificationError } from "../errors/ledger/verification-error";
import type { VerificationMismatch } from "../errors/ledger/verification-error";

export interface VerifiedEndorser {
  readonly mspId: string;
  /** Certificate subjects up to the trusted root, or `undefined` when chains were not checked. */
  readonly chain: readonly string[] | undefined;
}

export interface EndorsementCheckOptions {
  readonly transactionId: string;
  readonly proposalResponsePayload: Uint8Array;
  readonly endorsements: readonly Endorsement[];
  /** Trust anchors; `undefined` skips chain verification (report only). */
  readonly trustedMsps: readonly TrustedMsp[] | undefined;
  readonly now: () => Date;
  readonly hashAlgorithm: string;
  /** MSP ids that must each have at least one valid endorsement. */
  readonly requiredOrganizations: readonly string[];
  readonly passedChecks: string[];
}

function refuse(
  options: EndorsementCheckOptions,
  mismatch: VerificationMismatch,
  reason: string,
  cause?: unknown,
): never {
  throw new VerificationError({
    transactionId: options.transactionId,
    mismatch,
    validationCode: TxValidationCode.ENDORSEMENT_POLICY_FAILURE,
    reason,
    passedChecks: options.passedChecks,
    cause,
  });
}

async function checkOne(options: EndorsementCheckOptions, e: Endorsement, i: number): Promise<VerifiedEndorser> {
  let identity: Identity;
  try {
    identity = deserializeIdentity(e.endorser);
  } catch (error) {
    return refuse(options, "endorser", `endorsement ${i}: the endorser is not a parsable SerializedIdentity`, error);
  }
  let chain: readonly string[] | undefined;
  if (options.trustedMsps !== undefined) {
    try {
      chain = (await verifyCertificateChain(identity, { trustedMsps: options.trustedMsps, now: options.now })).subjects;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return refuse(options, "endorser", `endorsement ${i} (${identity.mspId}): ${reason}`, error);
    }
  }
  let keyType;
  let keyName = "an unparsable key";
  try {
    const key = parseCertificate(identity.credentials, `endorser certificate of ${identity.mspId}`).publicKey;
    keyType = keyTypeOf(key);
    keyName = describeKey(key);
  } catch {
    keyType = undefined;
  }
  if (keyType === undefined) {
    return refuse(
      options,
      "endorser",
      `endorsement ${i} (${identity.mspId}): the endorser's certificate has ${keyName}, which Fabric's MSP does not accept (ECDSA or Ed25519)`,
    );
  }
  const problem = signatureFormProblem(e.signature, keyType);
  if (problem !== undefined) {
    return refuse(
      options,
      "endorsementSignature",
      `endorsement ${i} (${identity.mspId}): the ${KEY_TYPE_NAMES[keyType]} signature ${problem}`,
    );
  }
  const ok = verifySignature({
    publicKey: identity.credentials,
    message: concatBytes(options.proposalResponsePayload, e.endorser),
    signature: e.signature,
    hashAlgorithm: options.hashAlgorithm,
  });
  if (!ok) {
    return refuse(
      options,
      "endorsementSignature",
      `endorsement ${i} (${identity.mspId}) does not sign this proposal_response_payload: the signature is invalid or the endorser endorsed a different result`,
    );
  }
  return { mspId: identity.mspId, chain };
}

/** Verifies every endorsement in order; rejects with VerificationError (ENDORSEMENT_POLICY_FAILURE). */
export async function checkEndorsements(options: EndorsementCheckOptions): Promise<readonly VerifiedEndorser[]> {
  if (options.endorsements.length === 0)
    return refuse(options, "endorsements", "the transaction carries no endorsements");
  const verified: VerifiedEndorser[] = [];
  for (const [i, e] of options.endorsements.entries()) verified.push(await checkOne(options, e, i));
  options.passedChecks.push("endorsementSignatures");
  if (options.trustedMsps !== undefined) options.passedChecks.push("endorserChains");
  const missing = options.requiredOrganizations.filter((org) => !verified.some((v) => v.mspId === org));
  if (missing.length > 0) {
    return refuse(options, "endorsements", `no valid endorsement from required organization(s) ${missing.join(", ")}`);
  }
  if (options.requiredOrganizations.length > 0) options.passedChecks.push("requiredOrganizations");
  return verified;
}
