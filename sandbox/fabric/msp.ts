/**
 * The channel's membership services: one organization (MSP) per id, each with a root CA, an endorsing peer and the
 * ability to enrol more identities. `deserialize` does what Fabric's MSP does with a SerializedIdentity
 * (DeserializeIdentity + Validate): a known MSP id, PEM id_bytes holding an X.509 certificate that chains to that
 * MSP's root CA (else it does not even deserialize), is within its validity period and carries exactly one NodeOU role
 * (client, peer, admin, orderer). The channel policies are role sets: Writers = client or admin, Readers = client,
 * admin or peer (the implicit-meta policies over each organization's, as Fabric's sample configtx.yaml defines them).
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import {
  createRootCa,
  issueCertificate,
  sandboxKeyTypeOf,
  type KeyedCertificate,
  type SandboxKeyType,
} from "./certificates";
import { signatureProblem } from "./signatures";
import { encode, tryDecode } from "./wire";
import { X509Certificate } from "./x509";

export type NodeRole = "client" | "peer" | "admin" | "orderer";
/** /Channel/Application/Writers: peer/Propose (proposals to an application chaincode), the orderer's Broadcast. */
export const WRITER_ROLES: readonly NodeRole[] = ["client", "admin"];
/** /Channel/Application/Readers: the gateway's CommitStatus and ChaincodeEvents, qscc. */
export const READER_ROLES: readonly NodeRole[] = ["client", "admin", "peer"];

/** What Fabric's policy check says when a signed request's identity does not satisfy the channel policy. */
export function policyDenied(channel: string, policy: "Writers" | "Readers"): string {
  return `Failed evaluating policy on signed data during check policy on channel [${channel}] with policy [/Channel/Application/${policy}]: [implicit policy evaluation failed - 0 sub-policies were satisfied, but this policy requires 1 of the '${policy}' sub-policies to be satisfied]`;
}
const NODE_ROLES: readonly NodeRole[] = ["client", "peer", "admin", "orderer"];

/** A member of an MSP with its key: the sandbox's peers, and the identities it enrols for clients. */
export interface EnrolledIdentity {
  readonly mspId: string;
  readonly role: NodeRole;
  readonly commonName: string;
  readonly certificate: KeyedCertificate;
  /** The serialized msp.SerializedIdentity (what goes into SignatureHeader.creator or Endorsement.endorser). */
  readonly serialized: Buffer;
}

export interface Organization {
  readonly mspId: string;
  readonly ca: KeyedCertificate;
  /** The organization's endorsing peer. */
  readonly peer: EnrolledIdentity;
  /** The peer's (virtual) endpoint address, reported in ErrorDetail.address. */
  readonly peerAddress: string;
}

/** A validated member identity. */
export interface MemberIdentity {
  readonly mspId: string;
  readonly role: NodeRole;
  readonly commonName: string;
  readonly publicKey: KeyObject;
}

export type DeserializeResult =
  | { readonly ok: true; readonly identity: MemberIdentity }
  | {
      readonly ok: false;
      readonly problem: "malformed" | "unknown-msp" | "invalid";
      readonly mspId: string;
      readonly detail: string;
    };

export function serializeIdentity(mspId: string, certificatePem: string): Buffer {
  return encode("msp.SerializedIdentity", { mspid: mspId, idBytes: Buffer.from(certificatePem, "utf8") });
}

/** Enrols a new identity with `role` in an organization, signed by its CA. */
export function enrol(ca: KeyedCertificate, mspId: string, role: NodeRole, commonName: string): EnrolledIdentity {
  const certificate = issueCertificate(ca, { subject: { commonName, organization: mspId, organizationalUnit: role } });
  return { mspId, role, commonName, certificate, serialized: serializeIdentity(mspId, certificate.certificatePem) };
}

/** An organization with a root CA and a peer whose keys are of `keyType` (default ECDSA P-256). */
export function createOrganization(mspId: string, keyType: SandboxKeyType = "ecdsa-p256"): Organization {
  const domain = mspId.toLowerCase();
  const ca = createRootCa({ commonName: `ca.${domain}`, organization: mspId }, new Date(), keyType);
  const peer = enrol(ca, mspId, "peer", `peer0.${domain}`);
  return { mspId, ca, peer, peerAddress: `peer0.${domain}:7051` };
}

interface CachedIdentity {
  readonly result: DeserializeResult;
  readonly notBefore: Date;
  readonly notAfter: Date;
}

const PEM_CERTIFICATE = /^\s*-----BEGIN CERTIFICATE-----\r?\n[A-Za-z0-9+/=\r\n]+-----END CERTIFICATE-----\s*$/;

export class MembershipServices {
  private readonly organizations: ReadonlyMap<string, Organization>;
  private readonly roots = new Map<string, X509Certificate>();
  private readonly cache = new Map<string, Promise<CachedIdentity>>();

  constructor(
    organizations: readonly Organization[],
    private readonly now: () => Date = () => new Date(),
    /** The channel capability V3_0 (MSPv3_0): only then are Ed25519 identities accepted, as in Fabric 3. */
    private readonly v3: boolean = false,
  ) {
    this.organizations = new Map(organizations.map((o) => [o.mspId, o]));
    for (const o of organizations) this.roots.set(o.mspId, new X509Certificate(o.ca.certificatePem));
  }

  organization(mspId: string): Organization | undefined {
    return this.organizations.get(mspId);
  }

  get mspIds(): readonly string[] {
    return [...this.organizations.keys()];
  }

  /** Deserializes and validates a serialized msp.SerializedIdentity. */
  async deserialize(serialized: Uint8Array): Promise<DeserializeResult> {
    const key = Buffer.from(serialized).toString("base64");
    let cached = this.cache.get(key);
    if (cached === undefined) {
      cached = this.parse(serialized);
      this.cache.set(key, cached);
    }
    const entry = await cached;
    if (!entry.result.ok) return entry.result;
    const now = this.now();
    if (now < entry.notBefore || now > entry.notAfter) {
      return {
        ok: false,
        problem: "invalid",
        mspId: entry.result.identity.mspId,
        detail: "x509: certificate has expired or is not yet valid",
      };
    }
    return entry.result;
  }

  /**
   * Deserializes `serialized` and checks `signature` over `message`; the identity, or why not (an invalid identity
   * and a bad signature are both reported, with the MSP id when known).
   */
  async verify(serialized: Uint8Array, message: Uint8Array, signature: Uint8Array): Promise<DeserializeResult> {
    const result = await this.deserialize(serialized);
    if (!result.ok) return result;
    const problem = signatureProblem(result.identity.publicKey, message, signature);
    return problem === undefined
      ? result
      : {
          ok: false,
          problem: "invalid",
          mspId: result.identity.mspId,
          detail: `signature verification failed: ${problem}`,
        };
  }

  private async parse(serialized: Uint8Array): Promise<CachedIdentity> {
    const epoch = new Date(0);
    const fail = (problem: "malformed" | "unknown-msp" | "invalid", mspId: string, detail: string): CachedIdentity => ({
      result: { ok: false, problem, mspId, detail },
      notBefore: epoch,
      notAfter: epoch,
    });
    const sid = tryDecode("msp.SerializedIdentity", serialized);
    if (sid === undefined) return fail("malformed", "", "could not deserialize a SerializedIdentity");
    const root = this.roots.get(sid.mspid);
    if (root === undefined) return fail("unknown-msp", sid.mspid, `MSP ${sid.mspid} is unknown`);
    const pem = sid.idBytes.toString("utf8");
    if (!PEM_CERTIFICATE.test(pem)) return fail("malformed", sid.mspid, "could not decode pem bytes");
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(pem);
    } catch {
      return fail("malformed", sid.mspid, "failed to parse certificate");
    }
    let chained = false;
    try {
      chained =
        certificate.issuer === root.subject && (await certificate.verify({ publicKey: root, signatureOnly: true }));
    } catch {
      chained = false;
    }
    // Fabric's MSP computes the certificate's validation chain while deserializing it (bccspmsp sanitizeCert), so a
    // certificate another CA issued is a malformed creator ("creator org unknown"), not an invalid member.
    if (!chained) {
      return fail("malformed", sid.mspid, "x509: certificate signed by unknown authority");
    }
    const roles = certificate.subjectName
      .getField("OU")
      .filter((ou): ou is NodeRole => NODE_ROLES.includes(ou as NodeRole));
    const role = roles[0];
    if (role === undefined || roles.length !== 1) {
      return fail("invalid", sid.mspid, "the identity must be a client, a peer, an orderer or an admin identity");
    }
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey({ key: Buffer.from(certificate.publicKey.rawData), format: "der", type: "spki" });
    } catch {
      return fail("invalid", sid.mspid, "unsupported public key");
    }
    const keyType = sandboxKeyTypeOf(publicKey);
    if (keyType === undefined) {
      return fail("malformed", sid.mspid, "Certificate's public key type not recognized. Supported keys: [ECDSA]");
    }
    // Fabric's MSP before V3_0 supports ECDSA keys only (msp/mspimpl.go setupV3 adds Ed25519).
    if (keyType === "ed25519" && !this.v3) return fail("invalid", sid.mspid, "Ed25519 is not supported");
    const commonName = certificate.subjectName.getField("CN")[0] ?? "";
    return {
      result: { ok: true, identity: { mspId: sid.mspid, role, commonName, publicKey } },
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
    };
  }
}
