/**
 * The signers of a configuration update as the channel's MSPs see them: each identity's MSP found among the channel's
 * organizations (application and orderer), its certificate chained to that MSP's roots (through its intermediates),
 * its node OUs read from the subject; and whether it satisfies a policy principal, as Fabric's X.509 MSP decides
 * (msp/mspimpl.go, satisfiesPrincipalInternalV142 and before): MEMBER — valid; ADMIN — one of the MSP's explicit
 * admins, or valid with the admin node OU; CLIENT, PEER, ORDERER — valid with that node OU; IDENTITY — the same
 * certificate; ORGANIZATION_UNIT — valid with that OU. Revocation lists are not consulted.
 */
import * as crypto from "node:crypto";
import { verifyCertificateChain } from "../cert-chain";
import { codecs } from "../codec";
import type { Config, ConfigGroup, FabricMspConfig } from "../config-messages";
import type { Identity } from "../identity";
import type { MspPrincipal } from "../messages";
import { GROUP, VALUE, decodeValue, subGroup } from "./config-tree";
import { MSP_ROLES } from "../lifecycle/signature-policy";

/** A signer as the channel sees it. */
export interface ChannelSigner {
  readonly identity: Identity;
  /** The DER of its certificate (for admin and identity principals). */
  readonly der: Buffer;
  readonly organizationalUnits: readonly string[];
  /** Undefined when valid for its MSP; otherwise why the channel would not accept it. */
  readonly invalid: string | undefined;
}

const PRINCIPAL = { ROLE: 0, ORGANIZATION_UNIT: 1, IDENTITY: 2 } as const;

/** Every MSP of the channel (application and orderer organizations) by MSP id. */
export function channelMsps(config: Config): Map<string, FabricMspConfig> {
  const msps = new Map<string, FabricMspConfig>();
  const root = config.channelGroup;
  for (const section of [GROUP.APPLICATION, GROUP.ORDERER]) {
    const group = subGroup(root, section);
    for (const { key, value } of group?.groups ?? []) addMsp(msps, value, `/Channel/${section}/${key}`);
  }
  return msps;
}

function addMsp(msps: Map<string, FabricMspConfig>, group: ConfigGroup | undefined, path: string): void {
  const msp = decodeValue(group, VALUE.MSP, codecs.MspConfig, path);
  if (msp?.type !== 0) return;
  const fabric = codecs.FabricMspConfig.decode(msp.config, { path: `${path}/MSP` });
  msps.set(fabric.name, fabric);
}

function unitsOf(certificate: crypto.X509Certificate): string[] {
  return certificate.subject
    .split("\n")
    .filter((line) => line.startsWith("OU="))
    .flatMap((line) => line.slice(3).split("+"));
}

const NODE_OU_KEYS = ["clientOuIdentifier", "peerOuIdentifier", "adminOuIdentifier", "ordererOuIdentifier"] as const;

/** The signers as the channel's MSPs see them (certificate chains checked at `now`). */
export async function channelSigners(
  config: Config,
  identities: readonly Identity[],
  now: () => Date = () => new Date(),
): Promise<ChannelSigner[]> {
  const msps = channelMsps(config);
  return Promise.all(
    identities.map(async (identity): Promise<ChannelSigner> => {
      const certificate = new crypto.X509Certificate(Buffer.from(identity.credentials));
      const base = { identity, der: certificate.raw, organizationalUnits: unitsOf(certificate) };
      const msp = msps.get(identity.mspId);
      if (msp === undefined)
        return {
          ...base,
          invalid: `${identity.mspId} is not an organization of the channel (it has ${[...msps.keys()].join(", ")})`,
        };
      try {
        await verifyCertificateChain(identity, {
          trustedMsps: [
            { mspId: msp.name, rootCertificates: msp.rootCerts, intermediateCertificates: msp.intermediateCerts },
          ],
          now,
        });
      } catch (error) {
        return { ...base, invalid: error instanceof Error ? error.message : String(error) };
      }
      const nodeOus = msp.fabricNodeOus;
      if (nodeOus?.enable === true) {
        const roles = NODE_OU_KEYS.map((k) => nodeOus[k]?.organizationalUnitIdentifier).filter(
          (ou) => ou !== undefined,
        );
        if (!base.organizationalUnits.some((ou) => roles.includes(ou)))
          return {
            ...base,
            invalid: `its certificate carries none of ${identity.mspId}'s node OUs (${roles.join(", ")}), which its MSP requires`,
          };
      }
      return { ...base, invalid: undefined };
    }),
  );
}

function hasNodeOu(msp: FabricMspConfig, signer: ChannelSigner, role: string): boolean {
  const key = `${role}OuIdentifier` as (typeof NODE_OU_KEYS)[number];
  const ou = msp.fabricNodeOus?.enable === true ? msp.fabricNodeOus[key] : undefined;
  return ou !== undefined && signer.organizationalUnits.includes(ou.organizationalUnitIdentifier);
}

/** Whether `signer` satisfies `principal`, as the channel's MSP of the principal decides. */
export function satisfiesPrincipal(
  signer: ChannelSigner,
  principal: MspPrincipal,
  msps: ReadonlyMap<string, FabricMspConfig>,
): boolean {
  if (principal.principalClassification === PRINCIPAL.IDENTITY) {
    const named = codecs.SerializedIdentity.decode(principal.principal);
    if (named.mspid !== signer.identity.mspId || signer.invalid !== undefined) return false;
    return new crypto.X509Certificate(Buffer.from(named.idBytes)).raw.equals(signer.der);
  }
  if (principal.principalClassification === PRINCIPAL.ORGANIZATION_UNIT) {
    const unit = codecs.OrganizationUnit.decode(principal.principal);
    return (
      unit.mspIdentifier === signer.identity.mspId &&
      signer.invalid === undefined &&
      signer.organizationalUnits.includes(unit.organizationalUnitIdentifier)
    );
  }
  if (principal.principalClassification !== PRINCIPAL.ROLE) return false;
  const role = codecs.MspRole.decode(principal.principal);
  const msp = msps.get(role.mspIdentifier);
  if (msp === undefined || role.mspIdentifier !== signer.identity.mspId) return false;
  const name = Object.entries(MSP_ROLES).find(([, value]) => value === role.role)?.[0];
  if (name === "admin") {
    const listed = msp.admins.some((pem) => {
      try {
        return new crypto.X509Certificate(Buffer.from(pem)).raw.equals(signer.der);
      } catch {
        return false;
      }
    });
    if (listed) return true;
  }
  if (signer.invalid !== undefined) return false;
  if (name === "member") return true;
  return name !== undefined && hasNodeOu(msp, signer, name);
}
