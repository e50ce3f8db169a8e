/**
 * An organization declared for a channel — its MSP id, certificates, node OUs, policies and anchor peers or orderer
 * endpoints — checked and turned into the configuration group configtxgen would make from the same MSP folder
 * (NewApplicationOrgGroup / NewOrdererOrgGroup with msp.GetVerifyingMspConfig): an "MSP" value holding a
 * FabricMSPConfig (certificates as the PEM bytes given, SHA2/SHA256 crypto config, node OUs certified by the first root
 * certificate unless told otherwise, as cryptogen's config.yaml says), the policies, and "AnchorPeers" or "Endpoints",
 * everything with mod_policy Admins.
 */
import { codecs } from "../codec";
import type { ConfigGroup, ConfigPolicy, ConfigValue, FabricOuIdentifier } from "../config-messages";
import { parseCertificate } from "../identity";
import type { AnchorPeer } from "./channel-config";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { ADMINS, VALUE, emptyGroup } from "./config-tree";
import { policyFromText } from "./policy-text";
import type { PolicyText } from "./policy-text";
import { PolicySyntaxError } from "../../errors/ledger/policy-syntax-error";

/** A node OU: its name, and the CA certificate it must be certified by (default: the first root certificate). */
export interface NodeOuDeclaration {
  readonly organizationalUnitIdentifier: string;
  readonly certificate?: string;
}

export interface OrganizationDeclaration {
  readonly mspId: string;
  /** The group's key. @default mspId */
  readonly name?: string;
  /** PEM root CA certificates (at least one). */
  readonly rootCertificates: readonly string[];
  readonly intermediateCertificates?: readonly string[];
  /** PEM TLS root CA certificates: what other nodes trust this organization's TLS certificates with. */
  readonly tlsRootCertificates: readonly string[];
  readonly tlsIntermediateCertificates?: readonly string[];
  /** Explicit admin certificates; with node OUs (the default) admins are told by the admin OU instead. */
  readonly admins?: readonly string[];
  readonly revocationList?: readonly string[];
  /**
   * Node OUs: true (the default) for cryptogen's (client, peer, admin, orderer, each certified by the first root
   * certificate), false for none, or each one named.
   * @default true
   */
  readonly nodeOUs?:
    | boolean
    | {
        readonly client?: NodeOuDeclaration;
        readonly peer?: NodeOuDeclaration;
        readonly admin?: NodeOuDeclaration;
        readonly orderer?: NodeOuDeclaration;
      };
  /** The organization's policies. @default DEFAULT_ORGANIZATION_POLICIES (orderer organizations: no Endorsement) */
  readonly policies?: Readonly<Record<string, PolicyText>>;
  /** Application organizations: the peers other organizations gossip with. */
  readonly anchorPeers?: readonly AnchorPeer[];
  /** Orderer organizations: their orderers' "host:port" (required with channel capability V3_0). */
  readonly endpoints?: readonly string[];
}

/** The policies configtx.yaml's sample gives a peer organization, for an MSP id. */
export function defaultOrganizationPolicies(
  mspId: string,
  kind: "application" | "orderer",
): Record<string, PolicyText> {
  const signature = (rule: string): PolicyText => ({ type: "Signature", rule });
  if (kind === "orderer")
    return {
      Readers: signature(`OR('${mspId}.member')`),
      Writers: signature(`OR('${mspId}.member')`),
      Admins: signature(`OR('${mspId}.admin')`),
    };
  return {
    Readers: signature(`OR('${mspId}.admin', '${mspId}.peer', '${mspId}.client')`),
    Writers: signature(`OR('${mspId}.admin', '${mspId}.client')`),
    Admins: signature(`OR('${mspId}.admin')`),
    Endorsement: signature(`OR('${mspId}.peer')`),
  };
}

const MSP_ID = /^[A-Za-z0-9.-]+$/;
const NODE_OU_ROLES = ["client", "peer", "admin", "orderer"] as const;
const FABRIC_MSP = 0;
const encoder = new TextEncoder();

/** Checks one PEM certificate; throws ChannelConfigError MSP_CERTIFICATE naming the field. */
export function checkCertificate(pem: string, field: string, organization: string | undefined, ca: boolean): void {
  let certificate;
  try {
    certificate = parseCertificate(encoder.encode(pem), field);
  } catch (error) {
    throw new ChannelConfigError({
      problem: "MSP_CERTIFICATE",
      field,
      organization,
      message:
        `${organization === undefined ? "the" : `${organization}'s`} certificate does not parse as a PEM X.509 ` +
        "certificate (give the PEM text, -----BEGIN CERTIFICATE----- included, of the file the MSP folder holds)",
      cause: error,
    });
  }
  if (ca && !certificate.ca)
    throw new ChannelConfigError({
      problem: "MSP_CERTIFICATE",
      field,
      organization,
      message:
        `${certificate.subject.replace(/\n/g, ", ")} is not a CA certificate (no basicConstraints CA:TRUE), and a ` +
        "Fabric MSP refuses it as a root or intermediate: give the CA's certificate (cacerts/, tlscacerts/)",
    });
}

/**
 * Checks an organization's declaration: an MSP id, at least one root and one TLS root certificate, every certificate
 * parsing (CAs where they must be), policies that parse, anchor peers and endpoints well-formed. `field` is the
 * declaration's path for messages (`application.organizations[Org3MSP]`).
 */
export function checkOrganization(org: OrganizationDeclaration, field: string): void {
  const id = org.mspId;
  const fail =
    (problem: "MSP_CERTIFICATE" | "ANCHOR_PEER" | "ORDERER_ENDPOINT" | "POLICY" | "CONFIG") =>
    (at: string, message: string, cause?: unknown) =>
      new ChannelConfigError({ problem, field: `${field}.${at}`, organization: id, message, cause });
  if (!MSP_ID.test(id))
    throw fail("CONFIG")("mspId", `'${id}' is not an MSP id: letters, digits, '.' and '-' only (e.g. Org3MSP)`);
  if (org.rootCertificates.length === 0)
    throw fail("MSP_CERTIFICATE")("rootCertificates", `${id} needs at least one root CA certificate (its cacerts/)`);
  if (org.tlsRootCertificates.length === 0)
    throw fail("MSP_CERTIFICATE")(
      "tlsRootCertificates",
      `${id} needs at least one TLS root CA certificate (its tlscacerts/): other nodes trust its peers' TLS with it`,
    );
  const lists: [string, readonly string[] | undefined, boolean][] = [
    ["rootCertificates", org.rootCertificates, true],
    ["intermediateCertificates", org.intermediateCertificates, true],
    ["tlsRootCertificates", org.tlsRootCertificates, true],
    ["tlsIntermediateCertificates", org.tlsIntermediateCertificates, true],
    ["admins", org.admins, false],
  ];
  for (const [name, pems, ca] of lists)
    (pems ?? []).forEach((pem, i) => {
      checkCertificate(pem, `${field}.${name}[${String(i)}]`, id, ca);
    });
  const nodeOUs = typeof org.nodeOUs === "object" ? org.nodeOUs : {};
  for (const role of NODE_OU_ROLES) {
    const pem = nodeOUs[role]?.certificate;
    if (pem !== undefined) checkCertificate(pem, `${field}.nodeOUs.${role}.certificate`, id, true);
  }
  for (const [name, policy] of Object.entries(org.policies ?? {})) {
    try {
      policyFromText(policy, { field: `${field}.policies.${name}` });
    } catch (error) {
      if (!(error instanceof PolicySyntaxError)) throw error;
      throw fail("POLICY")(`policies.${name}`, error.failures[0]?.reason ?? error.message, error);
    }
  }
  checkAnchorPeers(org.anchorPeers ?? [], `${field}.anchorPeers`, id);
  (org.endpoints ?? []).forEach((endpoint, i) => {
    if (!/^[^\s:]+:\d{1,5}$/.test(endpoint))
      throw fail("ORDERER_ENDPOINT")(`endpoints[${String(i)}]`, `'${endpoint}' is not 'host:port'`);
  });
}

/** Throws ChannelConfigError ANCHOR_PEER for an anchor peer without a host or with a port outside 1-65535. */
export function checkAnchorPeers(peers: readonly AnchorPeer[], field: string, mspId: string): void {
  peers.forEach((peer, i) => {
    if (peer.host.trim() === "" || !Number.isInteger(peer.port) || peer.port < 1 || peer.port > 65535)
      throw new ChannelConfigError({
        problem: "ANCHOR_PEER",
        field: `${field}[${String(i)}]`,
        organization: mspId,
        message: `${mspId}'s anchor peer '${peer.host}:${String(peer.port)}' needs a host and a port from 1 to 65535`,
      });
  });
}

function ouOf(declared: NodeOuDeclaration | undefined, fallback: string): FabricOuIdentifier | undefined {
  if (declared === undefined) return undefined;
  return {
    certificate: encoder.encode(declared.certificate ?? fallback),
    organizationalUnitIdentifier: declared.organizationalUnitIdentifier,
  };
}

/** The "MSP" value's bytes for a declared organization (msp.MSPConfig of type FABRIC). */
export function mspValueOf(org: OrganizationDeclaration): Uint8Array {
  const firstRoot = org.rootCertificates[0] ?? "";
  const declared =
    org.nodeOUs === false
      ? undefined
      : org.nodeOUs === undefined || org.nodeOUs === true
        ? Object.fromEntries(NODE_OU_ROLES.map((r) => [r, { organizationalUnitIdentifier: r }]))
        : org.nodeOUs;
  const pems = (list: readonly string[] | undefined) => (list ?? []).map((p) => encoder.encode(p));
  const fabric = codecs.FabricMspConfig.encode({
    name: org.mspId,
    rootCerts: pems(org.rootCertificates),
    intermediateCerts: pems(org.intermediateCertificates),
    admins: pems(org.admins),
    revocationList: pems(org.revocationList),
    cryptoConfig: { signatureHashFamily: "SHA2", identityIdentifierHashFunction: "SHA256" },
    tlsRootCerts: pems(org.tlsRootCertificates),
    tlsIntermediateCerts: pems(org.tlsIntermediateCertificates),
    ...(declared === undefined
      ? {}
      : {
          fabricNodeOus: {
            enable: true,
            clientOuIdentifier: ouOf(declared.client, firstRoot),
            peerOuIdentifier: ouOf(declared.peer, firstRoot),
            adminOuIdentifier: ouOf(declared.admin, firstRoot),
            ordererOuIdentifier: ouOf(declared.orderer, firstRoot),
          },
        }),
  });
  return codecs.MspConfig.encode({ type: FABRIC_MSP, config: fabric });
}

function adminsValue(value: Uint8Array): ConfigValue {
  return { version: 0n, value, modPolicy: ADMINS };
}

/** The configuration group of a declared organization (versions 0; checkOrganization it first). */
export function organizationGroup(org: OrganizationDeclaration, kind: "application" | "orderer"): ConfigGroup {
  const policies = org.policies ?? defaultOrganizationPolicies(org.mspId, kind);
  const values: { key: string; value: ConfigValue }[] = [{ key: VALUE.MSP, value: adminsValue(mspValueOf(org)) }];
  if (kind === "application" && (org.anchorPeers ?? []).length > 0)
    values.push({
      key: VALUE.ANCHOR_PEERS,
      value: adminsValue(codecs.AnchorPeers.encode({ anchorPeers: org.anchorPeers ?? [] })),
    });
  if (kind === "orderer" && (org.endpoints ?? []).length > 0)
    values.push({
      key: VALUE.ENDPOINTS,
      value: adminsValue(codecs.OrdererAddresses.encode({ addresses: org.endpoints ?? [] })),
    });
  const configPolicies = Object.entries(policies).map(([key, text]) => ({
    key,
    value: { version: 0n, policy: policyFromText(text), modPolicy: ADMINS } satisfies ConfigPolicy,
  }));
  return { ...emptyGroup(), values, policies: configPolicies, modPolicy: ADMINS };
}
