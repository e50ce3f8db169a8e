/**
 * Certificate issuance for the sandbox's organizations: one self-signed root CA per organization, and leaf
 * certificates (clients, peers, the TLS server) signed by it. ECDSA P-256 keys and ecdsa-with-SHA256 signatures by
 * default; an organization may instead have ECDSA P-384 keys (ecdsa-with-SHA384) or Ed25519 keys (Ed25519
 * signatures), as Fabric 3's MSP accepts. Names shaped like Fabric's cryptogen output (`OU=client` / `OU=peer`).
 *
 * Issuance is synchronous (node:crypto keys, DER written by der.ts) so that `newClientIdentity()` can return at once;
 * certificates are parsed and chain-checked with @peculiar/x509 in msp.ts.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import * as der from "./der";

/** How long issued certificates stay valid. */
export const DEFAULT_CERTIFICATE_VALIDITY_MS = 10 * 365 * 24 * 60 * 60 * 1000;
/** How far in the past `notBefore` is set, to absorb clock skew. */
export const DEFAULT_CERTIFICATE_BACKDATE_MS = 60 * 60 * 1000;

const OID = {
  ecPublicKey: "1.2.840.10045.2.1",
  ecdsaWithSha256: "1.2.840.10045.4.3.2",
  ecdsaWithSha384: "1.2.840.10045.4.3.3",
  ed25519: "1.3.101.112",
  countryName: "2.5.4.6",
  organizationName: "2.5.4.10",
  organizationalUnitName: "2.5.4.11",
  commonName: "2.5.4.3",
  subjectKeyIdentifier: "2.5.29.14",
  keyUsage: "2.5.29.15",
  subjectAltName: "2.5.29.17",
  basicConstraints: "2.5.29.19",
  authorityKeyIdentifier: "2.5.29.35",
  extendedKeyUsage: "2.5.29.37",
  serverAuth: "1.3.6.1.5.5.7.3.1",
  clientAuth: "1.3.6.1.5.5.7.3.2",
} as const;

export interface DistinguishedName {
  readonly commonName: string;
  readonly organization: string;
  readonly organizationalUnit?: string;
}

/** A key pair and its certificate. */
export interface KeyedCertificate {
  readonly certificatePem: string;
  readonly certificateDer: Buffer;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  readonly subject: DistinguishedName;
  /** SHA-1 of the public key bits (RFC 5280 method 1), the subject key identifier. */
  readonly keyId: Buffer;
}

/** The key types an organization of the sandbox may have. */
export type SandboxKeyType = "ecdsa-p256" | "ecdsa-p384" | "ed25519";

/** Every SandboxKeyType. */
export const SANDBOX_KEY_TYPES: readonly SandboxKeyType[] = ["ecdsa-p256", "ecdsa-p384", "ed25519"];

/** The key type of a key, or undefined for any other. */
export function sandboxKeyTypeOf(key: KeyObject): SandboxKeyType | undefined {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  const curve = key.asymmetricKeyType === "ec" ? key.asymmetricKeyDetails?.namedCurve : undefined;
  return curve === "prime256v1" ? "ecdsa-p256" : curve === "secp384r1" ? "ecdsa-p384" : undefined;
}

export interface IssueOptions {
  readonly subject: DistinguishedName;
  /** Subject alternative names, for a TLS server certificate. */
  readonly dnsNames?: readonly string[];
  readonly ipAddresses?: readonly string[];
  /** The issuing time; default now. */
  readonly now?: Date;
  /** The new key's type; default the CA's. */
  readonly keyType?: SandboxKeyType;
}

function encodeName(name: DistinguishedName): Buffer {
  const rdn = (oid: string, value: Buffer): Buffer => der.set(der.sequence(der.objectIdentifier(oid), value));
  const parts = [
    rdn(OID.countryName, der.printableString("US")),
    rdn(OID.organizationName, der.utf8String(name.organization)),
  ];
  if (name.organizationalUnit !== undefined) {
    parts.push(rdn(OID.organizationalUnitName, der.utf8String(name.organizationalUnit)));
  }
  parts.push(rdn(OID.commonName, der.utf8String(name.commonName)));
  return der.sequence(...parts);
}

function extension(oid: string, critical: boolean, value: Buffer): Buffer {
  return critical
    ? der.sequence(der.objectIdentifier(oid), der.boolean(true), der.octetString(value))
    : der.sequence(der.objectIdentifier(oid), der.octetString(value));
}

/** The subject key identifier of `publicKey` (RFC 5280 method 1). */
export function keyIdOf(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ type: "spki", format: "der" });
  // The subjectPublicKey BIT STRING's key bits are at the end of the SPKI: the uncompressed point (65 bytes for P-256,
  // 97 for P-384) or Ed25519's 32 bytes.
  const bits = { "ecdsa-p256": 65, "ecdsa-p384": 97, ed25519: 32 }[sandboxKeyTypeOf(publicKey) ?? "ecdsa-p256"];
  return createHash("sha1")
    .update(spki.subarray(spki.length - bits))
    .digest();
}

function ipBytes(ip: string): Buffer {
  return Buffer.from(ip.split(".").map((p) => Number.parseInt(p, 10)));
}

interface SignParams {
  readonly subject: DistinguishedName;
  readonly issuer: DistinguishedName;
  readonly publicKey: KeyObject;
  readonly signingKey: KeyObject;
  readonly extensions: readonly Buffer[];
  readonly now: Date;
}

function signCertificate(params: SignParams): Buffer {
  const signer = sandboxKeyTypeOf(params.signingKey) ?? "ecdsa-p256";
  const algorithm = der.sequence(
    der.objectIdentifier(
      signer === "ed25519" ? OID.ed25519 : signer === "ecdsa-p384" ? OID.ecdsaWithSha384 : OID.ecdsaWithSha256,
    ),
  );
  const serial = randomBytes(16);
  serial[0] = (serial[0] ?? 0) & 0x7f;
  const notBefore = new Date(params.now.getTime() - DEFAULT_CERTIFICATE_BACKDATE_MS);
  const notAfter = new Date(params.now.getTime() + DEFAULT_CERTIFICATE_VALIDITY_MS);
  const tbs = der.sequence(
    der.explicit(0, der.integer(2n)),
    der.integer(serial),
    algorithm,
    encodeName(params.issuer),
    der.sequence(der.time(notBefore), der.time(notAfter)),
    encodeName(params.subject),
    params.publicKey.export({ type: "spki", format: "der" }),
    der.explicit(3, der.sequence(...params.extensions)),
  );
  const signature = sign(
    signer === "ed25519" ? null : signer === "ecdsa-p384" ? "sha384" : "sha256",
    tbs,
    params.signingKey,
  );
  return der.sequence(tbs, algorithm, der.bitString(signature));
}

function toPem(certificateDer: Buffer): string {
  const lines = certificateDer.toString("base64").match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`;
}

function newKeyPair(keyType: SandboxKeyType = "ecdsa-p256"): { privateKey: KeyObject; publicKey: KeyObject } {
  if (keyType === "ed25519") return generateKeyPairSync("ed25519");
  return generateKeyPairSync("ec", { namedCurve: keyType === "ecdsa-p384" ? "P-384" : "P-256" });
}

/** A self-signed root CA certificate and its key (of `keyType`, default ECDSA P-256). */
export function createRootCa(
  subject: DistinguishedName,
  now: Date = new Date(),
  keyType: SandboxKeyType = "ecdsa-p256",
): KeyedCertificate {
  const { privateKey, publicKey } = newKeyPair(keyType);
  const keyId = keyIdOf(publicKey);
  const certificateDer = signCertificate({
    subject,
    issuer: subject,
    publicKey,
    signingKey: privateKey,
    now,
    extensions: [
      // keyUsage: digitalSignature (bit 0), keyCertSign (bit 5), cRLSign (bit 6).
      extension(OID.keyUsage, true, der.bitString(Buffer.from([0x86]), 1)),
      extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
      extension(OID.subjectKeyIdentifier, false, der.octetString(keyId)),
    ],
  });
  return { certificatePem: toPem(certificateDer), certificateDer, privateKey, publicKey, subject, keyId };
}

/** A leaf certificate for a new key pair (of the CA's key type unless `options.keyType`), signed by `ca`. */
export function issueCertificate(ca: KeyedCertificate, options: IssueOptions): KeyedCertificate {
  const { privateKey, publicKey } = newKeyPair(options.keyType ?? sandboxKeyTypeOf(ca.publicKey));
  return { ...certify(ca, publicKey, options), privateKey, publicKey, subject: options.subject };
}

/**
 * A leaf certificate for a public key whose private key lives elsewhere (an HSM, Cloud KMS), signed by `ca`: what a
 * Fabric CA issues for a certificate signing request made with such a key.
 */
export function certifyPublicKey(
  ca: KeyedCertificate,
  publicKey: KeyObject,
  options: IssueOptions,
): { certificatePem: string; certificateDer: Buffer } {
  const { certificatePem, certificateDer } = certify(ca, publicKey, options);
  return { certificatePem, certificateDer };
}

function certify(
  ca: KeyedCertificate,
  publicKey: KeyObject,
  options: IssueOptions,
): { certificatePem: string; certificateDer: Buffer; keyId: Buffer } {
  const keyId = keyIdOf(publicKey);
  const extensions = [
    extension(OID.keyUsage, true, der.bitString(Buffer.from([0x80]), 7)), // digitalSignature
    extension(OID.basicConstraints, true, der.sequence()),
    extension(OID.subjectKeyIdentifier, false, der.octetString(keyId)),
    extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicit(0, ca.keyId))),
  ];
  const dns = options.dnsNames ?? [];
  const ips = options.ipAddresses ?? [];
  if (dns.length + ips.length > 0) {
    const names = [
      ...dns.map((d) => der.implicit(2, Buffer.from(d, "ascii"))),
      ...ips.map((ip) => der.implicit(7, ipBytes(ip))),
    ];
    extensions.push(extension(OID.subjectAltName, false, der.sequence(...names)));
    extensions.push(
      extension(
        OID.extendedKeyUsage,
        false,
        der.sequence(der.objectIdentifier(OID.serverAuth), der.objectIdentifier(OID.clientAuth)),
      ),
    );
  }
  const certificateDer = signCertificate({
    subject: options.subject,
    issuer: ca.subject,
    publicKey,
    signingKey: ca.privateKey,
    now: options.now ?? new Date(),
    extensions,
  });
  return { certificatePem: toPem(certificateDer), certificateDer, keyId };
}

/** PKCS#8 PEM of a private key (what `crypto.createPrivateKey(pem)` and the official client's signer accept). */
export function privateKeyPem(key: KeyObject): string {
  return key.export({ type: "pkcs8", format: "pem" }).toString();
}
