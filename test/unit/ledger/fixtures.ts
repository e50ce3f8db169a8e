/**
 * Test PKI and a gateway-like transaction builder: organizations with a root CA each, client and endorser
 * certificates generated with @peculiar/x509, and prepared transactions assembled exactly as Fabric's gateway does
 * (Fabric's internal/pkg/gateway/submit.go), so verify-before-sign can be tested against genuine and tampered
 * transactions.
 */
import * as crypto from "node:crypto";
import { x509 } from "../../../provider/ledger/x509-lib";
import { codecs } from "../../../provider/ledger/codec";
import { concatBytes, sha256 } from "../../../provider/ledger/hash";
import type { Identity } from "../../../provider/ledger/identity";
import type { KeyType } from "../../../provider/ledger/key-types";
import { serializeIdentity } from "../../../provider/ledger/identity";
import type { Endorsement } from "../../../provider/ledger/messages";
import type { BuiltProposal } from "../../../provider/ledger/proposal";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import type { Signer } from "../../../provider/ledger/signing";

/** The WebCrypto key algorithm and certificate signing algorithm of each key type. */
const ALGORITHMS: Readonly<
  Record<
    KeyType,
    {
      key: crypto.webcrypto.AlgorithmIdentifier | crypto.webcrypto.EcKeyGenParams;
      signing: crypto.webcrypto.AlgorithmIdentifier | crypto.webcrypto.EcdsaParams;
    }
  >
> = {
  "ecdsa-p256": { key: { name: "ECDSA", namedCurve: "P-256" }, signing: { name: "ECDSA", hash: "SHA-256" } },
  "ecdsa-p384": { key: { name: "ECDSA", namedCurve: "P-384" }, signing: { name: "ECDSA", hash: "SHA-384" } },
  ed25519: { key: { name: "Ed25519" }, signing: { name: "Ed25519" } },
};
export const NOT_BEFORE = new Date("2025-01-01T00:00:00Z");
export const NOT_AFTER = new Date("2035-01-01T00:00:00Z");
/** A fixed clock inside every test certificate's validity period. */
export const NOW = (): Date => new Date("2026-06-01T00:00:00Z");

export interface TestMember {
  readonly identity: Identity;
  readonly keyType: KeyType;
  readonly privateKeyPem: string;
  readonly signer: Signer;
}

export interface TestOrg {
  readonly mspId: string;
  readonly caPem: string;
  readonly caKeys: crypto.webcrypto.CryptoKeyPair;
  readonly caCert: x509.X509Certificate;
  /** The key type of the CA (and the default of its members). */
  readonly keyType: KeyType;
}

async function keys(keyType: KeyType = "ecdsa-p256"): Promise<crypto.webcrypto.CryptoKeyPair> {
  return (await crypto.webcrypto.subtle.generateKey(ALGORITHMS[keyType].key, true, [
    "sign",
    "verify",
  ])) as crypto.webcrypto.CryptoKeyPair;
}

/** What a member's Signer is given of a message: SHA-256 for ECDSA, the message itself for Ed25519. */
export function digestFor(keyType: KeyType, message: Uint8Array): Uint8Array {
  return keyType === "ed25519" ? message : sha256(message);
}

function pkcs8Pem(key: crypto.webcrypto.CryptoKey): Promise<string> {
  return Promise.resolve(crypto.KeyObject.from(key).export({ type: "pkcs8", format: "pem" }).toString());
}

export async function newOrg(mspId: string, options: { notAfter?: Date; keyType?: KeyType } = {}): Promise<TestOrg> {
  const keyType = options.keyType ?? "ecdsa-p256";
  const caKeys = await keys(keyType);
  const caCert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=ca.${mspId.toLowerCase()},O=${mspId}`,
    keys: caKeys,
    notBefore: NOT_BEFORE,
    notAfter: options.notAfter ?? NOT_AFTER,
    signingAlgorithm: ALGORITHMS[keyType].signing,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });
  return { mspId, caPem: caCert.toString("pem"), caKeys, caCert, keyType };
}

/**
 * A member of `org` with a key of `options.keyType` (default: the CA's), its certificate signed by the CA; `ou` puts a
 * node OU (admin, client, peer, orderer) in its subject, as cryptogen does with NodeOUs.
 */
export async function newMember(
  org: TestOrg,
  name: string,
  options: { notAfter?: Date; keyType?: KeyType; ou?: string } = {},
): Promise<TestMember> {
  const keyType = options.keyType ?? org.keyType;
  const memberKeys = await keys(keyType);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${name},${options.ou === undefined ? "" : `OU=${options.ou},`}O=${org.mspId}`,
    issuer: org.caCert.subject,
    publicKey: memberKeys.publicKey,
    signingKey: org.caKeys.privateKey,
    notBefore: NOT_BEFORE,
    notAfter: options.notAfter ?? NOT_AFTER,
    signingAlgorithm: ALGORITHMS[org.keyType].signing,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(org.caKeys.publicKey),
    ],
  });
  const privateKeyPem = await pkcs8Pem(memberKeys.privateKey);
  return {
    identity: { mspId: org.mspId, credentials: new TextEncoder().encode(cert.toString("pem")) },
    keyType,
    privateKeyPem,
    signer: newPrivateKeySigner(privateKeyPem),
  };
}

export interface EndorsementResult {
  readonly status?: number;
  readonly payload?: Uint8Array;
  readonly chaincodeName?: string;
  readonly chaincodeVersion?: string;
  readonly results?: Uint8Array;
  readonly events?: Uint8Array;
}

/** A serialized ChaincodeAction with one KV write in the chaincode's namespace. */
export function chaincodeAction(name: string, result: EndorsementResult = {}): Uint8Array {
  const kv = codecs.KvRwSet.encode({ writes: [{ key: "asset1", value: new TextEncoder().encode("blue") }] });
  const results = result.results ?? codecs.TxReadWriteSet.encode({ nsRwset: [{ namespace: name, rwset: kv }] });
  return codecs.ChaincodeAction.encode({
    results,
    events: result.events ?? new Uint8Array(0),
    response: { status: result.status ?? 200, message: "", payload: result.payload ?? new TextEncoder().encode("ok") },
    chaincodeId: { name: result.chaincodeName ?? name, version: result.chaincodeVersion ?? "1.0" },
  });
}

/** ProposalResponsePayload bytes for a proposal hash and chaincode action. */
export function proposalResponsePayload(proposalHash: Uint8Array, action: Uint8Array): Uint8Array {
  return codecs.ProposalResponsePayload.encode({ proposalHash, extension: action });
}

/** An endorser's endorsement: a signature over prp ‖ endorser (SHA-256 for ECDSA, the bytes for Ed25519). */
export async function endorse(endorser: TestMember, prp: Uint8Array): Promise<Endorsement> {
  const serialized = serializeIdentity(endorser.identity);
  return {
    endorser: serialized,
    signature: await endorser.signer(digestFor(endorser.keyType, concatBytes(prp, serialized))),
  };
}

export interface PrepareOverrides {
  readonly channelHeader?: Uint8Array;
  readonly signatureHeader?: Uint8Array;
  readonly actionHeader?: Uint8Array;
  readonly chaincodeProposalPayload?: Uint8Array;
  readonly proposalResponsePayload?: Uint8Array;
  readonly endorsements?: readonly Endorsement[];
}

/** Assembles the unsigned prepared Envelope as a Fabric gateway does, with optional tampering. */
export function prepare(
  proposal: BuiltProposal,
  prp: Uint8Array,
  endorsements: readonly Endorsement[],
  o: PrepareOverrides = {},
): Uint8Array {
  const signatureHeader = o.signatureHeader ?? proposal.signatureHeader;
  const actionPayload = codecs.ChaincodeActionPayload.encode({
    chaincodeProposalPayload: o.chaincodeProposalPayload ?? proposal.transactionPayload,
    action: { proposalResponsePayload: o.proposalResponsePayload ?? prp, endorsements: o.endorsements ?? endorsements },
  });
  const transaction = codecs.Transaction.encode({
    actions: [{ header: o.actionHeader ?? signatureHeader, payload: actionPayload }],
  });
  const payload = codecs.Payload.encode({
    header: { channelHeader: o.channelHeader ?? proposal.channelHeader, signatureHeader },
    data: transaction,
  });
  return codecs.Envelope.encode({ payload });
}

/** Signs an unsigned envelope as the client would (SHA-256 of Envelope.payload, or the payload for Ed25519). */
export async function signEnvelope(envelope: Uint8Array, client: TestMember): Promise<Uint8Array> {
  const { payload } = codecs.Envelope.decode(envelope);
  return codecs.Envelope.encode({ payload, signature: await client.signer(digestFor(client.keyType, payload)) });
}

/** A TLS server certificate for gateway.local and 127.0.0.1 issued by the org's CA: PEM certificate and PKCS#8 key. */
export async function newTlsServerCertificate(org: TestOrg): Promise<{ certPem: string; keyPem: string }> {
  const serverKeys = await keys();
  const cert = await x509.X509CertificateGenerator.create({
    subject: "CN=gateway.local",
    issuer: org.caCert.subject,
    publicKey: serverKeys.publicKey,
    signingKey: org.caKeys.privateKey,
    notBefore: new Date(Date.now() - 3_600_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: ALGORITHMS[org.keyType].signing,
    extensions: [
      new x509.SubjectAlternativeNameExtension([
        { type: "dns", value: "gateway.local" },
        { type: "ip", value: "127.0.0.1" },
      ]),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(org.caKeys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await pkcs8Pem(serverKeys.privateKey) };
}

/** A certificate of `org`'s CA for a public key made elsewhere (an HSM, a KMS): the member's PEM certificate. */
export async function certifyPublicKey(org: TestOrg, name: string, publicKey: crypto.KeyObject): Promise<string> {
  const spki = publicKey.export({ type: "spki", format: "der" });
  const algorithm =
    publicKey.asymmetricKeyType === "ed25519"
      ? { name: "Ed25519" }
      : { name: "ECDSA", namedCurve: publicKey.asymmetricKeyDetails?.namedCurve === "secp384r1" ? "P-384" : "P-256" };
  const key = await crypto.webcrypto.subtle.importKey("spki", spki, algorithm, true, ["verify"]);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${name},O=${org.mspId}`,
    issuer: org.caCert.subject,
    publicKey: key,
    signingKey: org.caKeys.privateKey,
    notBefore: NOT_BEFORE,
    notAfter: NOT_AFTER,
    signingAlgorithm: ALGORITHMS[org.keyType].signing,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(org.caKeys.publicKey),
    ],
  });
  return cert.toString("pem");
}
