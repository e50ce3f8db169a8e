/**
 * Input validation, run before any request (and before any token is fetched). Each `check*` function returns the
 * normalized value or a reason phrased with the fix; {@link checkEndpointParams} collects every failure of a call, not
 * just the first, and {@link validateEndpointParams} throws them as one ValidationError.
 */
import { ValidationError } from "../errors";
import type { FieldFailure } from "../errors";
import type { CheckResult, EndpointDefinition, NormalizedParams } from "./endpoint-types";

/** The largest int64, the bound of DV360 ids. */
export const INT64_MAX = 9223372036854775807n;
const ZERO_UUID = "00000000-0000-0000-0000-000000000000";
const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
/** One resource-name segment: RFC 3986 unreserved characters, never "." or ".." (a URL parser would resolve those). */
const SEGMENT = "(?!\\.{1,2}(?:/|$))[A-Za-z0-9._~-]+";
const WORKFORCE_POOL_PATTERN = new RegExp(`^locations/${SEGMENT}/workforcePools/${SEGMENT}$`);
const IAM_OPERATION_PATTERN = new RegExp(`^folders/${SEGMENT}/locations/${SEGMENT}/operations/${SEGMENT}$`);
const SUBSCRIPTION_PATTERN = new RegExp(`^subscriptions/${SEGMENT}$`);
/** Cloud KMS ids: letters, digits, underscores and hyphens (1..63); a version is a positive number. */
const KMS_ID = "[A-Za-z0-9_-]{1,63}";
const CRYPTO_KEY_VERSION_PATTERN = new RegExp(
  `^projects/${SEGMENT}/locations/${SEGMENT}/keyRings/${KMS_ID}/cryptoKeys/${KMS_ID}/cryptoKeyVersions/[1-9][0-9]{0,18}$`,
);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const FIREWALL_POLICY_PATTERN = /^(?:(?:locations\/global\/)?firewallPolicies\/)?([0-9]{1,20})$/;
const PARENT_ID_PATTERN = /^(?:folders|organizations)\/[0-9]+$/;
const INT64_PATTERN = /^(?:0|[1-9][0-9]{0,18})$/;
/**
 * Compute's operation pattern (the `operation` path parameter of globalOrganizationOperations.get): an RFC 1035 name or
 * a numeric id.
 */
const COMPUTE_OPERATION_PATTERN = /^(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?|[1-9][0-9]{0,19})$/;
const COMPUTE_OPERATION_URL_PATH = /\/compute\/v1\/locations\/global\/operations\/([^/]+)$/;
const COMPUTE_OPERATION_RELATIVE = /^(?:compute\/v1\/)?locations\/global\/operations\/([^/]+)$/;
/** Deployment Manager patterns (the path parameters of deployments.get). */
const DM_PROJECT_PATTERN =
  /^(?:(?:[-a-z0-9]{1,63}\.)*(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?):)?(?:[0-9]{1,19}|(?:[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?))$/;
const DM_DEPLOYMENT_PATTERN = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
const API_VERSIONS: readonly string[] = ["v1", "v2", "v3", "v4"];
const POLICY_VERSIONS: readonly number[] = [0, 1, 3];
const MAX_SHOWN_LENGTH = 80;

/** Renders a rejected value for a message: strings quoted, shortened, with control characters escaped. */
export function showValue(value: unknown): string {
  if (typeof value === "string") {
    const short = value.length > MAX_SHOWN_LENGTH ? `${value.slice(0, MAX_SHOWN_LENGTH - 3)}...` : value;
    let escaped = "";
    for (const ch of short) {
      const code = ch.charCodeAt(0);
      escaped += code < 0x20 || code === 0x7f ? `\\u${code.toString(16).padStart(4, "0")}` : ch;
    }
    return `'${escaped}'`;
  }
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return String(value);
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a value of type ${typeof value}`;
}

function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function patternCheck(value: unknown, pattern: RegExp, expected: string): CheckResult {
  if (typeof value !== "string") return { reason: `must be a string ${expected}, got ${typeName(value)}` };
  return pattern.test(value) ? { value } : { reason: `${showValue(value)} must be ${expected}` };
}

/** IAM v1 workforce pool resource: `locations/<location>/workforcePools/<pool>`. */
export function checkWorkforcePoolResource(value: unknown): CheckResult {
  return patternCheck(value, WORKFORCE_POOL_PATTERN, "'locations/<location>/workforcePools/<pool>'");
}

/** IAM v3beta operation name: `folders/<folder>/locations/<location>/operations/<operation>`. */
export function checkIamOperationName(value: unknown): CheckResult {
  return patternCheck(value, IAM_OPERATION_PATTERN, "'folders/<folder>/locations/<location>/operations/<operation>'");
}

/** Workspace Events subscription name: `subscriptions/<subscription>`. */
export function checkSubscriptionName(value: unknown): CheckResult {
  return patternCheck(value, SUBSCRIPTION_PATTERN, "'subscriptions/<subscription>'");
}

/** A Cloud KMS key version: `projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>`. */
export function checkCryptoKeyVersionName(value: unknown): CheckResult {
  return patternCheck(
    value,
    CRYPTO_KEY_VERSION_PATTERN,
    "'projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>/cryptoKeyVersions/<number>'",
  );
}

/** The digest lengths of asymmetricSign's digest fields (EC_SIGN_P256_SHA256 and EC_SIGN_P384_SHA384 keys). */
const DIGEST_BYTES: Readonly<Record<string, number>> = { sha256: 32, sha384: 48 };

/**
 * An asymmetricSign digest: exactly one of `{ sha256: <base64 of 32 bytes> }` (EC_SIGN_P256_SHA256 keys) or
 * `{ sha384: <base64 of 48 bytes> }` (EC_SIGN_P384_SHA384 keys).
 */
export function checkKmsDigest(value: unknown): CheckResult {
  const expected = "{ sha256: <base64 of 32 bytes> } or { sha384: <base64 of 48 bytes> }";
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { reason: `must be an object ${expected}, got ${typeName(value)}` };
  }
  const digest = value as Readonly<Record<string, unknown>>;
  const fields = Object.keys(digest).filter((k) => digest[k] !== undefined);
  const other = fields.find((k) => DIGEST_BYTES[k] === undefined);
  if (other !== undefined) {
    return {
      reason: `has ${showValue(other)}: only sha256 (EC_SIGN_P256_SHA256 keys) and sha384 (EC_SIGN_P384_SHA384 keys) are supported`,
    };
  }
  const [field, ...more] = fields;
  if (field === undefined || more.length > 0) return { reason: `must be exactly one of ${expected}` };
  const text = digest[field];
  const bytes = DIGEST_BYTES[field] ?? 0;
  if (typeof text !== "string" || !BASE64.test(text) || Buffer.from(text, "base64").length !== bytes) {
    return {
      property: `digest.${field}`,
      reason: `must be the base64 text of a ${bytes}-byte ${field === "sha256" ? "SHA-256" : "SHA-384"} digest`,
    };
  }
  return { value: { [field]: text } };
}

/** asymmetricSign's `data` (for EC_SIGN_ED25519 keys, which sign the data itself): base64 text. */
export function checkKmsData(value: unknown): CheckResult {
  if (typeof value !== "string" || !BASE64.test(value) || value === "") {
    return { reason: "must be the base64 text of the data to sign (EC_SIGN_ED25519 keys sign the data itself)" };
  }
  return { value };
}

/** asymmetricSign: exactly one of digest (with digestCrc32c) or data (with dataCrc32c), as this client sends. */
export function checkDigestOrData(params: Readonly<Record<string, unknown>>): FieldFailure | undefined {
  const digest = params["digest"] !== undefined;
  const data = params["data"] !== undefined;
  if (digest === data) {
    return {
      property: "digest",
      reason: `exactly one of digest (ECDSA keys) or data (EC_SIGN_ED25519 keys) must be set, got ${digest ? "both" : "neither"}`,
    };
  }
  const crc = digest ? "digestCrc32c" : "dataCrc32c";
  if (params[crc] === undefined) {
    return { property: crc, reason: `is required with ${digest ? "digest" : "data"}: the CRC32C of its bytes` };
  }
  const stray = digest ? "dataCrc32c" : "digestCrc32c";
  if (params[stray] !== undefined) {
    return { property: stray, reason: `must not be set without ${digest ? "data" : "digest"}` };
  }
  return undefined;
}

/** A CRC32C checksum as Google's int64 JSON encoding: a decimal string from 0 to 4294967295. */
export function checkCrc32c(value: unknown): CheckResult {
  const expected = "a CRC32C checksum as a decimal string from 0 to 4294967295";
  if (typeof value !== "string") return { reason: `must be ${expected}, got ${typeName(value)}` };
  if (!/^(?:0|[1-9][0-9]{0,9})$/.test(value) || Number(value) > 0xffffffff) {
    return { reason: `${showValue(value)} must be ${expected}` };
  }
  return { value };
}

/** A firewall policy: the numeric id, `firewallPolicies/<id>` or `locations/global/firewallPolicies/<id>`; normalized to the id. */
export function checkFirewallPolicy(value: unknown): CheckResult {
  const expected = "a numeric firewall policy id, 'firewallPolicies/<id>' or 'locations/global/firewallPolicies/<id>'";
  if (typeof value !== "string") return { reason: `must be a string: ${expected}, got ${typeName(value)}` };
  const match = FIREWALL_POLICY_PATTERN.exec(value);
  return match?.[1] === undefined ? { reason: `${showValue(value)} must be ${expected}` } : { value: match[1] };
}

/** A new parent: `folders/<digits>` or `organizations/<digits>`. */
export function checkParentId(value: unknown): CheckResult {
  return patternCheck(value, PARENT_ID_PATTERN, "'folders/<digits>' or 'organizations/<digits>'");
}

/** An idempotency key: a UUID other than the zero UUID (Compute's requestId: "the zero UUID is not supported"). */
export function checkRequestId(value: unknown): CheckResult {
  const expected = "a UUID such as '3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f' (crypto.randomUUID())";
  if (typeof value !== "string") return { reason: `must be a string: ${expected}, got ${typeName(value)}` };
  if (!UUID_PATTERN.test(value)) return { reason: `${showValue(value)} must be ${expected}` };
  if (value === ZERO_UUID)
    return { reason: `${showValue(value)} is the zero UUID, which Google rejects: use a random UUID` };
  return { value };
}

/** An int64 id as a decimal string: digits only, no sign, no leading zeros except "0", at most 9223372036854775807. */
export function checkInt64(value: unknown): CheckResult {
  const expected = "an int64 decimal string (digits only, no sign or leading zeros, at most 9223372036854775807)";
  if (typeof value !== "string") {
    return { reason: `must be a string: ${expected}; got ${typeName(value)} (numbers lose precision above 2^53)` };
  }
  if (!INT64_PATTERN.test(value) || BigInt(value) > INT64_MAX)
    return { reason: `${showValue(value)} must be ${expected}` };
  return { value };
}

/**
 * A Deployment Manager project: a project id, a project number, or a domain-scoped id (Deployment Manager's `project`
 * parameter).
 */
export function checkDeploymentManagerProject(value: unknown): CheckResult {
  return patternCheck(
    value,
    DM_PROJECT_PATTERN,
    "a project id like 'my-project', a project number, or a domain-scoped id like 'example.com:my-project'",
  );
}

/** A Deployment Manager deployment name: RFC 1035, 1 to 63 characters. */
export function checkDeploymentName(value: unknown): CheckResult {
  return patternCheck(
    value,
    DM_DEPLOYMENT_PATTERN,
    "a deployment name: a lowercase letter, then up to 62 lowercase letters, digits or hyphens, not ending in a hyphen",
  );
}

/** IAM GetPolicyOptions.requestedPolicyVersion: 0, 1 or 3. */
export function checkRequestedPolicyVersion(value: unknown): CheckResult {
  if (typeof value !== "number") return { reason: `must be 0, 1 or 3, got ${typeName(value)}` };
  return POLICY_VERSIONS.includes(value) ? { value } : { reason: `${showValue(value)} must be 0, 1 or 3` };
}

/** A DV360 API version: v1, v2, v3 or v4. */
export function checkDisplayVideoApiVersion(value: unknown): CheckResult {
  if (typeof value === "string" && API_VERSIONS.includes(value)) return { value };
  return { reason: `${showValue(value)} must be one of v1, v2, v3, v4` };
}

/** A compute operation name or numeric id (the pattern of globalOrganizationOperations.get). */
export function checkComputeOperationName(value: unknown): CheckResult {
  return patternCheck(
    value,
    COMPUTE_OPERATION_PATTERN,
    "an operation name (a lowercase letter, then up to 62 lowercase letters, digits or hyphens) or a numeric operation id",
  );
}

/**
 * The operation name from a compute operation reference: a bare name, or a selfLink whose path ends in
 * `/compute/v1/locations/global/operations/<name>`. Only the name is extracted: the URL is never followed, so a token is
 * never sent to a host named by a response.
 */
export function parseComputeOperationRef(selfLinkOrName: string): { operation: string } {
  const result = checkComputeOperationRef(selfLinkOrName);
  if ("reason" in result) {
    throw new ValidationError({
      subject: "compute.globalOrganizationOperations.get",
      failures: [{ property: "operation", reason: result.reason }],
    });
  }
  return { operation: result.value as string };
}

function checkComputeOperationRef(value: unknown): CheckResult {
  if (typeof value !== "string") return { reason: `must be a string, got ${typeName(value)}` };
  if (COMPUTE_OPERATION_PATTERN.test(value)) return { value };
  let name: string | undefined;
  if (/^https?:\/\//.test(value)) {
    try {
      name = COMPUTE_OPERATION_URL_PATH.exec(new URL(value).pathname)?.[1];
    } catch {
      name = undefined;
    }
  } else {
    name = COMPUTE_OPERATION_RELATIVE.exec(value)?.[1];
  }
  if (name === undefined) {
    return {
      reason:
        `${showValue(value)} must be an operation name or a selfLink ending in ` +
        `'/compute/v1/locations/global/operations/<name>'`,
    };
  }
  return checkComputeOperationName(name);
}

/**
 * Checks a call's parameters against its table entry. Returns every failure (unknown parameters, missing required
 * ones, malformed values, cross-field rules) and the normalized values of the parameters that passed.
 */
export function checkEndpointParams(
  definition: EndpointDefinition,
  params: unknown,
): { failures: FieldFailure[]; values: NormalizedParams } {
  const names = definition.params.map((p) => p.name);
  if (typeof params !== "object" || params === null || Array.isArray(params)) {
    return {
      failures: [
        { property: "params", reason: `must be an object with: ${names.join(", ")}; got ${typeName(params)}` },
      ],
      values: {},
    };
  }
  const raw = params as Readonly<Record<string, unknown>>;
  const failures: FieldFailure[] = [];
  const values: Record<string, unknown> = {};
  for (const key of Object.keys(raw)) {
    if (!names.includes(key) && raw[key] !== undefined) {
      failures.push({
        property: key,
        reason: `is not a parameter of ${definition.id} (expected: ${names.join(", ")})`,
      });
    }
  }
  for (const spec of definition.params) {
    const value = raw[spec.name];
    if (value === undefined) {
      if (spec.required) failures.push({ property: spec.name, reason: `is required: ${spec.expected}` });
      continue;
    }
    const result = spec.check(value);
    if ("reason" in result) {
      failures.push({ property: result.property ?? spec.name, reason: result.reason });
    } else {
      values[spec.name] = result.value;
    }
  }
  for (const crossCheck of definition.crossChecks) {
    const failure = crossCheck(raw);
    if (failure !== undefined) failures.push(failure);
  }
  return { failures, values };
}

/** {@link checkEndpointParams}, throwing a ValidationError (subject = the endpoint id) when anything failed. */
export function validateEndpointParams(definition: EndpointDefinition, params: unknown): NormalizedParams {
  const { failures, values } = checkEndpointParams(definition, params);
  if (failures.length > 0) throw new ValidationError({ subject: definition.id, failures });
  return values;
}

/** Cross-field rule of the DV360 owner union: exactly one of partnerId / advertiserId. */
export function checkExactlyOneOwner(params: Readonly<Record<string, unknown>>): FieldFailure | undefined {
  const partner = params["partnerId"] !== undefined;
  const advertiser = params["advertiserId"] !== undefined;
  if (partner !== advertiser) return undefined;
  return {
    property: "partnerId",
    reason: `exactly one of partnerId or advertiserId must be set (the owner of the group), got ${partner ? "both" : "neither"}`,
  };
}
