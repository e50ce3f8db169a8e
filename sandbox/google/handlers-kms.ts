/**
 * Cloud KMS routes: cryptoKeyVersions.asymmetricSign and cryptoKeyVersions.getPublicKey for the EC_SIGN_P256_SHA256,
 * EC_SIGN_P384_SHA384 and EC_SIGN_ED25519 key versions the sandbox generates (seeded, or created on the control plane).
 * ECDSA signatures are DER over the digest sent, made with @noble/curves without normalizing S (Cloud KMS promises
 * nothing about S either); Ed25519 signatures are pure, over the data sent; the integrity fields
 * (verifiedDigestCrc32c / verifiedDataCrc32c, signatureCrc32c, pemCrc32c, name) are filled as Google does.
 */
import { sign } from "node:crypto";
import { p256, p384 } from "@noble/curves/nist.js";
import { iamPermissionDenied, invalidField, notFound } from "./google-errors";
import { checkKnownFields, parseJsonObject } from "./request-checks";
import { ok, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { KMS_SCOPES } from "./scopes";

export const USE_TO_SIGN_PERMISSION = "cloudkms.cryptoKeyVersions.useToSign";
export const VIEW_PUBLIC_KEY_PERMISSION = "cloudkms.cryptoKeyVersions.viewPublicKey";
/** The default algorithm of the key versions the sandbox generates (also EC_SIGN_P384_SHA384 and EC_SIGN_ED25519). */
export const KMS_ALGORITHM = "EC_SIGN_P256_SHA256";

// crc-32 (SheetJS) ships crc32c.js without typings; the sandbox computes its own checksums with it.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a CommonJS file of the package, typed here
const CRC32C = require("crc-32/crc32c") as { buf(data: Uint8Array, seed?: number): number };
const crc32c = (bytes: Uint8Array): string => String(CRC32C.buf(bytes) >>> 0);

const KMS_ID = /^[A-Za-z0-9_-]{1,63}$/;
const VERSION = /^[1-9][0-9]{0,18}$/;

/** The key version name of a request, or a 400 naming the bad segment. */
function versionName(context: RequestContext): { name: string } | { failure: RouteResult } {
  const { project, location, keyRing, cryptoKey, version } = context.params as Record<string, string>;
  const name = `projects/${String(project)}/locations/${String(location)}/keyRings/${String(keyRing)}/cryptoKeys/${String(cryptoKey)}/cryptoKeyVersions/${String(version)}`;
  if (!KMS_ID.test(keyRing ?? "") || !KMS_ID.test(cryptoKey ?? "") || !VERSION.test(version ?? "")) {
    return {
      failure: invalidField(
        "name",
        `Resource name [${name}] does not match any known resource name pattern: key ring and key ids are 1 to 63 letters, digits, '_' or '-', and a version is a number.`,
      ),
    };
  }
  return { name };
}

/** Whether the principal holds `permission` on the key version, its key or its key ring. */
function allowed(context: RequestContext, permission: string, name: string): boolean {
  const key = name.replace(/\/cryptoKeyVersions\/[^/]+$/, "");
  const ring = key.replace(/\/cryptoKeys\/[^/]+$/, "");
  return [name, key, ring].some((resource) => context.state.hasPermission(context.principal, permission, resource));
}

/** The digest length of each digest algorithm's field. */
const DIGEST_FIELDS: Readonly<Record<string, { field: "sha256" | "sha384"; bytes: number }>> = {
  EC_SIGN_P256_SHA256: { field: "sha256", bytes: 32 },
  EC_SIGN_P384_SHA384: { field: "sha384", bytes: 48 },
};

/**
 * What the key version signs, as Google checks it: EC_SIGN_ED25519 signs `data` (pure Ed25519, no digest); the ECDSA
 * algorithms take the digest field of their algorithm, of its exact length (any value of that length: KMS cannot tell
 * where it came from), and the sandbox refuses `data` for them.
 */
function signInput(
  body: Readonly<Record<string, unknown>>,
  algorithm: string,
  name: string,
): { bytes: Buffer; crcField: "digestCrc32c" | "dataCrc32c" } | { failure: RouteResult } {
  const digest = body["digest"];
  const data = body["data"];
  if (algorithm === "EC_SIGN_ED25519") {
    if (digest !== undefined) {
      return {
        failure: invalidField("digest", `${name} uses EC_SIGN_ED25519, which signs data, not a digest: send data.`),
      };
    }
    if (typeof data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(data) || data === "") {
      return { failure: invalidField("data", "Either digest or data must be set.") };
    }
    return { bytes: Buffer.from(data, "base64"), crcField: "dataCrc32c" };
  }
  const expected = DIGEST_FIELDS[algorithm] ?? { field: "sha256", bytes: 32 };
  if (data !== undefined) {
    return {
      failure: invalidField(
        "data",
        `Data can only be signed by keys with algorithms that do not use a digest; ${name} uses ${algorithm}: send digest.${expected.field}.`,
      ),
    };
  }
  if (typeof digest !== "object" || digest === null || Array.isArray(digest)) {
    return { failure: invalidField("digest", "Either digest or data must be set.") };
  }
  const fields = digest as Record<string, unknown>;
  const unknownDigest = checkKnownFields(fields, ["sha256", "sha384", "sha512", "externalMu"], "digest");
  if (unknownDigest !== undefined) return { failure: unknownDigest };
  const value = fields[expected.field];
  if (Object.keys(fields).some((k) => k !== expected.field) || typeof value !== "string") {
    return {
      failure: invalidField(
        "digest",
        `The requested digest algorithm does not match the key algorithm ${algorithm}: send digest.${expected.field}.`,
      ),
    };
  }
  const bytes = Buffer.from(value, "base64");
  if (bytes.length !== expected.bytes || !/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
    return {
      failure: invalidField(
        `digest.${expected.field}`,
        `Invalid value at 'digest.${expected.field}': the digest must be ${expected.bytes} bytes, base64.`,
      ),
    };
  }
  return { bytes, crcField: "digestCrc32c" };
}

function asymmetricSign(context: RequestContext): RouteResult {
  const parsedName = versionName(context);
  if ("failure" in parsedName) return parsedName.failure;
  const { name } = parsedName;
  const body = parseJsonObject(context.body);
  if (!body.ok) return body.failure;
  const unknown = checkKnownFields(body.value, ["digest", "digestCrc32c", "data", "dataCrc32c"]);
  if (unknown !== undefined) return unknown;
  const algorithm = context.state.kmsKeyVersion(name)?.algorithm ?? KMS_ALGORITHM;
  const input = signInput(body.value, algorithm, name);
  if ("failure" in input) return input.failure;
  const { bytes, crcField } = input;
  const sentCrc = body.value[crcField];
  const crcName = crcField === "digestCrc32c" ? "digest_crc32c" : "data_crc32c";
  if (sentCrc !== undefined && (typeof sentCrc !== "string" || !/^[0-9]{1,10}$/.test(sentCrc))) {
    return invalidField(crcName, `Invalid value at '${crcName}' (TYPE_INT64), ${JSON.stringify(sentCrc)}`);
  }
  if (sentCrc !== undefined && sentCrc !== crc32c(bytes)) {
    const field = crcField === "digestCrc32c" ? "digest" : "data";
    return invalidField(crcName, `The checksum in field ${crcName} did not match the data in field ${field}.`);
  }
  if (!allowed(context, USE_TO_SIGN_PERMISSION, name)) return iamPermissionDenied(USE_TO_SIGN_PERMISSION, name);
  const record = context.state.kmsKeyVersion(name);
  if (record === undefined) return notFound(`CryptoKeyVersion ${name} not found.`);
  const key = context.env.keys.kmsKey(name, record.algorithm).privateKey;
  const d = Buffer.from(key.export({ format: "jwk" }).d ?? "", "base64url");
  // Cloud KMS promises nothing about S: the ECDSA signatures are not normalized.
  const signature =
    record.algorithm === "EC_SIGN_ED25519"
      ? new Uint8Array(sign(null, bytes, key))
      : (record.algorithm === "EC_SIGN_P384_SHA384" ? p384 : p256).sign(bytes, d, {
          prehash: false,
          lowS: false,
          format: "der",
        });
  return ok({
    signature: Buffer.from(signature).toString("base64"),
    signatureCrc32c: crc32c(signature),
    verifiedDigestCrc32c: crcField === "digestCrc32c" && sentCrc !== undefined,
    name,
    verifiedDataCrc32c: crcField === "dataCrc32c" && sentCrc !== undefined,
    protectionLevel: "SOFTWARE",
  });
}

function getPublicKey(context: RequestContext): RouteResult {
  const parsedName = versionName(context);
  if ("failure" in parsedName) return parsedName.failure;
  const { name } = parsedName;
  if (!allowed(context, VIEW_PUBLIC_KEY_PERMISSION, name)) return iamPermissionDenied(VIEW_PUBLIC_KEY_PERMISSION, name);
  const record = context.state.kmsKeyVersion(name);
  if (record === undefined) return notFound(`CryptoKeyVersion ${name} not found.`);
  const pem = context.env.keys
    .kmsKey(name, record.algorithm)
    .publicKey.export({ type: "spki", format: "pem" })
    .toString();
  return ok({
    pem,
    algorithm: record.algorithm,
    pemCrc32c: crc32c(Buffer.from(pem, "utf8")),
    name,
    protectionLevel: "SOFTWARE",
  });
}

const TEMPLATE =
  "/v1/projects/{project}/locations/{location}/keyRings/{keyRing}/cryptoKeys/{cryptoKey}/cryptoKeyVersions";
const api = (method: string) => () => ({
  service: "cloudkms.googleapis.com",
  method: `google.cloud.kms.v1.KeyManagementService.${method}`,
});

export const KMS_ROUTES: readonly Route[] = [
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign",
    service: "kms",
    method: "POST",
    template: `${TEMPLATE}/{version}:asymmetricSign`,
    api: api("AsymmetricSign"),
    scopes: KMS_SCOPES,
    body: "json",
    queryParams: [],
    invalidReason: "badRequest",
    handle: asymmetricSign,
  },
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey",
    service: "kms",
    method: "GET",
    template: `${TEMPLATE}/{version}/publicKey`,
    api: api("GetPublicKey"),
    scopes: KMS_SCOPES,
    body: "empty",
    queryParams: ["publicKeyFormat"],
    invalidReason: "badRequest",
    handle: getPublicKey,
  },
];
