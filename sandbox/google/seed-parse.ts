/**
 * Runtime checks of a seed that arrives as JSON (POST /_sandbox/seed): every collection present, every record with
 * the fields the routes rely on. Deeper wire fields (a Creative's assets, a Subscription's options) are taken as
 * given. Throws SandboxInputError naming the first problem.
 */
import { KMS_ALGORITHMS } from "./types";
import type { KmsAlgorithm } from "./types";
import { SandboxInputError } from "./sandbox-input-error";
import type { SandboxSeed } from "./seed-types";

type Json = Readonly<Record<string, unknown>>;

function fail(message: string): never {
  throw new SandboxInputError({ operation: "seed", message });
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Required fields per collection and their JSON types. */
const COLLECTIONS: Readonly<Record<string, Readonly<Record<string, "string" | "number" | "object" | "array">>>> = {
  organizations: { id: "string", displayName: "string" },
  folders: { id: "string", displayName: "string", parent: "string" },
  firewallPolicies: { id: "string", shortName: "string", parent: "string", creationTimestamp: "string" },
  workforcePools: { name: "string", policy: "object" },
  iamOperations: { name: "string", verb: "string", target: "string", durationMs: "number", outcome: "object" },
  deployments: {
    project: "string",
    id: "string",
    name: "string",
    fingerprint: "string",
    insertTime: "string",
    labels: "array",
    lastOperation: "object",
  },
  subscriptions: { name: "string", uid: "string", targetResource: "string", eventTypes: "array" },
  partners: { partnerId: "string", displayName: "string" },
  advertisers: { advertiserId: "string", partnerId: "string", displayName: "string" },
  inventorySourceGroups: { inventorySourceGroupId: "string", displayName: "string", owner: "object" },
  creatives: { name: "string", advertiserId: "string", creativeId: "string", displayName: "string" },
  serviceAccounts: { email: "string", projectId: "string", uniqueId: "string" },
  grants: { principal: "string", permission: "string" },
  oauthClients: { clientId: "string", clientSecret: "string", refreshTokens: "array" },
};

function typeOf(value: unknown): string {
  if (Array.isArray(value)) return "array";
  if (value === null) return "null";
  return typeof value;
}

export function parseSeed(value: unknown): SandboxSeed {
  if (!isObject(value)) fail("the seed must be a JSON object");
  for (const [collection, fields] of Object.entries(COLLECTIONS)) {
    const items = value[collection];
    if (!Array.isArray(items)) fail(`'${collection}' must be an array`);
    items.forEach((item: unknown, index) => {
      if (!isObject(item)) fail(`${collection}[${index}] must be an object`);
      for (const [field, type] of Object.entries(fields)) {
        if (typeOf(item[field]) !== type) fail(`${collection}[${index}].${field} must be a ${type}`);
      }
    });
  }
  const federation = value["federation"];
  if (!isObject(federation)) fail("'federation' must be an object");
  for (const field of ["projectNumber", "poolId", "providerId"]) {
    if (typeof federation[field] !== "string") fail(`federation.${field} must be a string`);
  }
  const kms = value["kmsKeyVersions"];
  if (kms !== undefined) {
    if (!Array.isArray(kms)) fail("'kmsKeyVersions' must be an array");
    kms.forEach((k: unknown, index) => {
      if (!isObject(k) || typeof k["name"] !== "string") fail(`kmsKeyVersions[${index}].name must be a string`);
      if (!KMS_ALGORITHMS.includes(k["algorithm"] as KmsAlgorithm)) {
        fail(
          `kmsKeyVersions[${index}].algorithm must be one of ${KMS_ALGORITHMS.join(", ")} (those the sandbox generates)`,
        );
      }
    });
  }
  const groups = value["inventorySourceGroups"] as readonly Json[];
  groups.forEach((g, index) => {
    const owner = g["owner"] as Json;
    if ((typeof owner["partnerId"] === "string") === (typeof owner["advertiserId"] === "string")) {
      fail(`inventorySourceGroups[${index}].owner must be {partnerId} or {advertiserId}`);
    }
  });
  const pools = value["workforcePools"] as readonly Json[];
  pools.forEach((p, index) => {
    const parent = p["parent"];
    if (parent !== undefined && (typeof parent !== "string" || !/^organizations\/[0-9]{1,19}$/.test(parent))) {
      fail(`workforcePools[${index}].parent must be "organizations/<id>" when given`);
    }
  });
  const operations = value["iamOperations"] as readonly Json[];
  operations.forEach((op, index) => {
    const kind = (op["outcome"] as Json)["kind"];
    if (kind !== "response" && kind !== "error")
      fail(`iamOperations[${index}].outcome.kind must be "response" or "error"`);
  });
  return value as unknown as SandboxSeed;
}
