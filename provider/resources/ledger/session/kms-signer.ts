/**
 * A Cloud KMS key version as a Fabric signer, through the Google client of the stack's configuration: its public key
 * and algorithm read first (getPublicKey), each digest signed with asymmetricSign and returned as low-S DER (KMS
 * promises nothing about S).
 */
import * as crypto from "node:crypto";
import { SignerError } from "../../../errors";
import { kmsAsymmetricSign, kmsPublicKey } from "../../../google";
import type { KmsSignInput } from "../../../google";
import { toLowSDer } from "../../../ledger";
import type { KeyType, Signer } from "../../../ledger";
import { providerClient } from "../../../runtime/context";

/**
 * The Cloud KMS algorithms a Fabric identity can sign with, their key type, and what the signer sends:
 * - EC_SIGN_P256_SHA256: the SHA-256 digest in digest.sha256.
 * - EC_SIGN_P384_SHA384: Fabric verifies P-384 over SHA-256, and KMS takes any 48-byte value in digest.sha384 (it
 *   cannot tell a digest's origin; Google documents signing Keccak digests that way), so the SHA-256 digest goes there
 *   left-padded with 16 zero bytes: ECDSA reads a digest as an integer (its leftmost 384 bits here), so the signature
 *   is exactly ECDSA-P384 over SHA-256. What cannot exist: KMS hashing `data` for this key (always SHA-384, which
 *   Fabric never accepts) or the 32-byte SHA-256 digest as it is (refused: digest.sha384 must be 48 bytes).
 * - EC_SIGN_ED25519: the message itself in `data` (pure Ed25519; the gateway's hash is `none`).
 */
export const KMS_ALGORITHMS: Readonly<Record<string, KeyType>> = {
  EC_SIGN_P256_SHA256: "ecdsa-p256",
  EC_SIGN_P384_SHA384: "ecdsa-p384",
  EC_SIGN_ED25519: "ed25519",
};

/** What a KMS signer sends for what it is given (a SHA-256 digest, or the message for Ed25519). */
export function kmsSignInput(keyType: KeyType, input: Uint8Array): KmsSignInput {
  if (keyType === "ed25519") return { data: input };
  if (keyType === "ecdsa-p256") return { digest: input, field: "sha256" };
  // ECDSA uses the leftmost 384 bits of a longer digest, and a shorter one as the integer it is: zero bytes in front.
  if (input.length >= 48) return { digest: input.subarray(0, 48), field: "sha384" };
  const padded = new Uint8Array(48);
  padded.set(input, 48 - input.length);
  return { digest: padded, field: "sha384" };
}

/** The signer of the key version `name` and its public key; SignerError KMS_ALGORITHM for a key Fabric cannot use. */
export async function openKmsSigner(
  name: string,
  reference: string,
): Promise<{ signer: Signer; reference: string; publicKey: crypto.KeyObject }> {
  const client = providerClient();
  const { pem, algorithm } = await kmsPublicKey(client, name);
  const keyType = KMS_ALGORITHMS[algorithm];
  if (keyType === undefined) {
    throw new SignerError({
      reference,
      code: "KMS_ALGORITHM",
      reason: `the key version's algorithm is ${algorithm}; Fabric identities need ${Object.keys(KMS_ALGORITHMS).join(", ")} (Ed25519 on a channel with capability V3_0)`,
    });
  }
  const signer: Signer = async (input) =>
    toLowSDer(await kmsAsymmetricSign(client, name, kmsSignInput(keyType, input)), keyType);
  return { signer, reference, publicKey: crypto.createPublicKey(pem) };
}
