/**
 * The checks an organization admin's identity gets before a lifecycle step sends anything: its certificate is not a
 * client's, peer's or orderer's (Fabric's NodeOU roles are the certificate's OU; an admin has OU=admin, or no role
 * OU when the organization lists its admins instead), and, when the caller names the channel's organizations and
 * their CAs, its MSP is one of them and its certificate chains to that MSP's CA (cert-chain.ts, as a peer's MSP
 * would check it). What only the channel knows (an organization it does not have) its first read tells: Fabric's
 * refusal becomes the same LifecycleError (lifecycle-reads.ts lifecycleErrorOf).
 */
import * as crypto from "node:crypto";
import { verifyCertificateChain } from "../cert-chain";
import type { TrustedMsp } from "../cert-chain";
import type { Identity } from "../identity";
import { IdentityError } from "../../errors/ledger/identity-error";
import { LifecycleError } from "../../errors/ledger/lifecycle-error";

const OTHER_ROLES = ["client", "peer", "orderer"];

/** The NodeOU roles a certificate's subject names (its OU values that are roles). */
function nodeRoles(certificatePem: Uint8Array): string[] {
  const subject = new crypto.X509Certificate(Buffer.from(certificatePem)).subject;
  return subject
    .split("\n")
    .filter((line) => line.startsWith("OU="))
    .map((line) => line.slice(3).toLowerCase())
    .filter((ou) => ou === "admin" || OTHER_ROLES.includes(ou));
}

/**
 * Throws LifecycleError (nothing sent) when the identity cannot be `what`'s admin of its organization: NOT_AN_ADMIN
 * for a client, peer or orderer certificate; with `trustedMsps`, UNKNOWN_ORGANIZATION for an MSP not among them and
 * UNKNOWN_IDENTITY for a certificate that does not chain to its MSP's CA.
 */
export async function checkAdminIdentity(
  identity: Identity,
  what: string,
  trust: { readonly trustedMsps?: readonly TrustedMsp[]; readonly now?: () => Date } = {},
): Promise<void> {
  const organization = identity.mspId;
  const roles = nodeRoles(identity.credentials);
  if (!roles.includes("admin") && roles.some((r) => OTHER_ROLES.includes(r))) {
    throw new LifecycleError({
      problem: "NOT_AN_ADMIN",
      organization,
      field: "identity.certificatePem",
      message:
        `${what}: the identity is a ${roles.join(", ")} of ${organization}, not an admin (its certificate's OU). ` +
        `Use the certificate and key of ${organization}'s admin; nothing was sent`,
    });
  }
  const trustedMsps = trust.trustedMsps;
  if (trustedMsps === undefined) return;
  const known = trustedMsps.map((m) => m.mspId);
  if (!known.includes(organization) && !known.includes("*")) {
    throw new LifecycleError({
      problem: "UNKNOWN_ORGANIZATION",
      organization,
      field: "identity.mspId",
      message:
        `${what}: ${organization} is not one of the channel's organizations named in trustedMsps ` +
        `(${known.join(", ")}). Use an admin of one of them, or name ${organization} and its CA; nothing was sent`,
    });
  }
  try {
    await verifyCertificateChain(identity, { trustedMsps, ...(trust.now === undefined ? {} : { now: trust.now }) });
  } catch (error) {
    if (!(error instanceof IdentityError)) throw error;
    throw new LifecycleError({
      problem: "UNKNOWN_IDENTITY",
      organization,
      field: "identity.certificatePem",
      message:
        `${what}: the admin certificate of ${organization} is not one its CA issued (${error.message}). Use the ` +
        `certificate ${organization}'s CA issued to its admin; nothing was sent`,
      cause: error,
    });
  }
}
