/**
 * The key types of Fabric identities: ECDSA P-256 (every Fabric), ECDSA P-384 (every Fabric: the MSP accepts any
 * ECDSA curve) and Ed25519 (Fabric ≥ 3.0 on a channel with capability V3_0). How each is hashed and encoded is what
 * Fabric's MSP expects (fabric.md "The 3.x line"): ECDSA over SHA-256 whatever the curve, DER, low-S with the curve's
 * own half order; Ed25519 over the message itself (no pre-hash), 64 raw bytes.
 */
import * as crypto from "node:crypto";
import { ecdsaCurveNamed } from "./ecdsa";
import type { EcdsaCurve } from "./ecdsa";

/** A key type a Fabric identity can have. */
export type KeyType = "ecdsa-p256" | "ecdsa-p384" | "ed25519";

/** Every key type, in the order messages list them. */
export const KEY_TYPES: readonly KeyType[] = ["ecdsa-p256", "ecdsa-p384", "ed25519"];

/** The names messages use. */
export const KEY_TYPE_NAMES: Readonly<Record<KeyType, string>> = {
  "ecdsa-p256": "ECDSA P-256",
  "ecdsa-p384": "ECDSA P-384",
  ed25519: "Ed25519",
};

/** "ECDSA P-256, ECDSA P-384 or Ed25519", for messages. */
export const SUPPORTED_KEY_TYPES_TEXT =
  "ECDSA P-256, ECDSA P-384 or Ed25519 (Fabric ≥ 3.0 with channel capability V3_0)";

/** The key type of a public or private key, or undefined for any other key (RSA, P-521, secp256k1, Ed448…). */
export function keyTypeOf(key: crypto.KeyObject): KeyType | undefined {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  if (key.asymmetricKeyType !== "ec") return undefined;
  const name = key.asymmetricKeyDetails?.namedCurve;
  if (name === "prime256v1") return "ecdsa-p256";
  if (name === "secp384r1") return "ecdsa-p384";
  return undefined;
}

/** A key's type as messages name it ("RSA 2048", "EC secp521r1", "Ed448"…), for key types we do not accept. */
export function describeKey(key: crypto.KeyObject): string {
  const type = keyTypeOf(key);
  if (type !== undefined) return KEY_TYPE_NAMES[type];
  const details = key.asymmetricKeyDetails;
  if (key.asymmetricKeyType === "ec") return `EC ${details?.namedCurve ?? "(unknown curve)"}`;
  if (key.asymmetricKeyType === "rsa") return `RSA ${details?.modulusLength ?? ""}`.trim();
  return key.asymmetricKeyType ?? "unknown";
}

/** The ECDSA curve of an ECDSA key type, undefined for Ed25519. */
export function ecdsaCurveOf(type: KeyType): EcdsaCurve | undefined {
  if (type === "ed25519") return undefined;
  return ecdsaCurveNamed(type === "ecdsa-p256" ? "P-256" : "P-384");
}

/** Whether a key type needs the channel capability V3_0 (and so Fabric ≥ 3.0). */
export function needsV3(type: KeyType): boolean {
  return type === "ed25519";
}
