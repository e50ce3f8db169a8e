/**
 * Cloud KMS routes: cryptoKeyVersions.asymmetricSign and cryptoKeyVersions.getPublicKey for the EC_SIGN_P256_SHA256
 * key versions the sandbox generates (seeded, or created on the control plane). Signatures are DER over the digest
 * sent, made with @noble/curves without normalizing S (Cloud KMS promises nothing about S either); the integrity
 * fields (verifiedDigestCrc32c, signatureCrc32c, pemCrc32c, name) are filled as Google does.
 */
import { p256 } from "@noble/curves/nist.js";
import { iamPermissionDenied, invalidField, notFound } from "./google-errors";
import { checkKnownFields, parseJsonObject } from "./request-checks";
import { ok, type RouteResult } from "./results";
import type { RequestContext, Route } from "./route-table";
import { KMS_SCOPES } from "./scopes";

export const USE_TO_SIGN_PERMISSION = "cloudkms.cryptoKeyVersions.useToSign";
export const VIEW_PUBLIC_KEY_PERMISSION = "cloudkms.cryptoKeyVersions.viewPublicKey";
/** The only algorithm the sandbox generates keys for. */
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

function asymmetricSign(context: RequestContext): RouteResult {
  const parsedName = versionName(context);
  if ("failure" in parsedName) return parsedName.failure;
  const { name } = parsedName;
  const body = parseJsonObject(context.body);
  if (!body.ok) return body.failure;
  const unknown = checkKnownFields(body.value, ["digest", "digestCrc32c", "data", "dataCrc32c"]);
  if (unknown !== undefined) return unknown;
  const digest = body.value["digest"];
  if (body.value["data"] !== undefined) {
    return invalidField(
      "data",
      `Data can only be signed by keys with algorithms that do not use a digest; ${name} uses ${KMS_ALGORITHM}: send digest.sha256.`,
    );
  }
  if (typeof digest !== "object" || digest === null || Array.isArray(digest)) {
    return invalidField("digest", "Either digest or data must be set.");
  }
  const fields = digest as Record<string, unknown>;
  const unknownDigest = checkKnownFields(fields, ["sha256", "sha384", "sha512", "externalMu"], "digest");
  if (unknownDigest !== undefined) return unknownDigest;
  const sha256 = fields["sha256"];
  if (Object.keys(fields).some((k) => k !== "sha256") || typeof sha256 !== "string") {
    return invalidField(
      "digest",
      `The requested digest algorithm does not match the key algorithm ${KMS_ALGORITHM}: send digest.sha256.`,
    );
  }
  const digestBytes = Buffer.from(sha256, "base64");
  if (digestBytes.length !== 32 || !/^[A-Za-z0-9+/]{43}=?$/.test(sha256)) {
    return invalidField("digest.sha256", "Invalid value at 'digest.sha256': the digest must be 32 bytes, base64.");
  }
  const sentCrc = body.value["digestCrc32c"];
  if (sentCrc !== undefined && (typeof sentCrc !== "string" || !/^[0-9]{1,10}$/.test(sentCrc))) {
    return invalidField("digest_crc32c", `Invalid value at 'digest_crc32c' (TYPE_INT64), ${JSON.stringify(sentCrc)}`);
  }
  if (sentCrc !== undefined && sentCrc !== crc32c(digestBytes)) {
    return invalidField("digest_crc32c", "The checksum in field digest_crc32c did not match the data in field digest.");
  }
  if (!allowed(context, USE_TO_SIGN_PERMISSION, name)) return iamPermissionDenied(USE_TO_SIGN_PERMISSION, name);
  const record = context.state.kmsKeyVersion(name);
  if (record === undefined) return notFound(`CryptoKeyVersion ${name} not found.`);
  const privateKey = context.env.keys.kmsKey(name).privateKey.export({ format: "jwk" }).d ?? "";
  const signature = p256.sign(digestBytes, Buffer.from(privateKey, "base64url"), {
    prehash: false,
    lowS: false,
    format: "der",
  });
  return ok({
    signature: Buffer.from(signature).toString("base64"),
    signatureCrc32c: crc32c(signature),
    verifiedDigestCrc32c: sentCrc !== undefined,
    name,
    verifiedDataCrc32c: false,
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
  const pem = context.env.keys.kmsKey(name).publicKey.export({ type: "spki", format: "pem" }).toString();
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
