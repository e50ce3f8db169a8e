/**
 * Opens the signer an identity refers to, inside the provider process and at call time: a PEM given as a value, read
 * from a file or an environment variable, a PKCS#11 token key, or a Cloud KMS key version (through the Google client
 * of the stack's configuration). Before it is used, its public key is checked against the certificate (SignerError
 * KEY_MISMATCH naming both). Failures become check failures on the field to fix (`signerCheckFailure`).
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import type { FieldFailure } from "../../../errors";
import { kmsAsymmetricSign, kmsPublicKey } from "../../../google";
import { isApiError, KmsIntegrityError } from "../../../errors";
import type { KmsSignInput } from "../../../google";
import {
  assertSignerMatchesCertificate,
  fabricSki,
  newPrivateKeySigner,
  openHsmSigner,
  toLowSDer,
} from "../../../ledger";
import { SignerError } from "../../../errors";
import type { KeyType, Signer } from "../../../ledger";
import { messageOf } from "../../common";
import { providerClient, stackConfigValue } from "../../../runtime/context";
import { signerKindOf } from "./session-checks";
import type { LedgerIdentityInputs, LedgerPkcs11Inputs } from "./session-checks";

/** The algorithm of a P-256 KMS key version (Fabric signs with ECDSA over SHA-256). */
export const KMS_ALGORITHM = "EC_SIGN_P256_SHA256";

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

export interface OpenedSigner {
  /** Low-S DER signatures over digests. */
  readonly signer: Signer;
  /** Names the key in messages, without secrets. */
  readonly reference: string;
  close(): void;
}

function pemSigner(pem: string, reference: string): OpenedSigner & { publicKey: crypto.KeyObject } {
  let signer: Signer;
  let publicKey: crypto.KeyObject;
  try {
    signer = newPrivateKeySigner(pem);
    publicKey = crypto.createPublicKey(pem);
  } catch (error) {
    throw new SignerError({ reference, code: "KEY_UNUSABLE", reason: messageOf(error).replace(/^private key: /, "") });
  }
  return { signer, reference, close: () => undefined, publicKey };
}

function pinOf(p: LedgerPkcs11Inputs, reference: string): string {
  if (p.pin !== undefined) return p.pin;
  if (p.pinEnv !== undefined) {
    const pin = process.env[p.pinEnv];
    if (pin === undefined || pin === "") {
      throw new SignerError({
        reference,
        code: "PIN_NOT_SET",
        reason: `the environment variable ${p.pinEnv} (pinEnv) is not set where pulumi runs: export it before pulumi up`,
      });
    }
    return pin;
  }
  const key = p.pinConfig ?? "";
  const pin = stackConfigValue(key);
  if (pin === undefined || pin === "") {
    throw new SignerError({
      reference,
      code: "PIN_NOT_SET",
      reason: `the stack config key ${key} (pinConfig) is not set: pulumi config set --secret ${key} <PIN>`,
    });
  }
  return pin;
}

function keyIdOf(identity: LedgerIdentityInputs, p: LedgerPkcs11Inputs): Uint8Array {
  if (p.keyId !== undefined) return new Uint8Array(Buffer.from(p.keyId, "hex"));
  return fabricSki(new crypto.X509Certificate(identity.certificatePem).publicKey);
}

/** A human reference of the identity's signer (no secrets), for messages and logs. */
export function signerReference(identity: LedgerIdentityInputs): string {
  switch (signerKindOf(identity)) {
    case "privateKeyPem":
      return "identity.privateKeyPem";
    case "keyFile":
      return `key file ${identity.keyFile ?? ""}`;
    case "keyEnv":
      return `environment variable ${identity.keyEnv ?? ""}`;
    case "pkcs11": {
      const p = identity.pkcs11 as LedgerPkcs11Inputs;
      return `pkcs11:token=${p.tokenLabel};id=${Buffer.from(keyIdOf(identity, p)).toString("hex")}`;
    }
    case "kms":
      return `Cloud KMS ${identity.kms?.cryptoKeyVersion ?? ""}`;
  }
}

async function openUnchecked(identity: LedgerIdentityInputs): Promise<OpenedSigner & { publicKey?: crypto.KeyObject }> {
  const reference = signerReference(identity);
  switch (signerKindOf(identity)) {
    case "privateKeyPem":
      return pemSigner(identity.privateKeyPem ?? "", reference);
    case "keyFile": {
      let pem: string;
      try {
        pem = fs.readFileSync(identity.keyFile ?? "", "utf8");
      } catch (error) {
        const code = (error as { code?: string }).code ?? "EIO";
        throw new SignerError({
          reference,
          code: "KEY_FILE_UNREADABLE",
          reason: `cannot read the key file (${code}) on the machine that runs pulumi: check identity.keyFile`,
        });
      }
      return pemSigner(pem, reference);
    }
    case "keyEnv": {
      const pem = process.env[identity.keyEnv ?? ""];
      if (pem === undefined || pem === "") {
        throw new SignerError({
          reference,
          code: "KEY_ENV_NOT_SET",
          reason: "is not set where pulumi runs: export the PEM private key in it before pulumi up",
        });
      }
      return pemSigner(pem, reference);
    }
    case "pkcs11": {
      const p = identity.pkcs11 as LedgerPkcs11Inputs;
      const hsm = openHsmSigner({
        library: p.library,
        tokenLabel: p.tokenLabel,
        pin: pinOf(p, reference),
        keyId: keyIdOf(identity, p),
      });
      return {
        signer: hsm.signer,
        reference,
        close: () => {
          hsm.close();
        },
        ...(hsm.publicKey ? { publicKey: hsm.publicKey } : {}),
      };
    }
    case "kms": {
      const name = identity.kms?.cryptoKeyVersion ?? "";
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
      return { signer, reference, close: () => undefined, publicKey: crypto.createPublicKey(pem) };
    }
  }
}

/**
 * Opens the identity's signer and checks that its key is the certificate's; throws SignerError (or the Google client's
 * ApiError / KmsIntegrityError for KMS) without having signed or sent anything.
 */
export async function openLedgerSigner(identity: LedgerIdentityInputs): Promise<OpenedSigner> {
  const opened = await openUnchecked(identity);
  try {
    await assertSignerMatchesCertificate({
      certificatePem: identity.certificatePem,
      reference: opened.reference,
      publicKey: opened.publicKey,
      signer: opened.signer,
    });
  } catch (error) {
    opened.close();
    throw error;
  }
  return {
    signer: opened.signer,
    reference: opened.reference,
    close: () => {
      opened.close();
    },
  };
}

/** The input field a signer failure is about, so the check failure names what to fix. */
function failedProperty(identity: LedgerIdentityInputs, error: unknown): string {
  const kind = signerKindOf(identity);
  const code = error instanceof SignerError ? (error.code ?? "") : "";
  if (kind === "pkcs11") {
    const p = identity.pkcs11 as LedgerPkcs11Inputs;
    if (code.startsWith("LIBRARY") || code === "") return "identity.pkcs11.library";
    if (code === "TOKEN_NOT_FOUND") return "identity.pkcs11.tokenLabel";
    if (code.startsWith("CKR_PIN") || code === "PIN_NOT_SET" || code === "CKR_USER_PIN_NOT_INITIALIZED") {
      return `identity.pkcs11.${p.pin !== undefined ? "pin" : p.pinEnv !== undefined ? "pinEnv" : "pinConfig"}`;
    }
    return "identity.pkcs11.keyId";
  }
  if (kind === "kms") return "identity.kms.cryptoKeyVersion";
  return `identity.${kind}`;
}

/** A check failure for a signer that could not be opened or does not match the certificate. */
export function signerCheckFailure(identity: LedgerIdentityInputs, error: unknown): FieldFailure {
  const kmsHint = isApiError(error) || error instanceof KmsIntegrityError ? "; nothing was signed or sent" : "";
  return { property: failedProperty(identity, error), reason: `${messageOf(error)}${kmsHint}` };
}
