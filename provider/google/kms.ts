/**
 * Cloud KMS signing through the Google client (its auth, settings, retries and error hints), with the integrity checks
 * Google documents for asymmetricSign and getPublicKey: the request carries digestCrc32c; an answer counts only when
 * verifiedDigestCrc32c is true, its name is the key version asked for and CRC32C(signature) equals signatureCrc32c
 * (CRC32C(pem) equals pemCrc32c for a public key). A failed check is retried a bounded number of times, then a
 * KmsIntegrityError. The signature is returned as KMS sends it (DER; S not normalized: the caller makes it low-S).
 */
import type { GoogleClient } from "./client";
import { KmsIntegrityError } from "../errors/google/kms-integrity-error";

/** Attempts of one signature or public key read when answers fail their integrity checks. */
export const DEFAULT_KMS_INTEGRITY_ATTEMPTS = 3;

const ASYMMETRIC_SIGN = "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign" as const;
const GET_PUBLIC_KEY = "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey" as const;

// crc-32 (SheetJS) ships crc32c.js without its own typings: this is its whole surface used here.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file of the package, typed below
const CRC32C = require("crc-32/crc32c") as { buf(data: Uint8Array, seed?: number): number };

/** CRC32C (Castagnoli, RFC 3720) of the bytes, as an unsigned 32-bit number. */
export function crc32c(bytes: Uint8Array): number {
  return CRC32C.buf(bytes) >>> 0;
}

export interface KmsCallOptions {
  /** @default DEFAULT_KMS_INTEGRITY_ATTEMPTS */
  readonly integrityAttempts?: number;
  readonly signal?: AbortSignal;
}

/**
 * What asymmetricSign signs: a digest in the field of the key version's algorithm (`sha256` for
 * EC_SIGN_P256_SHA256, `sha384` for EC_SIGN_P384_SHA384: KMS takes any value of that length), or the data itself
 * (EC_SIGN_ED25519).
 */
export type KmsSignInput =
  { readonly digest: Uint8Array; readonly field: "sha256" | "sha384" } | { readonly data: Uint8Array };

/**
 * The signature of `input` (a SHA-256 digest when given bytes) by the key version `name`, integrity-checked: DER for
 * ECDSA keys (S not normalized), 64 bytes for Ed25519.
 */
export async function kmsAsymmetricSign(
  client: GoogleClient,
  name: string,
  input: Uint8Array | KmsSignInput,
  options: KmsCallOptions = {},
): Promise<Uint8Array> {
  const attempts = options.integrityAttempts ?? DEFAULT_KMS_INTEGRITY_ATTEMPTS;
  const request: KmsSignInput = input instanceof Uint8Array ? { digest: input, field: "sha256" } : input;
  const base64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64");
  const params =
    "data" in request
      ? { name, data: base64(request.data), dataCrc32c: String(crc32c(request.data)) }
      : {
          name,
          digest: request.field === "sha256" ? { sha256: base64(request.digest) } : { sha384: base64(request.digest) },
          digestCrc32c: String(crc32c(request.digest)),
        };
  const verifiedField = "data" in request ? "verifiedDataCrc32c" : "verifiedDigestCrc32c";
  let check = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const answer = await client.call(
      ASYMMETRIC_SIGN,
      params,
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const signature = Buffer.from(answer.signature ?? "", "base64");
    if (answer[verifiedField] !== true) check = `${verifiedField} is not true`;
    else if (answer.name !== name) check = `the answer names ${String(answer.name)}`;
    else if (signature.length === 0) check = "the answer has no signature";
    else if (String(crc32c(signature)) !== answer.signatureCrc32c) check = "signatureCrc32c mismatch";
    else return new Uint8Array(signature);
  }
  throw new KmsIntegrityError({ cryptoKeyVersion: name, check, attempts });
}

export interface KmsPublicKeyResult {
  /** SubjectPublicKeyInfo PEM. */
  readonly pem: string;
  /** For example "EC_SIGN_P256_SHA256". */
  readonly algorithm: string;
}

/** The public key of the key version `name`, integrity-checked (pemCrc32c, name). */
export async function kmsPublicKey(
  client: GoogleClient,
  name: string,
  options: KmsCallOptions = {},
): Promise<KmsPublicKeyResult> {
  const attempts = options.integrityAttempts ?? DEFAULT_KMS_INTEGRITY_ATTEMPTS;
  let check = "";
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const answer = await client.call(
      GET_PUBLIC_KEY,
      { name },
      options.signal === undefined ? {} : { signal: options.signal },
    );
    const pem = answer.pem ?? "";
    if (answer.name !== name) check = `the answer names ${String(answer.name)}`;
    else if (pem === "") check = "the answer has no pem";
    else if (String(crc32c(Buffer.from(pem, "utf8"))) !== answer.pemCrc32c) check = "pemCrc32c mismatch";
    else return { pem, algorithm: answer.algorithm ?? "" };
  }
  throw new KmsIntegrityError({ cryptoKeyVersion: name, check, attempts });
}
