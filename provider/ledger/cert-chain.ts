/**
 * Chain verification of an identity's certificate to the trusted root CAs of its MSP (with @peculiar/x509), the
 * check a Fabric MSP makes before it accepts an endorser: the certificate must chain to one of the MSP's roots
 * (optionally through its intermediates), every certificate in the chain must be valid now, issuers must be CAs,
 * and the identity itself must not be a CA certificate.
 */
import { x509 } from "./x509-lib";
import type { Identity } from "./identity";
import { IdentityError } from "../errors/ledger/identity-error";

/** The trust anchors of one MSP. */
export interface TrustedMsp {
  /** The MSP id, or "*" for roots trusted for any MSP (for example the CLI's --trusted-ca without an MSP id). */
  readonly mspId: string;
  /** PEM root CA certificates (text or bytes). */
  readonly rootCertificates: readonly (string | Uint8Array)[];
  /** PEM intermediate CA certificates. */
  readonly intermediateCertificates?: readonly (string | Uint8Array)[];
}

export interface CertificateTrustOptions {
  readonly trustedMsps: readonly TrustedMsp[];
  /**
   * The clock for validity periods.
   * @default () => new Date()
   */
  readonly now?: () => Date;
}

export interface VerifiedChain {
  readonly mspId: string;
  /** Subjects from the identity's certificate up to the trusted root. */
  readonly subjects: readonly string[];
}

function pemText(value: string | Uint8Array): string {
  return typeof value === "string" ? value : Buffer.from(value).toString("utf8");
}

function parse(value: string | Uint8Array, subject: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(pemText(value).trim());
  } catch (error) {
    throw new IdentityError({ subject, reason: "not a parsable PEM X.509 certificate", cause: error });
  }
}

function isCa(certificate: x509.X509Certificate): boolean {
  const ext = certificate.getExtension(x509.BasicConstraintsExtension);
  return ext?.ca === true;
}

function sameCertificate(a: x509.X509Certificate, b: x509.X509Certificate): boolean {
  return Buffer.from(a.rawData).equals(Buffer.from(b.rawData));
}

interface CachedChain {
  readonly subjects: readonly string[];
  /** The intersection of the chain's validity periods. */
  readonly notBefore: Date;
  readonly notAfter: Date;
}

/**
 * Successful verifications per set of trust anchors, keyed by the anchors' content, so endorsers are not re-verified.
 * Keyed by content, not by the list object: a provider process builds a new list for every create from the same
 * PEMs, and a cache per list object missed every time (100 LedgerTransactions in one `pulumi up` verified each
 * endorser's chain with @peculiar/x509 once per transaction, about a tenth of the provider's CPU: docs/benchmarks.md,
 * "The ledger through the engine"). Different anchors never share an entry.
 */
const chainCache = new Map<string, Map<string, CachedChain>>();
const MAX_CACHED_CHAINS = 1000;
const MAX_CACHED_ANCHOR_SETS = 16;

/** The content of a trust-anchor list, as a cache key: MSP ids with their root and intermediate PEMs, in order. */
function anchorsKey(trustedMsps: readonly TrustedMsp[]): string {
  return JSON.stringify(
    trustedMsps.map((t) => [t.mspId, t.rootCertificates.map(pemText), (t.intermediateCertificates ?? []).map(pemText)]),
  );
}

/**
 * Verifies that `identity.credentials` chains to a trusted root of `identity.mspId`. Resolves with the chain's
 * subjects; rejects with IdentityError naming the reason. Successes are cached per `trustedMsps` array (the
 * validity period is still checked against `now` on every call).
 */
export async function verifyCertificateChain(
  identity: Identity,
  options: CertificateTrustOptions,
): Promise<VerifiedChain> {
  const now = (options.now ?? (() => new Date()))();
  const key = `${identity.mspId}\n${pemText(identity.credentials)}`;
  const anchors = anchorsKey(options.trustedMsps);
  let cache = chainCache.get(anchors);
  const hit = cache?.get(key);
  if (hit !== undefined && now >= hit.notBefore && now <= hit.notAfter)
    return { mspId: identity.mspId, subjects: hit.subjects };
  const { verified, notBefore, notAfter } = await verifyUncached(identity, options, now);
  if (cache === undefined) {
    if (chainCache.size >= MAX_CACHED_ANCHOR_SETS) chainCache.clear();
    cache = new Map();
    chainCache.set(anchors, cache);
  }
  if (cache.size >= MAX_CACHED_CHAINS) cache.clear();
  cache.set(key, { subjects: verified.subjects, notBefore, notAfter });
  return verified;
}

async function verifyUncached(
  identity: Identity,
  options: CertificateTrustOptions,
  now: Date,
): Promise<{ verified: VerifiedChain; notBefore: Date; notAfter: Date }> {
  const subject = `certificate of ${identity.mspId === "" ? "(no MSP id)" : identity.mspId}`;
  const msps = options.trustedMsps.filter((t) => t.mspId === identity.mspId || t.mspId === "*");
  if (msps.length === 0) {
    const known = options.trustedMsps.map((t) => t.mspId).join(", ");
    throw new IdentityError({
      subject,
      reason: `MSP '${identity.mspId}' is not trusted (trusted: ${known === "" ? "none" : known})`,
    });
  }
  const msp = { mspId: identity.mspId };
  const leaf = parse(identity.credentials, subject);
  const roots = msps.flatMap((t) => t.rootCertificates.map((r, i) => parse(r, `root CA ${i} of ${t.mspId}`)));
  const intermediates = msps.flatMap((t) =>
    (t.intermediateCertificates ?? []).map((r, i) => parse(r, `intermediate CA ${i} of ${t.mspId}`)),
  );
  if (isCa(leaf)) throw new IdentityError({ subject, reason: "a CA certificate cannot be used as an identity" });
  let chain: x509.X509Certificate[];
  try {
    chain = Array.from(await new x509.X509ChainBuilder({ certificates: [...intermediates, ...roots] }).build(leaf));
  } catch (error) {
    throw new IdentityError({ subject, reason: "the certificate chain cannot be built", cause: error });
  }
  const top = chain[chain.length - 1];
  if (chain.length < 2 || top === undefined || !roots.some((r) => sameCertificate(r, top))) {
    throw new IdentityError({
      subject,
      reason: `does not chain to a trusted root CA of ${msp.mspId} (issuer: ${leaf.issuer})`,
    });
  }
  for (const [i, cert] of chain.entries()) {
    if (now < cert.notBefore || now > cert.notAfter) {
      throw new IdentityError({
        subject,
        reason: `${i === 0 ? "the certificate" : `CA '${cert.subject}'`} is not valid at ${now.toISOString()} (valid ${cert.notBefore.toISOString()} to ${cert.notAfter.toISOString()})`,
      });
    }
    if (i > 0 && !isCa(cert))
      throw new IdentityError({ subject, reason: `issuer '${cert.subject}' is not a CA certificate` });
  }
  return {
    verified: { mspId: msp.mspId, subjects: chain.map((c) => c.subject) },
    notBefore: new Date(Math.max(...chain.map((c) => c.notBefore.getTime()))),
    notAfter: new Date(Math.min(...chain.map((c) => c.notAfter.getTime()))),
  };
}
