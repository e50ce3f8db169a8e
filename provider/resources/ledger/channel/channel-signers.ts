/**
 * Who signs a channel's configuration update: the resource's `identity` (which also reads the channel and submits the
 * update) and its `signers`, each an identity a LedgerTransaction would take (session/ledger-signers.ts: a key file, an
 * environment variable, a PKCS#11 token, a Cloud KMS key version, or a key given as a secret), checked the same way —
 * the plain checks under the input's own name (`signers[1].pkcs11.pin`), then each signer opened and matched against
 * its certificate before anything is signed or sent.
 */
import type { FieldFailure } from "../../../errors";
import { newIdentity } from "../../../ledger";
import type { SigningIdentity } from "../../../ledger/channel/config-update-signing";
import type { LedgerIdentity } from "../ledger-shapes";
import { hasUnknown } from "../ledger-values";
import { identityFailures, openLedgerSigner, signerCheckFailure } from "../session/ledger-signers";
import type { LedgerIdentityOutputs } from "../session/ledger-session";
import { sessionOutputs } from "../session/ledger-session";

/** `failures` of an identity checked as `identity`, renamed to the input `field` (`signers[0]`). */
export function renamed(failures: readonly FieldFailure[], field: string): FieldFailure[] {
  if (field === "identity") return [...failures];
  const rename = (text: string): string => text.replace(/\bidentity(?=\.|$|\s|:)/g, field);
  return failures.map((f) => ({ property: rename(f.property), reason: rename(f.reason) }));
}

/** Failures of the `signers` input: a list of identities, each checked as `identity` is. */
export function signersFailures(signers: unknown): FieldFailure[] {
  if (signers === undefined || hasUnknown(signers)) return [];
  if (!Array.isArray(signers))
    return [{ property: "signers", reason: "must be a list of identities { mspId, certificatePem, and a signer }" }];
  return signers.flatMap((s, i) => renamed(identityFailures(s), `signers[${String(i)}]`));
}

/** The identity and the signers, each with the input field it came from. */
export function signingInputs(identity: LedgerIdentity, signers: readonly LedgerIdentity[] | undefined) {
  return [
    { field: "identity", identity },
    ...(signers ?? []).map((s, i) => ({ field: `signers[${String(i)}]`, identity: s })),
  ];
}

/** Signers opened for a step; close() closes every one. */
export interface OpenedSigners {
  /** The identity first (reader and submitter), then the signers in order. */
  readonly signing: readonly SigningIdentity[];
  close(): void;
}

/**
 * Opens the identity's and each signer's signer, each checked against its certificate; or, with every signer opened
 * so far closed, the check failure naming the field of the one that could not be opened or is not its certificate's.
 */
export async function openSigners(
  identity: LedgerIdentity,
  signers: readonly LedgerIdentity[] | undefined,
): Promise<OpenedSigners | { readonly failure: FieldFailure }> {
  const opened: { close(): void }[] = [];
  const signing: SigningIdentity[] = [];
  const close = (): void => {
    for (const o of opened) o.close();
  };
  for (const { field, identity: who } of signingInputs(identity, signers)) {
    try {
      const signer = await openLedgerSigner(who);
      opened.push(signer);
      signing.push({ identity: newIdentity(who.mspId, who.certificatePem), signer: signer.signer });
    } catch (error) {
      close();
      const failure = renamed([signerCheckFailure(who, error)], field)[0] ?? { property: field, reason: String(error) };
      return { failure };
    }
  }
  return { signing, close };
}

/** The signers as the state keeps them: certificates and references, never a key or a PIN. */
export function signersOutputs(signers: readonly LedgerIdentity[] | undefined): LedgerIdentityOutputs[] | undefined {
  return signers?.map((s) => sessionOutputs({ gateway: { address: "" }, identity: s }).identity);
}
