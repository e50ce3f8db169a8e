/**
 * The endpoint table: the one place an endpoint is described. URL building, validation, scopes, retry safety, error
 * hints and the typed `client.call` all read this table; no endpoint is hand-coded anywhere else.
 */
import type {
  CheckResult,
  DisplayVideoApiVersion,
  EndpointDefinition,
  EndpointId,
  NormalizedParams,
  ParamSpec,
} from "./endpoint-types";
import { SCOPES, WORKSPACE_EVENTS_GET_SCOPES } from "./scopes";
import {
  checkComputeOperationName,
  checkCrc32c,
  checkCryptoKeyVersionName,
  checkDeploymentManagerProject,
  checkDeploymentName,
  checkDisplayVideoApiVersion,
  checkExactlyOneOwner,
  checkFirewallPolicy,
  checkIamOperationName,
  checkInt64,
  checkDigestOrData,
  checkKmsData,
  checkKmsDigest,
  checkParentId,
  checkRequestId,
  checkRequestedPolicyVersion,
  checkSubscriptionName,
  checkWorkforcePoolResource,
  showValue,
} from "./validation";

function param(
  name: string,
  location: ParamSpec["location"],
  required: boolean,
  expected: string,
  check: (value: unknown) => CheckResult,
): ParamSpec {
  return { name, location, required, expected, check };
}

/** GetIamPolicyRequest.options: `{ requestedPolicyVersion?: 0 | 1 | 3 }`. */
function checkPolicyOptions(value: unknown): CheckResult {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { reason: "must be an object: { requestedPolicyVersion?: 0 | 1 | 3 }" };
  }
  const options = value as Readonly<Record<string, unknown>>;
  const unknown = Object.keys(options).filter((k) => k !== "requestedPolicyVersion" && options[k] !== undefined);
  if (unknown.length > 0) {
    return { reason: `has unknown field ${showValue(unknown[0])}; GetPolicyOptions has only requestedPolicyVersion` };
  }
  const version = options["requestedPolicyVersion"];
  if (version === undefined) return { value: {} };
  const checked = checkRequestedPolicyVersion(version);
  if ("reason" in checked) return { reason: checked.reason, property: "options.requestedPolicyVersion" };
  return { value: { requestedPolicyVersion: checked.value } };
}

const FIREWALL_POLICY_EXPECTED = "a numeric firewall policy id, e.g. '123456789012'";
const PARENT_EXPECTED = "'folders/<digits>' or 'organizations/<digits>'";
const INT64_EXPECTED = "an int64 decimal string";
const COMPUTE_READ_SCOPES = [SCOPES.computeReadonly, SCOPES.compute, SCOPES.cloudPlatform];
const IAM_SCOPES = [SCOPES.cloudPlatform, SCOPES.iam];
const API_VERSION = param("apiVersion", "path", false, "v1, v2, v3 or v4", checkDisplayVideoApiVersion);

function ownerOf(params: NormalizedParams): string {
  const partner = params["partnerId"];
  return typeof partner === "string" ? `partner ${partner}` : `advertiser ${String(params["advertiserId"])}`;
}

const CRYPTO_KEY_VERSION_EXPECTED =
  "'projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>/cryptoKeyVersions/<number>'";
const KMS_SCOPES = [SCOPES.cloudkms, SCOPES.cloudPlatform];

const inventorySourceGroupParams: readonly ParamSpec[] = [
  param("inventorySourceGroupId", "path", true, INT64_EXPECTED, checkInt64),
  param("partnerId", "query", false, INT64_EXPECTED, checkInt64),
  param("advertiserId", "query", false, INT64_EXPECTED, checkInt64),
  API_VERSION,
];

const definitions: readonly EndpointDefinition[] = [
  {
    id: "iam.workforcePools.getIamPolicy",
    service: "iam",
    method: "POST",
    pathTemplate: "v1/{+resource}:getIamPolicy",
    params: [
      param("resource", "path", true, "'locations/<location>/workforcePools/<pool>'", checkWorkforcePoolResource),
      param("options", "body", false, "{ requestedPolicyVersion?: 0 | 1 | 3 }", checkPolicyOptions),
    ],
    crossChecks: [],
    body: "optionalObject",
    responseType: "Policy",
    acceptedScopes: IAM_SCOPES,
    // The iam scope is legacy (no current discovery document declares it): accepted, never requested.
    requestedScopes: [SCOPES.cloudPlatform],
    // A read that happens to use POST: repeating it has no effect, so it is retried like a GET.
    idempotency: "idempotent",
    describe: (p) => `workforce pool ${String(p["resource"])}`,
  },
  {
    id: "iam.operations.get",
    service: "iam",
    method: "GET",
    pathTemplate: "v3beta/{+name}",
    params: [
      param(
        "name",
        "path",
        true,
        "'folders/<folder>/locations/<location>/operations/<operation>'",
        checkIamOperationName,
      ),
    ],
    crossChecks: [],
    body: "empty",
    responseType: "LongRunningOperation",
    acceptedScopes: IAM_SCOPES,
    requestedScopes: [SCOPES.cloudPlatform],
    idempotency: "idempotent",
    describe: (p) => `IAM operation ${String(p["name"])}`,
  },
  {
    id: "compute.firewallPolicies.move",
    service: "compute",
    method: "POST",
    pathTemplate: "compute/v1/locations/global/firewallPolicies/{firewallPolicy}/move",
    params: [
      param("firewallPolicy", "path", true, FIREWALL_POLICY_EXPECTED, checkFirewallPolicy),
      param("parentId", "query", true, PARENT_EXPECTED, checkParentId),
      param("requestId", "query", true, "a UUID, e.g. from crypto.randomUUID()", checkRequestId),
    ],
    crossChecks: [],
    body: "empty",
    responseType: "ComputeOperation",
    acceptedScopes: [SCOPES.compute, SCOPES.cloudPlatform],
    requestedScopes: [SCOPES.compute],
    extraPermission: "compute.firewallPolicies.move",
    idempotency: "requestId",
    describe: (p) => `firewall policy ${String(p["firewallPolicy"])}`,
  },
  {
    id: "compute.firewallPolicies.get",
    service: "compute",
    method: "GET",
    pathTemplate: "compute/v1/locations/global/firewallPolicies/{firewallPolicy}",
    params: [param("firewallPolicy", "path", true, FIREWALL_POLICY_EXPECTED, checkFirewallPolicy)],
    crossChecks: [],
    body: "empty",
    responseType: "FirewallPolicy",
    acceptedScopes: COMPUTE_READ_SCOPES,
    requestedScopes: [SCOPES.computeReadonly],
    idempotency: "idempotent",
    describe: (p) => `firewall policy ${String(p["firewallPolicy"])}`,
  },
  {
    id: "compute.globalOrganizationOperations.get",
    service: "compute",
    method: "GET",
    pathTemplate: "compute/v1/locations/global/operations/{operation}",
    params: [
      param("operation", "path", true, "an operation name", checkComputeOperationName),
      param("parentId", "query", false, PARENT_EXPECTED, checkParentId),
    ],
    crossChecks: [],
    body: "empty",
    responseType: "ComputeOperation",
    acceptedScopes: COMPUTE_READ_SCOPES,
    requestedScopes: [SCOPES.computeReadonly],
    idempotency: "idempotent",
    describe: (p) => `compute operation ${String(p["operation"])}`,
  },
  {
    id: "deploymentmanager.deployments.get",
    service: "deploymentManager",
    method: "GET",
    pathTemplate: "deploymentmanager/v2beta/projects/{project}/global/deployments/{deployment}",
    params: [
      param("project", "path", true, "a project id", checkDeploymentManagerProject),
      param("deployment", "path", true, "a deployment name", checkDeploymentName),
    ],
    crossChecks: [],
    body: "empty",
    responseType: "Deployment",
    acceptedScopes: [
      SCOPES.cloudPlatformReadOnly,
      SCOPES.ndevCloudmanReadonly,
      SCOPES.cloudPlatform,
      SCOPES.ndevCloudman,
    ],
    requestedScopes: [SCOPES.ndevCloudmanReadonly],
    idempotency: "idempotent",
    describe: (p) => `deployment ${String(p["deployment"])} in project ${String(p["project"])}`,
  },
  {
    id: "workspaceevents.subscriptions.get",
    service: "workspaceEvents",
    method: "GET",
    pathTemplate: "v1beta/{+name}",
    params: [param("name", "path", true, "'subscriptions/<subscription>'", checkSubscriptionName)],
    crossChecks: [],
    body: "empty",
    responseType: "Subscription",
    acceptedScopes: WORKSPACE_EVENTS_GET_SCOPES,
    // Overridden by the workspaceEventsScopes setting (see requestedScopesFor).
    requestedScopes: [SCOPES.chatSpacesReadonly],
    idempotency: "idempotent",
    describe: (p) => `subscription ${String(p["name"])}`,
  },
  {
    id: "displayvideo.inventorySourceGroups.delete",
    service: "displayVideo",
    method: "DELETE",
    pathTemplate: "{apiVersion}/inventorySourceGroups/{inventorySourceGroupId}",
    params: inventorySourceGroupParams,
    crossChecks: [checkExactlyOneOwner],
    body: "empty",
    responseType: "Empty",
    acceptedScopes: [SCOPES.displayVideo],
    requestedScopes: [SCOPES.displayVideo],
    idempotency: "idempotent",
    defaultApiVersion: "v1",
    describe: (p) => `inventory source group ${String(p["inventorySourceGroupId"])} (${ownerOf(p)})`,
  },
  {
    id: "displayvideo.inventorySourceGroups.get",
    service: "displayVideo",
    method: "GET",
    pathTemplate: "{apiVersion}/inventorySourceGroups/{inventorySourceGroupId}",
    params: inventorySourceGroupParams,
    crossChecks: [checkExactlyOneOwner],
    body: "empty",
    responseType: "InventorySourceGroup",
    acceptedScopes: [SCOPES.displayVideo],
    requestedScopes: [SCOPES.displayVideo],
    idempotency: "idempotent",
    // Follows the delete, so a delete and the read that confirms it address the same version.
    defaultApiVersion: "v1",
    describe: (p) => `inventory source group ${String(p["inventorySourceGroupId"])} (${ownerOf(p)})`,
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    service: "displayVideo",
    method: "GET",
    pathTemplate: "{apiVersion}/advertisers/{advertiserId}/creatives/{creativeId}",
    params: [
      param("advertiserId", "path", true, INT64_EXPECTED, checkInt64),
      param("creativeId", "path", true, INT64_EXPECTED, checkInt64),
      API_VERSION,
    ],
    crossChecks: [],
    body: "empty",
    responseType: "Creative",
    acceptedScopes: [SCOPES.displayVideo],
    requestedScopes: [SCOPES.displayVideo],
    idempotency: "idempotent",
    defaultApiVersion: "v3",
    describe: (p) => `creative ${String(p["creativeId"])} of advertiser ${String(p["advertiserId"])}`,
  },
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign",
    service: "kms",
    method: "POST",
    pathTemplate: "v1/{+name}:asymmetricSign",
    params: [
      param("name", "path", true, CRYPTO_KEY_VERSION_EXPECTED, checkCryptoKeyVersionName),
      param(
        "digest",
        "body",
        false,
        "{ sha256: <base64 of 32 bytes> } or { sha384: <base64 of 48 bytes> }",
        checkKmsDigest,
      ),
      param("digestCrc32c", "body", false, "the CRC32C of the digest as a decimal string", checkCrc32c),
      param("data", "body", false, "the data to sign, base64 (EC_SIGN_ED25519 keys)", checkKmsData),
      param("dataCrc32c", "body", false, "the CRC32C of the data as a decimal string", checkCrc32c),
    ],
    crossChecks: [checkDigestOrData],
    body: "optionalObject",
    responseType: "AsymmetricSignResponse",
    acceptedScopes: KMS_SCOPES,
    requestedScopes: [SCOPES.cloudkms],
    extraPermission: "cloudkms.cryptoKeyVersions.useToSign",
    // Signing changes nothing: repeating it only makes another valid signature.
    idempotency: "idempotent",
    describe: (p) => `crypto key version ${String(p["name"])}`,
  },
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey",
    service: "kms",
    method: "GET",
    pathTemplate: "v1/{+name}/publicKey",
    params: [param("name", "path", true, CRYPTO_KEY_VERSION_EXPECTED, checkCryptoKeyVersionName)],
    crossChecks: [],
    body: "empty",
    responseType: "KmsPublicKey",
    acceptedScopes: KMS_SCOPES,
    requestedScopes: [SCOPES.cloudkms],
    extraPermission: "cloudkms.cryptoKeyVersions.viewPublicKey",
    idempotency: "idempotent",
    describe: (p) => `crypto key version ${String(p["name"])}`,
  },
];

/** The table, by endpoint id. */
export const ENDPOINTS: Readonly<Record<EndpointId, EndpointDefinition>> = Object.freeze(
  Object.fromEntries(definitions.map((d) => [d.id, Object.freeze(d)])) as Record<EndpointId, EndpointDefinition>,
);

/** Every endpoint id, in table order. */
export const ENDPOINT_IDS: readonly EndpointId[] = definitions.map((d) => d.id);

/** The entry of an endpoint id; throws for an unknown id (a programming error, not bad input). */
export function getEndpoint(id: EndpointId): EndpointDefinition {
  const definition = (ENDPOINTS as Readonly<Record<string, EndpointDefinition | undefined>>)[id];
  if (definition === undefined) throw new TypeError(`unknown endpoint id ${showValue(id)}`);
  return definition;
}

/** The request an endpoint call makes: everything but auth, transport and retries. */
export interface BuiltRequest {
  readonly method: EndpointDefinition["method"];
  /** Absolute URL including the query string. */
  readonly url: string;
  readonly query: Readonly<Record<string, string>>;
  /** The JSON body; undefined when the endpoint's body is empty. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The DV360 version of a call: the call's apiVersion, else the setting, else the endpoint's default. Undefined for
 * endpoints without a version segment.
 */
export function resolveApiVersion(
  definition: EndpointDefinition,
  values: NormalizedParams,
  settingVersion: DisplayVideoApiVersion | undefined,
): DisplayVideoApiVersion | undefined {
  if (definition.defaultApiVersion === undefined) return undefined;
  const own = values["apiVersion"] as DisplayVideoApiVersion | undefined;
  return own ?? settingVersion ?? definition.defaultApiVersion;
}

/**
 * Builds the request of validated, normalized parameters against a service root (no trailing slash). `{+name}` keeps
 * the slashes of a resource name and percent-encodes each segment; `{name}` percent-encodes the whole value.
 */
export function buildRequest(definition: EndpointDefinition, values: NormalizedParams, root: string): BuiltRequest {
  const path = definition.pathTemplate.replace(/\{(\+?)([A-Za-z]+)\}/g, (_match, plus: string, name: string) => {
    const value = values[name];
    if (typeof value !== "string") throw new TypeError(`${definition.id}: path parameter ${name} has no value`);
    return plus === "+" ? value.split("/").map(encodeURIComponent).join("/") : encodeURIComponent(value);
  });
  const query: Record<string, string> = {};
  const search = new URLSearchParams();
  let body: Record<string, unknown> | undefined = definition.body === "optionalObject" ? {} : undefined;
  for (const spec of definition.params) {
    const value = values[spec.name];
    if (value === undefined) continue;
    if (spec.location === "query") {
      if (typeof value !== "string")
        throw new TypeError(`${definition.id}: query parameter ${spec.name} is not a string`);
      query[spec.name] = value;
      search.append(spec.name, value);
    } else if (spec.location === "body") {
      body = { ...body, [spec.name]: value };
    }
  }
  const qs = search.toString();
  return { method: definition.method, url: `${root}/${path}${qs === "" ? "" : `?${qs}`}`, query, body };
}
