/**
 * ledger.ChannelOrganization: an application organization's membership of a running channel — its MSP (certificates,
 * node OUs) and its policies, as configtxgen would write them from its MSP folder — added when the channel does not
 * have it (the Application group's Admins approve: by default a MAJORITY of its organizations' admins), updated when
 * it differs (the organization's own Admins approve its values). Its anchor peers are left as they are
 * (ChannelAnchorPeers owns them). Certificates that do not parse, or a root that is no CA, are refused naming the field
 * before anything is read.
 */
import type { FieldFailure } from "../../../errors";
import type { OrganizationConfig } from "../../../ledger/channel/channel-config";
import { defaultOrganizationPolicies } from "../../../ledger/channel/organization-declaration";
import { policyFromText, policyText } from "../../../ledger/channel/policy-text";
import type { PolicyText } from "../../../ledger/channel/policy-text";
import { PolicySyntaxError } from "../../../errors/ledger/policy-syntax-error";
import { hasUnknown, isRecord } from "../ledger-values";
import { channelPartProvider } from "./channel-part";
import type { ChannelPartSpec } from "./channel-part-session";
import type { ChannelMsp, ChannelOrganizationShape, ChannelPolicy } from "./channel-shapes";

const LISTS = [
  "rootCertificates",
  "intermediateCertificates",
  "tlsRootCertificates",
  "tlsIntermediateCertificates",
  "admins",
  "revocationList",
] as const;
const KNOWN = ["mspId", ...LISTS, "nodeOUs", "policies"];

function organizationFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const org = n["organization"];
  if (hasUnknown(org)) return [];
  if (!isRecord(org))
    return [{ property: "organization", reason: "is required: { mspId, rootCertificates, tlsRootCertificates, ... }" }];
  const failures: FieldFailure[] = [];
  for (const key of Object.keys(org))
    if (!KNOWN.includes(key) && org[key] !== undefined)
      failures.push({ property: `organization.${key}`, reason: `is not an MSP setting; use ${KNOWN.join(", ")}` });
  if (!hasUnknown(org["mspId"]) && (typeof org["mspId"] !== "string" || !/^[A-Za-z0-9.-]+$/.test(org["mspId"])))
    failures.push({
      property: "organization.mspId",
      reason: "must be an MSP id: letters, digits, '.' and '-' (e.g. Org3MSP)",
    });
  for (const key of LISTS) {
    const list = org[key];
    if (list === undefined || hasUnknown(list)) continue;
    if (!Array.isArray(list) || list.some((p) => typeof p !== "string"))
      failures.push({ property: `organization.${key}`, reason: "must be a list of PEM texts" });
  }
  if (org["nodeOUs"] !== undefined && !hasUnknown(org["nodeOUs"]) && typeof org["nodeOUs"] !== "boolean")
    failures.push({ property: "organization.nodeOUs", reason: "must be true (cryptogen's node OUs) or false" });
  const policies = org["policies"];
  if (policies !== undefined && !hasUnknown(policies)) {
    if (!isRecord(policies))
      failures.push({ property: "organization.policies", reason: "must be a map of name to { type, rule }" });
    else
      for (const [name, p] of Object.entries(policies))
        if (
          !isRecord(p) ||
          (p["type"] !== "Signature" && p["type"] !== "ImplicitMeta") ||
          typeof p["rule"] !== "string"
        )
          failures.push({
            property: `organization.policies.${name}`,
            reason:
              "must be { type: 'Signature' | 'ImplicitMeta', rule }, e.g. { type: 'Signature', rule: \"OR('Org3MSP.admin')\" }",
          });
  }
  return failures;
}

/** A policy as the channel prints it back (so that the same rule written differently compares equal). */
function normalized(p: PolicyText): PolicyText {
  try {
    const text = policyText(policyFromText(p));
    return text.type === "Unknown" ? p : { type: text.type, rule: text.rule };
  } catch (error) {
    if (error instanceof PolicySyntaxError) return p;
    throw error;
  }
}

function sortedPolicies(policies: Readonly<Record<string, PolicyText>>): Record<string, PolicyText> {
  return Object.fromEntries(
    Object.keys(policies)
      .sort()
      .map((k) => [k, normalized(policies[k] as PolicyText)]),
  );
}

/** The MSP as declared, every default written out. */
function declaredMsp(m: ChannelMsp): Record<string, unknown> {
  return {
    "organization.mspId": m.mspId,
    ...Object.fromEntries(LISTS.map((k) => [`organization.${k}`, [...(m[k] ?? [])]])),
    "organization.nodeOUs": m.nodeOUs ?? true,
    "organization.policies": sortedPolicies(m.policies ?? defaultOrganizationPolicies(m.mspId, "application")),
  };
}

function liveMsp(org: OrganizationConfig | undefined): Record<string, unknown> {
  if (org === undefined)
    return Object.fromEntries(["mspId", ...LISTS, "nodeOUs", "policies"].map((k) => [`organization.${k}`, null]));
  return {
    "organization.mspId": org.mspId,
    ...Object.fromEntries(LISTS.map((k) => [`organization.${k}`, [...org[k]]])),
    "organization.nodeOUs": org.nodeOUs?.enable ?? false,
    "organization.policies": Object.fromEntries(
      Object.keys(org.policies)
        .sort()
        .map((k) => [k, { type: org.policies[k]?.type ?? "Unknown", rule: org.policies[k]?.rule ?? "" }]),
    ),
  };
}

const find = (config: Parameters<ChannelPartSpec<ChannelOrganizationShape>["live"]>[0], mspId: string) =>
  config.application?.organizations.find((o) => o.mspId === mspId);

export const ORGANIZATION: ChannelPartSpec<ChannelOrganizationShape> = {
  kind: "ChannelOrganization",
  keys: ["organization"],
  replaceOn: ["channel"],
  failures: organizationFailures,
  change: (i) => ({
    application: {
      organizations: {
        [i.organization.mspId]: { ...i.organization, nodeOUs: i.organization.nodeOUs ?? true },
      },
    },
  }),
  fieldOf: (field, i) => field.replace(`application.organizations[${i.organization.mspId}]`, "organization"),
  live: (config, i) => liveMsp(find(config, i.organization.mspId)),
  declared: (i) => declaredMsp(i.organization),
  refreshed(i, config) {
    const org = find(config, i.organization.mspId);
    if (org === undefined) return undefined;
    return {
      ...i,
      organization: {
        mspId: org.mspId,
        ...Object.fromEntries(LISTS.map((k) => [k, [...org[k]]])),
        nodeOUs: org.nodeOUs?.enable ?? false,
        policies: Object.fromEntries(
          Object.entries(org.policies).map(([k, p]) => [k, { type: p.type as ChannelPolicy["type"], rule: p.rule }]),
        ),
      } as ChannelMsp,
    };
  },
};

export const channelOrganizationProvider = channelPartProvider(ORGANIZATION);
