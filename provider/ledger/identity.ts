/**
 * X.509 identities as plain data, as in the official client: `{ mspId, credentials }` with the PEM certificate
 * bytes. The serialized form (msp.SerializedIdentity) is the transaction's creator and the endorser field.
 */
import * as crypto from "node:crypto";
import { codecs } from "./codec";
import { IdentityError } from "../errors/ledger/identity-error";
import { describeKey, keyTypeOf, SUPPORTED_KEY_TYPES_TEXT } from "./key-types";
import type { KeyType } from "./key-types";

export interface Identity {
  /** The member services provider id, for example "Org1MSP". */
  readonly mspId: string;
  /** The PEM-encoded X.509 certificate, as bytes. */
  readonly credentials: Uint8Array;
}

/**
 * Builds an identity after checking that the certificate is one PEM X.509 certificate with an ECDSA P-256, ECDSA
 * P-384 or Ed25519 key. Throws IdentityError otherwise.
 */
export function newIdentity(mspId: string, certificatePem: string | Uint8Array): Identity {
  if (mspId.trim() === "") throw new IdentityError({ subject: "identity", reason: "mspId must not be empty" });
  const credentials = typeof certificatePem === "string" ? new TextEncoder().encode(certificatePem) : certificatePem;
  const certificate = parseCertificate(credentials, `certificate of ${mspId}`);
  const key = certificate.publicKey;
  if (keyTypeOf(key) === undefined) {
    throw new IdentityError({
      subject: `certificate of ${mspId}`,
      reason: `the certificate's key is ${describeKey(key)}; it must be ${SUPPORTED_KEY_TYPES_TEXT}`,
    });
  }
  return { mspId, credentials: new Uint8Array(credentials) };
}

/** The key type of an identity's certificate (throws IdentityError when it is none Fabric accepts). */
export function identityKeyType(identity: Identity): KeyType {
  const key = parseCertificate(identity.credentials, `certificate of ${identity.mspId}`).publicKey;
  const type = keyTypeOf(key);
  if (type === undefined) {
    throw new IdentityError({
      subject: `certificate of ${identity.mspId}`,
      reason: `the certificate's key is ${describeKey(key)}; it must be ${SUPPORTED_KEY_TYPES_TEXT}`,
    });
  }
  return type;
}

/**
 * The package's one X.509 certificate parser: a PEM certificate (text or bytes) parsed, or why it is none. Fabric's MSP
 * runs pem.Decode on id_bytes and rejects anything else, so a text without a BEGIN CERTIFICATE block is none either.
 */
export function readCertificate(
  pem: unknown,
): { readonly certificate: crypto.X509Certificate } | { readonly problem: "not-pem" | "unparsable"; cause?: unknown } {
  const text = typeof pem === "string" ? pem : pem instanceof Uint8Array ? Buffer.from(pem).toString("utf8") : "";
  if (!text.includes("-----BEGIN CERTIFICATE-----")) return { problem: "not-pem" };
  try {
    return { certificate: new crypto.X509Certificate(text) };
  } catch (cause) {
    return { problem: "unparsable", cause };
  }
}

/** The certificate of a PEM text or bytes, or undefined when it is none (readCertificate). */
export function certificateOf(pem: unknown): crypto.X509Certificate | undefined {
  const read = readCertificate(pem);
  return "certificate" in read ? read.certificate : undefined;
}

/** Parses one PEM certificate (readCertificate); throws IdentityError naming `subject` when it is none. */
export function parseCertificate(pem: Uint8Array | string, subject: string): crypto.X509Certificate {
  const read = readCertificate(pem);
  if ("certificate" in read) return read.certificate;
  if (read.problem === "not-pem") {
    throw new IdentityError({ subject, reason: "not a PEM certificate (no BEGIN CERTIFICATE block)" });
  }
  throw new IdentityError({ subject, reason: "the PEM certificate does not parse as X.509", cause: read.cause });
}

/** msp.SerializedIdentity bytes: the `creator` of headers and the `endorser` of endorsements. */
export function serializeIdentity(identity: Identity): Uint8Array {
  return codecs.SerializedIdentity.encode({ mspid: identity.mspId, idBytes: identity.credentials });
}

/** The identity inside serialized msp.SerializedIdentity bytes (throws LedgerDecodeError when unparsable). */
export function deserializeIdentity(serialized: Uint8Array): Identity {
  const decoded = codecs.SerializedIdentity.decode(serialized);
  return { mspId: decoded.mspid, credentials: decoded.idBytes };
}
