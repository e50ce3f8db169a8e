/**
 * The identity that signs, from its inputs to its signer: the checks of the identity (its MSP id, its certificate and
 * its signer reference: exactly one of `privateKeyPem` (the key itself, kept for compatibility), `keyFile`, `keyEnv`,
 * `pkcs11` or `kms`; everything but a key or a PIN given as a value is a reference, and the state holds where the key
 * is, never the key), then the signer opened inside the provider process at call time: a PEM given as a value, read
 * from a file or an environment variable, a PKCS#11 token key, or a Cloud KMS key version (through the Google client
 * of the stack's configuration). Before it is used, its public key is checked against the certificate (SignerError
 * KEY_MISMATCH naming both). Failures become check failures on the field to fix (`signerCheckFailure`).
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import { isApiError, KmsIntegrityError, SignerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { checkCryptoKeyVersionName } from "../../../google";
import {
  assertSignerMatchesCertificate,
  certificateOf,
  describeKey,
  fabricSki,
  KEY_TYPE_NAMES,
  keyTypeOf,
  newPrivateKeySigner,
  openHsmSigner,
  parseCertificate,
  privateKeyOf,
  samePublicKey,
  SUPPORTED_KEY_TYPES_TEXT,
} from "../../../ledger";
import type { Signer } from "../../../ledger";
import { stackConfigValue } from "../../../runtime/context";
import { messageOf } from "../../common";
import type { LedgerIdentity, LedgerPkcs11 } from "../ledger-shapes";
import { ENV_NAME, hasUnknown, isRecord } from "../ledger-values";
import { openKmsSigner } from "./kms-signer";

/** The signer kinds, in the order messages list them. */
export const SIGNER_KINDS = ["privateKeyPem", "keyFile", "keyEnv", "pkcs11", "kms"] as const;
export type SignerKind = (typeof SIGNER_KINDS)[number];

const CONFIG_KEY = /^[^:\s]+(?::[^:\s]+)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const PKCS11_FIELDS = ["library", "tokenLabel", "pin", "pinEnv", "pinConfig", "keyId"];
const ONE_SIGNER =
  "privateKeyPem (a secret), keyFile (a PEM file's path), keyEnv (an environment variable holding the PEM), " +
  "pkcs11 { library, tokenLabel, pin | pinEnv | pinConfig, keyId? } or kms { cryptoKeyVersion }";

/** The signer kinds set on an identity (present and not undefined). */
export function signerKindsOf(identity: Readonly<Record<string, unknown>>): SignerKind[] {
  return SIGNER_KINDS.filter((k) => identity[k] !== undefined && identity[k] !== null);
}

/** The one signer kind of checked inputs. */
export function signerKindOf(identity: Pick<LedgerIdentity, SignerKind>): SignerKind {
  const kind = signerKindsOf(identity)[0];
  if (kind === undefined) throw new TypeError("the identity has no signer (check() lets no such input through)");
  return kind;
}

function pkcs11Failures(value: unknown): FieldFailure[] {
  if (!isRecord(value)) {
    return [
      { property: "identity.pkcs11", reason: "must be { library, tokenLabel, pin | pinEnv | pinConfig, keyId? }" },
    ];
  }
  const failures: FieldFailure[] = [];
  for (const key of Object.keys(value)) {
    if (!PKCS11_FIELDS.includes(key) && value[key] !== undefined) {
      failures.push({
        property: `identity.pkcs11.${key}`,
        reason: `is not a setting; use ${PKCS11_FIELDS.join(", ")}`,
      });
    }
  }
  const text = (key: string, what: string): void => {
    const v = value[key];
    if (!hasUnknown(v) && (typeof v !== "string" || v.trim() === "")) {
      failures.push({ property: `identity.pkcs11.${key}`, reason: `is required: ${what}` });
    }
  };
  text("library", "the path of the token's PKCS#11 module, e.g. '/usr/lib/softhsm/libsofthsm2.so'");
  text("tokenLabel", "the label of the token holding the key");
  const pins = ["pin", "pinEnv", "pinConfig"].filter((k) => value[k] !== undefined);
  if (pins.length !== 1) {
    failures.push({
      property: `identity.pkcs11.${pins[1] ?? "pin"}`,
      reason:
        pins.length === 0
          ? "one of pin (a Pulumi secret), pinEnv (the name of an environment variable holding the PIN) or pinConfig (a stack config key holding it) is required"
          : `set only one of ${pins.map((p) => `identity.pkcs11.${p}`).join(" and ")}`,
    });
  }
  const known = (key: string): unknown => (hasUnknown(value[key]) ? undefined : value[key]);
  const pin = known("pin");
  if (pin !== undefined && (typeof pin !== "string" || pin === "")) {
    failures.push({
      property: "identity.pkcs11.pin",
      reason: "must be a non-empty string (pass it as a Pulumi secret)",
    });
  }
  const pinEnv = known("pinEnv");
  if (pinEnv !== undefined && (typeof pinEnv !== "string" || !ENV_NAME.test(pinEnv))) {
    failures.push({
      property: "identity.pkcs11.pinEnv",
      reason: "must be an environment variable's name, e.g. 'HSM_PIN'",
    });
  }
  const pinConfig = known("pinConfig");
  if (pinConfig !== undefined && (typeof pinConfig !== "string" || !CONFIG_KEY.test(pinConfig))) {
    failures.push({
      property: "identity.pkcs11.pinConfig",
      reason:
        "must be a stack config key, e.g. 'hsmPin' (this project's) or 'my-project:hsmPin' (set it with pulumi config set --secret)",
    });
  }
  const keyId = known("keyId");
  if (keyId !== undefined && (typeof keyId !== "string" || !HEX.test(keyId))) {
    failures.push({
      property: "identity.pkcs11.keyId",
      reason:
        "must be the key's CKA_ID in hex (an even number of 0-9a-f digits); leave it out for the certificate's SKI",
    });
  }
  return failures;
}

/** Failures of an identity's private key given as a value: it parses, has a key type Fabric takes, and is the certificate's. */
function privateKeyFailures(value: unknown, certificate: crypto.X509Certificate | undefined): FieldFailure[] {
  const property = "identity.privateKeyPem";
  const key = privateKeyOf(value);
  if (key === undefined) return [{ property, reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" }];
  const type = keyTypeOf(key);
  if (type === undefined) {
    return [{ property, reason: `is an ${describeKey(key)} key; Fabric identities need ${SUPPORTED_KEY_TYPES_TEXT}` }];
  }
  if (certificate === undefined || samePublicKey(key, certificate.publicKey)) return [];
  const certificateType = keyTypeOf(certificate.publicKey);
  const kinds =
    certificateType !== undefined && certificateType !== type
      ? ` (the key is ${KEY_TYPE_NAMES[type]}, the certificate's ${KEY_TYPE_NAMES[certificateType]})`
      : "";
  return [
    { property, reason: `does not match identity.certificatePem${kinds}: use the private key of that certificate` },
  ];
}

/** Failures of the signer reference, with the certificate already parsed when it is valid. */
function signerFailures(
  identity: Record<string, unknown>,
  certificate: crypto.X509Certificate | undefined,
): FieldFailure[] {
  const kinds = signerKindsOf(identity);
  const kind = kinds[0];
  if (kind === undefined) return [{ property: "identity", reason: `needs a signer: set one of ${ONE_SIGNER}` }];
  if (kinds.length > 1) {
    return [
      {
        property: `identity.${kinds[1] ?? ""}`,
        reason: `set only one signer: identity.${kinds.join(" and identity.")} are both set; keep one of ${ONE_SIGNER}`,
      },
    ];
  }
  const value = identity[kind];
  if (hasUnknown(value)) return [];
  switch (kind) {
    case "privateKeyPem":
      return privateKeyFailures(value, certificate);
    case "keyFile":
      return typeof value === "string" && value.trim() !== ""
        ? []
        : [{ property: "identity.keyFile", reason: "must be the path of a PEM private key file (PKCS#8 or SEC1)" }];
    case "keyEnv":
      return typeof value === "string" && ENV_NAME.test(value)
        ? []
        : [
            {
              property: "identity.keyEnv",
              reason: "must be the name of an environment variable holding the PEM private key, e.g. 'FABRIC_KEY_PEM'",
            },
          ];
    case "pkcs11":
      return pkcs11Failures(value);
    case "kms": {
      const name = isRecord(value) ? value["cryptoKeyVersion"] : undefined;
      if (hasUnknown(name)) return [];
      const checked = checkCryptoKeyVersionName(name);
      return "reason" in checked ? [{ property: "identity.kms.cryptoKeyVersion", reason: checked.reason }] : [];
    }
  }
}

/** Every problem with `identity` (mspId, certificate, signer reference), as check failures. */
export function identityFailures(identity: unknown): FieldFailure[] {
  if (!isRecord(identity)) {
    return [{ property: "identity", reason: `is required: { mspId, certificatePem, and one of ${ONE_SIGNER} }` }];
  }
  const failures: FieldFailure[] = [];
  const mspId = identity["mspId"];
  if (!hasUnknown(mspId) && (typeof mspId !== "string" || mspId.trim() === "")) {
    failures.push({
      property: "identity.mspId",
      reason: "must not be empty: the MSP id of the identity's organization, e.g. 'Org1MSP'",
    });
  }
  const certPem = identity["certificatePem"];
  let certificate: crypto.X509Certificate | undefined;
  if (!hasUnknown(certPem)) {
    const parsed = certificateOf(certPem);
    if (parsed === undefined) {
      failures.push({
        property: "identity.certificatePem",
        reason: "is not a PEM X.509 certificate; pass the enrolment certificate's PEM text",
      });
    } else if (keyTypeOf(parsed.publicKey) === undefined) {
      failures.push({
        property: "identity.certificatePem",
        reason: `has an ${describeKey(parsed.publicKey)} key; Fabric identities need ${SUPPORTED_KEY_TYPES_TEXT}`,
      });
    } else certificate = parsed;
  }
  failures.push(...signerFailures(identity, certificate));
  return failures;
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

function pinOf(p: LedgerPkcs11, reference: string): string {
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

function keyIdOf(identity: LedgerIdentity, p: LedgerPkcs11): Uint8Array {
  if (p.keyId !== undefined) return new Uint8Array(Buffer.from(p.keyId, "hex"));
  return fabricSki(parseCertificate(identity.certificatePem, "identity.certificatePem").publicKey);
}

/** A human reference of the identity's signer (no secrets), for messages and logs. */
export function signerReference(identity: LedgerIdentity): string {
  switch (signerKindOf(identity)) {
    case "privateKeyPem":
      return "identity.privateKeyPem";
    case "keyFile":
      return `key file ${identity.keyFile ?? ""}`;
    case "keyEnv":
      return `environment variable ${identity.keyEnv ?? ""}`;
    case "pkcs11": {
      const p = identity.pkcs11 as LedgerPkcs11;
      return `pkcs11:token=${p.tokenLabel};id=${Buffer.from(keyIdOf(identity, p)).toString("hex")}`;
    }
    case "kms":
      return `Cloud KMS ${identity.kms?.cryptoKeyVersion ?? ""}`;
  }
}

async function openUnchecked(identity: LedgerIdentity): Promise<OpenedSigner & { publicKey?: crypto.KeyObject }> {
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
      const p = identity.pkcs11 as LedgerPkcs11;
      const keyId = keyIdOf(identity, p);
      const hsm = openHsmSigner({ library: p.library, tokenLabel: p.tokenLabel, pin: pinOf(p, reference), keyId });
      return {
        signer: hsm.signer,
        reference,
        close: () => {
          hsm.close();
        },
        ...(hsm.publicKey ? { publicKey: hsm.publicKey } : {}),
      };
    }
    case "kms":
      return { ...(await openKmsSigner(identity.kms?.cryptoKeyVersion ?? "", reference)), close: () => undefined };
  }
}

/**
 * Opens the identity's signer and checks that its key is the certificate's; throws SignerError (or the Google client's
 * ApiError / KmsIntegrityError for KMS) without having signed or sent anything.
 */
export async function openLedgerSigner(identity: LedgerIdentity): Promise<OpenedSigner> {
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
function failedProperty(identity: LedgerIdentity, error: unknown): string {
  const kind = signerKindOf(identity);
  const code = error instanceof SignerError ? (error.code ?? "") : "";
  if (kind === "pkcs11") {
    const p = identity.pkcs11 as LedgerPkcs11;
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
export function signerCheckFailure(identity: LedgerIdentity, error: unknown): FieldFailure {
  const kmsHint = isApiError(error) || error instanceof KmsIntegrityError ? "; nothing was signed or sent" : "";
  return { property: failedProperty(identity, error), reason: `${messageOf(error)}${kmsHint}` };
}
