/**
 * What test/e2e/ledger-key-types-fabric.test.ts reads and makes: the key type of certificates and of a committed
 * transaction's creator and endorsers (decoded with fabric-protos, not our codec), a committed transaction with one
 * endorsement changed, `opsledger-ledger` run as a user runs it, and a client certified by a real network's CA.
 */
import { strict as assert } from "node:assert";
import { createPrivateKey, generateKeyPairSync, sign, webcrypto, X509Certificate, type KeyObject } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { common, msp, peer } from "@hyperledger/fabric-protos";
import { x509 } from "../../provider/ledger/x509-lib";
import type { FabricNetwork } from "../../sandbox/fabric-network";
import type { ComponentTarget } from "./ledger-component";
import type { TargetIdentity } from "./ledger-targets";

/** "ed25519", "P-256", "P-384": a key as the assertions name it. */
function keyName(key: KeyObject): string {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return curve === "prime256v1" ? "P-256" : curve === "secp384r1" ? "P-384" : String(curve);
}
export const certKey = (pem: string | Uint8Array): string => keyName(new X509Certificate(Buffer.from(pem)).publicKey);
const identityKey = (serialized: Uint8Array): string => {
  const id = msp.SerializedIdentity.deserializeBinary(serialized);
  return `${id.getMspid()} ${certKey(id.getIdBytes_asU8())}`;
};

/** The creator and the endorsers of a ProcessedTransaction with their keys, decoded with fabric-protos. */
export function signersOf(processed: Uint8Array): { creator: string; endorsers: string[] } {
  const envelope = peer.ProcessedTransaction.deserializeBinary(processed).getTransactionenvelope();
  const none = new Uint8Array(0);
  const payload = common.Payload.deserializeBinary(envelope?.getPayload_asU8() ?? none);
  const signature = common.SignatureHeader.deserializeBinary(payload.getHeader()?.getSignatureHeader_asU8() ?? none);
  const action = peer.Transaction.deserializeBinary(payload.getData_asU8()).getActionsList()[0];
  const endorsed = peer.ChaincodeActionPayload.deserializeBinary(action?.getPayload_asU8() ?? none).getAction();
  return {
    creator: identityKey(signature.getCreator_asU8()),
    endorsers: (endorsed?.getEndorsementsList() ?? []).map((e) => identityKey(e.getEndorser_asU8())).sort(),
  };
}

/**
 * A copy of a ProcessedTransaction whose endorsement by `mspId` has one signature bit flipped, the envelope signed
 * again by the creator's Ed25519 key (else the creator's signature, checked first, would fail).
 */
export function tamperedCopy(processed: Uint8Array, mspId: string, creatorKeyPem: string): Uint8Array {
  const tx = peer.ProcessedTransaction.deserializeBinary(processed);
  const envelope = tx.getTransactionenvelope();
  assert.ok(envelope !== undefined);
  const payload = common.Payload.deserializeBinary(envelope.getPayload_asU8());
  const transaction = peer.Transaction.deserializeBinary(payload.getData_asU8());
  const action = transaction.getActionsList()[0];
  assert.ok(action !== undefined);
  const actionPayload = peer.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8());
  const endorsed = actionPayload.getAction();
  const endorsement = endorsed
    ?.getEndorsementsList()
    .find((e) => msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid() === mspId);
  assert.ok(endorsed !== undefined && endorsement !== undefined);
  const signature = Buffer.from(endorsement.getSignature_asU8());
  signature[10] = (signature[10] ?? 0) ^ 0x01;
  endorsement.setSignature(signature);
  actionPayload.setAction(endorsed);
  action.setPayload(actionPayload.serializeBinary());
  payload.setData(transaction.serializeBinary());
  const payloadBytes = payload.serializeBinary();
  envelope.setPayload(payloadBytes);
  envelope.setSignature(sign(null, payloadBytes, createPrivateKey(creatorKeyPem)));
  tx.setTransactionenvelope(envelope);
  return tx.serializeBinary();
}

/** How WebCrypto takes a key of Node's type, and how it signs with it. */
function webAlgorithms(key: KeyObject): {
  readonly key: { name: string; namedCurve?: string };
  readonly signing: { name: string; hash?: string };
} {
  const name = keyName(key);
  if (name === "ed25519") return { key: { name: "Ed25519" }, signing: { name: "Ed25519" } };
  const namedCurve = name === "P-384" ? "P-384" : "P-256";
  return {
    key: { name: "ECDSA", namedCurve },
    signing: { name: "ECDSA", hash: namedCurve === "P-384" ? "SHA-384" : "SHA-256" },
  };
}

/** A real network: a component target's, or one in hand. */
type NetworkOf = ComponentTarget | FabricNetwork;
const networkOf = (t: NetworkOf): FabricNetwork | undefined => ("ledger" in t ? t.ledger.network : t);

/**
 * A client certificate for `publicKey` (any key type: its private key may live in an HSM or Cloud KMS), issued by
 * `mspId`'s real CA with the CA's key from the network's folder (cryptogen's, or the builder's P-384 one), NodeOU
 * `client` as cryptogen's. The CA signs with its own algorithm (Ed25519, or ECDSA with its curve's hash).
 */
export async function certifyForOrganization(
  t: NetworkOf,
  mspId: string,
  publicKey: KeyObject,
  commonName: string,
): Promise<string> {
  const org = networkOf(t)?.organization(mspId);
  assert.ok(org !== undefined);
  const ca = new x509.X509Certificate(org.caCertificatePem);
  const caKey = createPrivateKey(fs.readFileSync(path.join(path.dirname(org.caCertificatePath), "priv_sk")));
  const caAlgorithms = webAlgorithms(caKey);
  const signingKey = await webcrypto.subtle.importKey(
    "pkcs8",
    caKey.export({ type: "pkcs8", format: "der" }),
    caAlgorithms.key,
    false,
    ["sign"],
  );
  const leafKey = await webcrypto.subtle.importKey(
    "spki",
    publicKey.export({ type: "spki", format: "der" }),
    webAlgorithms(publicKey).key,
    true,
    ["verify"],
  );
  const caKeyId = ca.getExtension(x509.SubjectKeyIdentifierExtension)?.keyId;
  assert.ok(caKeyId !== undefined);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${commonName}@${org.domain},OU=client,O=${org.domain}`,
    issuer: ca.subjectName, // the CA's subject as encoded: chains match names byte for byte
    publicKey: leafKey,
    signingKey,
    // Fabric's MSP checks a chain at the leaf's notBefore + 1 s, which must fall within the CA's validity.
    notBefore: ca.notBefore,
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: caAlgorithms.signing,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.AuthorityKeyIdentifierExtension(caKeyId),
    ],
  });
  return cert.toString("pem");
}

/**
 * A client of Org1 with a new Ed25519 (or P-256) key, its certificate issued by Org1's real CA with the CA's key from
 * the network's folder, NodeOU `client` as cryptogen's.
 */
export async function newClientOf(t: NetworkOf, type: "ed25519" | "ecdsa-p256"): Promise<TargetIdentity> {
  const keys = type === "ed25519" ? generateKeyPairSync("ed25519") : generateKeyPairSync("ec", { namedCurve: "P-256" });
  const certificatePem = await certifyForOrganization(t, "Org1MSP", keys.publicKey, "User9");
  const privateKeyPem = keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  return { mspId: "Org1MSP", certificatePem, privateKeyPem };
}
