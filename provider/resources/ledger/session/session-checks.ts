/**
 * The identity of a ledger.LedgerTransactionSubmission and its signer reference, and their checks: exactly one of
 * `privateKeyPem` (the key itself, kept for compatibility), `keyFile`, `keyEnv`, `pkcs11` or `kms`. Everything but
 * `privateKeyPem` and a PKCS#11 `pin` given as a value is a reference: the state holds where the key is, never the key.
 */
import * as crypto from "node:crypto";
import type { FieldFailure } from "../../../errors";
import { checkCryptoKeyVersionName } from "../../../google";
import { describeKey, KEY_TYPE_NAMES, keyTypeOf, SUPPORTED_KEY_TYPES_TEXT } from "../../../ledger";
import type { LedgerIdentity, LedgerKms, LedgerPkcs11 } from "../ledger-shapes";

/** A PKCS#11 token key: the token, how to get its PIN, and the key's CKA_ID (declared in ledger-shapes.ts). */
export type LedgerPkcs11Inputs = LedgerPkcs11;

/** A Cloud KMS key version (declared in ledger-shapes.ts). */
export type LedgerKmsInputs = LedgerKms;

/** The signer reference: exactly one of these is set. */
export type LedgerSignerInputs = Pick<LedgerIdentity, SignerKind>;

/** The identity: its certificate and its signer reference (declared in ledger-shapes.ts). */
export type LedgerIdentityInputs = LedgerIdentity;

/** The signer kinds, in the order messages list them. */
export const SIGNER_KINDS = ["privateKeyPem", "keyFile", "keyEnv", "pkcs11", "kms"] as const;
export type SignerKind = (typeof SIGNER_KINDS)[number];

/** An environment variable's name as a reference input may give it (keyEnv, pinEnv, clientKeyEnv). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const CONFIG_KEY = /^[^:\s]+(?::[^:\s]+)?$/;
const HEX = /^(?:[0-9a-fA-F]{2})+$/;
const PKCS11_FIELDS = ["library", "tokenLabel", "pin", "pinEnv", "pinConfig", "keyId"];
const ONE_OF =
  "privateKeyPem (a secret), keyFile (a PEM file's path), keyEnv (an environment variable holding the PEM), " +
  "pkcs11 { library, tokenLabel, pin | pinEnv | pinConfig, keyId? } or kms { cryptoKeyVersion }";

/** A plain object (not null, not an array). */
export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The kinds set on an identity (present and not undefined). */
export function signerKindsOf(identity: Readonly<Record<string, unknown>>): SignerKind[] {
  return SIGNER_KINDS.filter((k) => identity[k] !== undefined && identity[k] !== null);
}

/** The one signer kind of checked inputs. */
export function signerKindOf(identity: LedgerSignerInputs): SignerKind {
  const kind = signerKindsOf(identity)[0];
  if (kind === undefined) throw new TypeError("the identity has no signer (check() lets no such input through)");
  return kind;
}

/** The private key a PEM parses to, or undefined (never the parse error: its text could echo key material). */
export function privateKeyOf(pem: unknown): crypto.KeyObject | undefined {
  if (typeof pem !== "string") return undefined;
  try {
    return crypto.createPrivateKey(pem);
  } catch {
    return undefined; // the cause could echo key material
  }
}

function pkcs11Failures(value: unknown, hasUnknown: (v: unknown) => boolean): FieldFailure[] {
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
  const pin = value["pin"];
  if (pin !== undefined && !hasUnknown(pin) && (typeof pin !== "string" || pin === "")) {
    failures.push({
      property: "identity.pkcs11.pin",
      reason: "must be a non-empty string (pass it as a Pulumi secret)",
    });
  }
  const pinEnv = value["pinEnv"];
  if (pinEnv !== undefined && !hasUnknown(pinEnv) && (typeof pinEnv !== "string" || !ENV_NAME.test(pinEnv))) {
    failures.push({
      property: "identity.pkcs11.pinEnv",
      reason: "must be an environment variable's name, e.g. 'HSM_PIN'",
    });
  }
  const pinConfig = value["pinConfig"];
  if (
    pinConfig !== undefined &&
    !hasUnknown(pinConfig) &&
    (typeof pinConfig !== "string" || !CONFIG_KEY.test(pinConfig))
  ) {
    failures.push({
      property: "identity.pkcs11.pinConfig",
      reason:
        "must be a stack config key, e.g. 'hsmPin' (this project's) or 'my-project:hsmPin' (set it with pulumi config set --secret)",
    });
  }
  const keyId = value["keyId"];
  if (keyId !== undefined && !hasUnknown(keyId) && (typeof keyId !== "string" || !HEX.test(keyId))) {
    failures.push({
      property: "identity.pkcs11.keyId",
      reason:
        "must be the key's CKA_ID in hex (an even number of 0-9a-f digits); leave it out for the certificate's SKI",
    });
  }
  return failures;
}

/** Failures of the signer reference, with the certificate already parsed when it is valid. */
export function signerFailures(
  identity: Record<string, unknown>,
  certificate: crypto.X509Certificate | undefined,
  hasUnknown: (v: unknown) => boolean,
): FieldFailure[] {
  const kinds = signerKindsOf(identity);
  if (kinds.length === 0) return [{ property: "identity", reason: `needs a signer: set one of ${ONE_OF}` }];
  if (kinds.length > 1) {
    return [
      {
        property: `identity.${kinds[1] ?? ""}`,
        reason: `set only one signer: identity.${kinds.join(" and identity.")} are both set; keep one of ${ONE_OF}`,
      },
    ];
  }
  const kind = kinds[0];
  const value = identity[kind ?? ""];
  if (hasUnknown(value)) return [];
  switch (kind) {
    case "privateKeyPem": {
      const key = privateKeyOf(value);
      if (key === undefined) {
        return [{ property: "identity.privateKeyPem", reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" }];
      }
      const type = keyTypeOf(key);
      if (type === undefined) {
        return [
          {
            property: "identity.privateKeyPem",
            reason: `is an ${describeKey(key)} key; Fabric identities need ${SUPPORTED_KEY_TYPES_TEXT}`,
          },
        ];
      }
      const spki = (k: crypto.KeyObject): Buffer => k.export({ type: "spki", format: "der" });
      if (certificate !== undefined && !spki(crypto.createPublicKey(key)).equals(spki(certificate.publicKey))) {
        const certificateType = keyTypeOf(certificate.publicKey);
        const kinds =
          certificateType !== undefined && certificateType !== type
            ? ` (the key is ${KEY_TYPE_NAMES[type]}, the certificate's ${KEY_TYPE_NAMES[certificateType]})`
            : "";
        return [
          {
            property: "identity.privateKeyPem",
            reason: `does not match identity.certificatePem${kinds}: use the private key of that certificate`,
          },
        ];
      }
      return [];
    }
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
      return pkcs11Failures(value, hasUnknown);
    case "kms": {
      const name = isRecord(value) ? value["cryptoKeyVersion"] : undefined;
      if (hasUnknown(name)) return [];
      const checked = checkCryptoKeyVersionName(name);
      return "reason" in checked ? [{ property: "identity.kms.cryptoKeyVersion", reason: checked.reason }] : [];
    }
    default:
      return [];
  }
}

/** The X.509 certificate of a PEM text, or undefined. */
export function certificateOf(pem: unknown): crypto.X509Certificate | undefined {
  if (typeof pem !== "string" || !pem.includes("-----BEGIN CERTIFICATE-----")) return undefined;
  try {
    return new crypto.X509Certificate(pem);
  } catch {
    return undefined;
  }
}

/** Every problem with `identity` (mspId, certificate, signer reference), as check failures. */
export function identityFailures(identity: unknown, hasUnknown: (v: unknown) => boolean): FieldFailure[] {
  if (!isRecord(identity)) {
    return [{ property: "identity", reason: `is required: { mspId, certificatePem, and one of ${ONE_OF} }` }];
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
  failures.push(...signerFailures(identity, certificate, hasUnknown));
  return failures;
}
