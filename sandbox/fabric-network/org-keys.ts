/**
 * Key types of the peer organizations' identities (FabricNetworkOptions.keyTypes). ECDSA P-256 is cryptogen's default;
 * Ed25519 is cryptogen's own `PublicKeyAlgorithm: ed25519` (Fabric 3.x's cryptogen; it makes the organization's CAs,
 * MSP and TLS keys Ed25519 alike, except the Admin's key, which stays P-256 under the Ed25519 CA); ECDSA P-384 cryptogen cannot make (its `PublicKeyAlgorithm` is "ecdsa", always
 * P-256, or "ed25519"), so after cryptogen has written the organization's folder, reissueMsp() replaces its MSP
 * material — the CA, and the signing certificate and key of every peer, chaincode server and user — with P-384 ones
 * issued here, in cryptogen's layout and names (NodeOU config.yaml files keep pointing at cacerts/ca.<domain>-cert.pem).
 * The TLS material of that organization stays cryptogen's P-256 (its own TLS CA): TLS keys are not MSP identities, and
 * Fabric checks them apart from the channel's MSPs.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createRootCa,
  issueCertificate,
  privateKeyPem,
  type KeyedCertificate,
  type SandboxKeyType,
} from "../fabric/certificates";
import { NetworkLayout, PEER_ORGS, type PeerOrgSpec } from "./topology";
import { FABRIC_KEY_TYPES, type FabricKeyType } from "./types";

/**
 * Each peer organization's key type, by MSP id, from `keyTypes` over the default ECDSA P-256. Refuses an unknown MSP id
 * or key type, and Ed25519 on a 2.x release (its channels cannot run at V3_0), naming the fix.
 */
export function resolveKeyTypes(
  version: string,
  keyTypes: Readonly<Record<string, string>> = {},
): ReadonlyMap<string, FabricKeyType> {
  const known = PEER_ORGS.map((o) => o.mspId);
  for (const [mspId, type] of Object.entries(keyTypes)) {
    if (!known.includes(mspId))
      throw new Error(`keyTypes: '${mspId}' is not an organization of the network; use ${known.join(" or ")}`);
    if (!(FABRIC_KEY_TYPES as readonly string[]).includes(type))
      throw new Error(`keyTypes.${mspId}: '${type}' is not a key type; use ${FABRIC_KEY_TYPES.join(", ")}`);
    if (type === "ed25519" && version.startsWith("2."))
      throw new Error(
        `keyTypes.${mspId}: Ed25519 identities need Fabric 3.x (channel capability V3_0, which Fabric ${version} ` +
          `does not have); use version 3.1.5, or ecdsa-p256 or ecdsa-p384 for this organization`,
      );
  }
  return new Map(known.map((mspId) => [mspId, (keyTypes[mspId] ?? "ecdsa-p256") as FabricKeyType]));
}

/** Writes an MSP folder's CA and signing identity as cryptogen names them: signcerts/<name>-cert.pem, keystore/priv_sk. */
function writeMsp(mspDir: string, domain: string, name: string, ca: KeyedCertificate, id: KeyedCertificate): void {
  writeFileSync(join(mspDir, "cacerts", `ca.${domain}-cert.pem`), ca.certificatePem);
  writeFileSync(join(mspDir, "signcerts", `${name}-cert.pem`), id.certificatePem);
  writeFileSync(join(mspDir, "keystore", "priv_sk"), privateKeyPem(id.privateKey), { mode: 0o600 });
}

/**
 * Replaces the MSP material cryptogen wrote for `org` with a CA and identities of `keyType` (see the module comment):
 * the same files, the same roles (OU peer, admin, client), so nothing else in the network changes.
 */
export function reissueMsp(layout: NetworkLayout, org: PeerOrgSpec, keyType: SandboxKeyType): void {
  const domain = org.domain;
  const ca = createRootCa({ commonName: `ca.${domain}`, organization: domain }, new Date(), keyType);
  writeFileSync(layout.orgCa(org), ca.certificatePem);
  writeFileSync(join(layout.orgCa(org), "..", "priv_sk"), privateKeyPem(ca.privateKey), { mode: 0o600 });
  writeFileSync(join(layout.orgMsp(org), "cacerts", `ca.${domain}-cert.pem`), ca.certificatePem);
  const orgDir = join(layout.orgMsp(org), "..");
  const issue = (name: string, role: string): KeyedCertificate =>
    issueCertificate(ca, { subject: { commonName: name, organization: domain, organizationalUnit: role } });
  for (const host of readdirSync(join(orgDir, "peers")))
    writeMsp(join(orgDir, "peers", host, "msp"), domain, host, ca, issue(host, "peer"));
  for (const user of readdirSync(join(orgDir, "users")))
    writeMsp(
      join(orgDir, "users", user, "msp"),
      domain,
      user,
      ca,
      issue(user, user.startsWith("Admin@") ? "admin" : "client"),
    );
}
