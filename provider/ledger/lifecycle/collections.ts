/**
 * Private data collections as the peer CLI's `--collections-config` file holds them: a JSON array of
 * `{ name, policy, requiredPeerCount?, maxPeerCount?, blockToLive?, memberOnlyRead?, memberOnlyWrite?,
 * endorsementPolicy?: { signaturePolicy | channelConfigPolicy } }` (Fabric internal/peer/chaincode/common.go
 * getCollectionConfigFromBytes: requiredPeerCount defaults to 0, maxPeerCount to 1), parsed to the
 * CollectionConfigPackage it sends, and printed back in that form. Checked before anything is sent, each failure
 * naming `<field>[i].<key>`: what Fabric's peer refuses at approval (a name outside [A-Za-z0-9_-], a duplicate,
 * maxPeerCount below requiredPeerCount, a negative count, a member policy other than an OR of principals), what the
 * peer CLI would silently drop (an unknown key, a key in other case) and what cannot be sent (a wrong type, an
 * unparsable policy).
 */
import { ValidationError } from "../../errors/validation-error";
import type { FieldFailure } from "../../errors/validation-error";
import type { SignaturePolicy } from "../messages";
import { parseEndorsementPolicy, printApplicationPolicy } from "./application-policy";
import type { CollectionConfigPackage, StaticCollectionConfig } from "./lifecycle-messages";
import { parseSignaturePolicy, printSignaturePolicy } from "./signature-policy";

/** One collection as the peer CLI's JSON holds it. */
export interface ChaincodeCollection {
  readonly name: string;
  /** Who holds the collection's data: an OR of principals, such as OR('Org1MSP.member','Org2MSP.member'). */
  readonly policy: string;
  /** @default 0 */
  readonly requiredPeerCount?: number;
  /** @default 1 */
  readonly maxPeerCount?: number;
  /** Blocks after which the data is purged; 0 (the default) never. */
  readonly blockToLive?: number;
  readonly memberOnlyRead?: boolean;
  readonly memberOnlyWrite?: boolean;
  /** The collection's own endorsement policy: one of the two. */
  readonly endorsementPolicy?: { readonly signaturePolicy?: string; readonly channelConfigPolicy?: string };
}

const KEYS: readonly string[] = [
  "name",
  "policy",
  "requiredPeerCount",
  "maxPeerCount",
  "blockToLive",
  "memberOnlyRead",
  "memberOnlyWrite",
  "endorsementPolicy",
];
const POLICY_KEYS: readonly string[] = ["signaturePolicy", "channelConfigPolicy"];
/** Fabric's collection name rule (core/chaincode/lifecycle/scc.go). */
const COLLECTION_NAME = /^[A-Za-z0-9-]+([A-Za-z0-9_-]+)*$/;
const INT32_MAX = 2 ** 31 - 1;

export interface CollectionsOptions {
  /** The input named in errors. @default "collections" */
  readonly field?: string;
  /** @default "ChaincodeDefinition" */
  readonly subject?: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Whether a rule is an OR of principals at every level (scc.go validateSpOrConcat). */
function isOrConcatenation(rule: SignaturePolicy | undefined): boolean {
  const nOutOf = rule?.nOutOf;
  if (nOutOf === undefined) return true;
  return nOutOf.n === 1 && nOutOf.rules.every(isOrConcatenation);
}

/** The unknown keys of `value`, each with the known key it differs from only in case. */
function unknownKeys(value: Record<string, unknown>, known: readonly string[], at: string): FieldFailure[] {
  return Object.keys(value)
    .filter((k) => !known.includes(k))
    .map((k) => {
      const near = known.find((n) => n.toLowerCase() === k.toLowerCase());
      return {
        property: `${at}.${k}`,
        reason:
          near === undefined
            ? `is not a collection setting (known: ${known.join(", ")}); the peer CLI would ignore it`
            : `is spelled ${near}`,
      };
    });
}

/**
 * The CollectionConfigPackage of a collections config (JSON text or the parsed array). Throws ValidationError with
 * every failure named (a PolicySyntaxError's failure for a policy that does not parse, under its own field).
 */
export function parseCollections(
  collections: string | readonly ChaincodeCollection[],
  options: CollectionsOptions = {},
): CollectionConfigPackage {
  const field = options.field ?? "collections";
  const subject = options.subject ?? "ChaincodeDefinition";
  let parsed: unknown = collections;
  if (typeof collections === "string") {
    try {
      parsed = JSON.parse(collections);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ValidationError({
        subject,
        failures: [
          { property: field, reason: `is not JSON (${reason}): write the peer CLI's collections config, a JSON array` },
        ],
      });
    }
  }
  if (!Array.isArray(parsed)) {
    throw new ValidationError({
      subject,
      failures: [{ property: field, reason: 'must be a JSON array of collections ([{ "name": …, "policy": … }])' }],
    });
  }
  const failures: FieldFailure[] = [];
  const config: { staticCollectionConfig: StaticCollectionConfig }[] = [];
  const names = new Map<string, number>();
  const policyOf = (text: unknown, at: string, parse: (t: string) => void): void => {
    if (typeof text !== "string" || text.trim() === "") {
      failures.push({ property: at, reason: "must be a policy text" });
      return;
    }
    try {
      parse(text);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      failures.push(...error.failures);
    }
  };
  (parsed as unknown[]).forEach((item, i) => {
    const at = `${field}[${String(i)}]`;
    if (!isRecord(item)) {
      failures.push({ property: at, reason: "must be an object with name and policy" });
      return;
    }
    failures.push(...unknownKeys(item, KEYS, at));
    const name = item["name"];
    if (typeof name !== "string" || !COLLECTION_NAME.test(name)) {
      failures.push({
        property: `${at}.name`,
        reason: "must be a name of letters, digits, '-' and '_' that does not begin with '_'",
      });
    } else if (names.has(name)) {
      failures.push({
        property: `${at}.name`,
        reason: `'${name}' is also the name of ${field}[${String(names.get(name))}]`,
      });
    } else {
      names.set(name, i);
    }
    let memberPolicy: StaticCollectionConfig["memberOrgsPolicy"];
    policyOf(item["policy"], `${at}.policy`, (text) => {
      const envelope = parseSignaturePolicy(text, { field: `${at}.policy`, subject });
      if (!isOrConcatenation(envelope.rule)) {
        failures.push({
          property: `${at}.policy`,
          reason: `must be an OR of the member principals, such as OR('Org1MSP.member','Org2MSP.member'), not ${printSignaturePolicy(envelope)}`,
        });
      }
      memberPolicy = { signaturePolicy: envelope };
    });
    const integer = (key: string, fallback: number, min: number, max: number): number => {
      const value = item[key];
      if (value === undefined) return fallback;
      if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
        failures.push({
          property: `${at}.${key}`,
          reason: `must be a whole number from ${String(min)} to ${String(max)}`,
        });
        return fallback;
      }
      return value;
    };
    const flag = (key: string): boolean => {
      const value = item[key];
      if (value === undefined) return false;
      if (typeof value !== "boolean") failures.push({ property: `${at}.${key}`, reason: "must be true or false" });
      return value === true;
    };
    const requiredPeerCount = integer("requiredPeerCount", 0, 0, INT32_MAX);
    const maximumPeerCount = integer("maxPeerCount", 1, 0, INT32_MAX);
    if (maximumPeerCount < requiredPeerCount) {
      failures.push({
        property: `${at}.maxPeerCount`,
        reason: `(${String(maximumPeerCount)}) must not be less than requiredPeerCount (${String(requiredPeerCount)})`,
      });
    }
    const blockToLive = integer("blockToLive", 0, 0, Number.MAX_SAFE_INTEGER);
    let endorsementPolicy: StaticCollectionConfig["endorsementPolicy"];
    const ep = item["endorsementPolicy"];
    if (ep !== undefined) {
      const epAt = `${at}.endorsementPolicy`;
      if (!isRecord(ep)) {
        failures.push({ property: epAt, reason: 'must be { "signaturePolicy": … } or { "channelConfigPolicy": … }' });
      } else {
        failures.push(...unknownKeys(ep, POLICY_KEYS, epAt));
        const signature = ep["signaturePolicy"];
        const reference = ep["channelConfigPolicy"];
        if ((signature === undefined || signature === "") === (reference === undefined || reference === "")) {
          failures.push({ property: epAt, reason: "must set exactly one of signaturePolicy and channelConfigPolicy" });
        } else if (signature !== undefined && signature !== "") {
          policyOf(signature, `${epAt}.signaturePolicy`, (text) => {
            if (text.trimStart().startsWith("/")) {
              failures.push({
                property: `${epAt}.signaturePolicy`,
                reason: "is a policy reference: set it as channelConfigPolicy",
              });
              return;
            }
            endorsementPolicy = parseEndorsementPolicy(text, { field: `${epAt}.signaturePolicy`, subject });
          });
        } else {
          policyOf(reference, `${epAt}.channelConfigPolicy`, (text) => {
            if (!text.trimStart().startsWith("/")) {
              failures.push({
                property: `${epAt}.channelConfigPolicy`,
                reason: "must be a channel policy path such as /Channel/Application/Endorsement",
              });
              return;
            }
            endorsementPolicy = parseEndorsementPolicy(text, { field: `${epAt}.channelConfigPolicy`, subject });
          });
        }
      }
    }
    config.push({
      staticCollectionConfig: {
        name: typeof name === "string" ? name : "",
        ...(memberPolicy === undefined ? {} : { memberOrgsPolicy: memberPolicy }),
        requiredPeerCount,
        maximumPeerCount,
        blockToLive: BigInt(blockToLive),
        memberOnlyRead: flag("memberOnlyRead"),
        memberOnlyWrite: flag("memberOnlyWrite"),
        ...(endorsementPolicy === undefined ? {} : { endorsementPolicy }),
      },
    });
  });
  if (failures.length > 0) throw new ValidationError({ subject, failures });
  return { config };
}

/**
 * The peer CLI's JSON form of a package, every key written (defaults included), so two packages compare as text:
 * printCollections(parseCollections(x)) is x with its defaults filled in and its policies printed canonically.
 */
export function printCollections(collections: CollectionConfigPackage | undefined): ChaincodeCollection[] {
  return (collections?.config ?? []).map((c) => {
    const s = c.staticCollectionConfig;
    if (s === undefined) return { name: "", policy: "Unsupported(collection type)" };
    const member = s.memberOrgsPolicy?.signaturePolicy;
    const endorsement = s.endorsementPolicy;
    return {
      name: s.name,
      policy: member === undefined ? "" : printSignaturePolicy(member),
      requiredPeerCount: s.requiredPeerCount,
      maxPeerCount: s.maximumPeerCount,
      blockToLive: Number(s.blockToLive),
      memberOnlyRead: s.memberOnlyRead,
      memberOnlyWrite: s.memberOnlyWrite,
      ...(endorsement === undefined
        ? {}
        : endorsement.channelConfigPolicyReference !== undefined
          ? { endorsementPolicy: { channelConfigPolicy: endorsement.channelConfigPolicyReference } }
          : { endorsementPolicy: { signaturePolicy: printApplicationPolicy(endorsement) } }),
    };
  });
}
