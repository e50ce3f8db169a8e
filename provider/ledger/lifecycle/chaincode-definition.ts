/**
 * A chaincode definition as a caller declares it (name, version, sequence, endorsement policy text, collections,
 * init-required, plugins), checked once into the arguments _lifecycle takes, and the inverse: a definition Fabric
 * answers with, read back into the same text forms so two definitions compare field by field
 * (docs/decisions/0070-drift-compares-chaincode-definitions-as-text.md).
 *
 * Defaults are Fabric's: no endorsement policy is the channel's /Channel/Application/Endorsement, no plugins are
 * "escc" and "vscc" (core/chaincode/lifecycle/lifecycle.go SetChaincodeDefinitionDefaults); a definition is sent as
 * written (empty where left out, as the peer CLI sends it) and compared with the defaults filled in.
 */
import { ValidationError } from "../../errors/validation-error";
import type { FieldFailure } from "../../errors/validation-error";
import { bytesEqual } from "../hash";
import {
  DEFAULT_ENDORSEMENT_POLICY_REFERENCE,
  endorsementPolicyBytes,
  printEndorsementPolicyBytes,
} from "./application-policy";
import { parseCollections, printCollections } from "./collections";
import type { ChaincodeCollection } from "./collections";
import { lifecycleCodecs } from "./lifecycle-codecs";
import type { ChaincodeDefinitionArgs, ChaincodeSource, DefinitionResult } from "./lifecycle-messages";
import { PolicySyntaxError } from "../../errors/ledger/policy-syntax-error";

/** Fabric's chaincode name and version rules, and the system chaincodes a definition may not name (scc.go). */
export const CHAINCODE_NAME_PATTERN = /^[a-zA-Z0-9]+([-_][a-zA-Z0-9]+)*$/;
export const CHAINCODE_VERSION_PATTERN = /^[A-Za-z0-9_.+-]+$/;
const SYSTEM_CHAINCODES = ["cscc", "escc", "lscc", "qscc", "vscc"];
/** A package id: a label, ':', a hex SHA-256. */
export const PACKAGE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.+-]*:[0-9a-f]{64}$/;
export const DEFAULT_ENDORSEMENT_PLUGIN = "escc";
export const DEFAULT_VALIDATION_PLUGIN = "vscc";
const INT64_MAX = 2n ** 63n - 1n;

/** A chaincode definition as declared. */
export interface ChaincodeDefinition {
  readonly name: string;
  readonly version: string;
  /** 1 for the first definition; each change of any field is the next sequence. */
  readonly sequence: number | bigint;
  /**
   * A signature policy (`AND('Org1MSP.peer','Org2MSP.peer')`) or a channel policy reference
   * (`/Channel/Application/Endorsement`). @default the channel's /Channel/Application/Endorsement
   */
  readonly endorsementPolicy?: string;
  /** The peer CLI's collections config: JSON text or the parsed array. @default none */
  readonly collections?: string | readonly ChaincodeCollection[];
  /** Whether the chaincode's Init must run first. @default false */
  readonly initRequired?: boolean;
  /** @default "escc" */
  readonly endorsementPlugin?: string;
  /** @default "vscc" */
  readonly validationPlugin?: string;
}

/** A definition in text forms, defaults filled in: what drift compares, field by field. */
export interface DefinitionView {
  readonly name: string;
  readonly version: string;
  readonly sequence: bigint;
  /** The policy text (a printed signature policy or a reference). */
  readonly endorsementPolicy: string;
  /** The collections in the peer CLI's JSON form, every key written. */
  readonly collections: readonly ChaincodeCollection[];
  readonly initRequired: boolean;
  readonly endorsementPlugin: string;
  readonly validationPlugin: string;
  /** The serialized ApplicationPolicy, the default's when none was given (texts can agree where bytes do not). */
  readonly validationParameter: Uint8Array;
  /** The serialized CollectionConfigPackage (empty for none). */
  readonly collectionsBytes: Uint8Array;
}

/** A checked definition: the arguments to send and its view. */
export interface PreparedDefinition {
  readonly args: ChaincodeDefinitionArgs;
  readonly view: DefinitionView;
}

const DEFAULT_POLICY_BYTES = lifecycleCodecs.ApplicationPolicy.encode({
  channelConfigPolicyReference: DEFAULT_ENDORSEMENT_POLICY_REFERENCE,
});

/** Fabric's sequence rule as a bigint, or a failure. */
function sequenceOf(value: number | bigint, failures: FieldFailure[]): bigint {
  const ok = typeof value === "bigint" ? value >= 1n && value <= INT64_MAX : Number.isSafeInteger(value) && value >= 1;
  if (!ok) {
    failures.push({
      property: "sequence",
      reason: `${String(value)} must be a whole number from 1 (the first definition)`,
    });
    return 1n;
  }
  return BigInt(value);
}

/**
 * Checks a definition and builds its arguments and view. Throws ValidationError with every failure named (the
 * policy's and the collections' under their own fields) before anything is sent.
 */
export function prepareDefinition(
  definition: ChaincodeDefinition,
  subject = "ChaincodeDefinition",
): PreparedDefinition {
  const failures: FieldFailure[] = [];
  const { name, version } = definition;
  if (!CHAINCODE_NAME_PATTERN.test(name)) {
    failures.push({
      property: "name",
      reason: `'${name}' must be letters and digits, with single '-' or '_' between them (Fabric's chaincode name rule)`,
    });
  } else if (SYSTEM_CHAINCODES.includes(name)) {
    failures.push({ property: "name", reason: `'${name}' is the name of a system chaincode` });
  }
  if (!CHAINCODE_VERSION_PATTERN.test(version)) {
    failures.push({ property: "version", reason: `'${version}' must be letters, digits and '_', '.', '+', '-'` });
  }
  const sequence = sequenceOf(definition.sequence, failures);
  const errors: ValidationError[] = [];
  const collect = <T>(make: () => T, fallback: T): T => {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(error);
      failures.push(...error.failures);
      return fallback;
    }
  };
  const validationParameter = collect(
    () => endorsementPolicyBytes(definition.endorsementPolicy, { subject }),
    new Uint8Array(0),
  );
  const collections = collect(
    () => (definition.collections === undefined ? undefined : parseCollections(definition.collections, { subject })),
    undefined,
  );
  for (const key of ["endorsementPlugin", "validationPlugin"] as const) {
    const plugin = definition[key];
    if (plugin !== undefined && (plugin.trim() === "" || plugin !== plugin.trim())) {
      failures.push({
        property: key,
        reason: "must be a plugin name without spaces; leave it out for Fabric's default",
      });
    }
  }
  // A policy that does not parse, alone, keeps its own error (its column and text for programs).
  const [only] = errors;
  if (only instanceof PolicySyntaxError && failures.length === only.failures.length) throw only;
  if (failures.length > 0) throw new ValidationError({ subject, failures });
  const args: ChaincodeDefinitionArgs = {
    sequence,
    name,
    version,
    endorsementPlugin: definition.endorsementPlugin ?? "",
    validationPlugin: definition.validationPlugin ?? "",
    validationParameter,
    ...(collections === undefined ? {} : { collections }),
    initRequired: definition.initRequired ?? false,
  };
  return { args, view: viewOf(name, args) };
}

/** The view of a definition's fields as sent or as Fabric answered them (defaults filled in). */
export function viewOf(name: string, result: DefinitionResult): DefinitionView {
  const validationParameter =
    result.validationParameter.length === 0 ? DEFAULT_POLICY_BYTES : result.validationParameter;
  return {
    name,
    version: result.version,
    sequence: result.sequence,
    endorsementPolicy: printEndorsementPolicyBytes(validationParameter),
    collections: printCollections(result.collections),
    initRequired: result.initRequired,
    endorsementPlugin: result.endorsementPlugin === "" ? DEFAULT_ENDORSEMENT_PLUGIN : result.endorsementPlugin,
    validationPlugin: result.validationPlugin === "" ? DEFAULT_VALIDATION_PLUGIN : result.validationPlugin,
    validationParameter,
    collectionsBytes:
      result.collections === undefined || result.collections.config.length === 0
        ? new Uint8Array(0)
        : lifecycleCodecs.CollectionConfigPackage.encode(result.collections),
  };
}

/** The package id an approval names ("" when it names none: the chaincode unavailable to the organization's peers). */
export function packageIdOfSource(source: ChaincodeSource | undefined): string {
  return source?.localPackage?.packageId ?? "";
}

/** The ChaincodeSource of a package id ("" or undefined: none). */
export function sourceOfPackageId(packageId: string | undefined): ChaincodeSource {
  return packageId === undefined || packageId === "" ? { unavailable: {} } : { localPackage: { packageId } };
}

/** One field on which two definitions differ, in text form. */
export interface DefinitionDifference {
  readonly field:
    | "version"
    | "sequence"
    | "endorsementPolicy"
    | "collections"
    | "initRequired"
    | "endorsementPlugin"
    | "validationPlugin"
    | "packageId";
  readonly declared: string;
  readonly actual: string;
}

/**
 * The fields on which `actual` differs from `declared`, in field order: text forms compared, and the policy and the
 * collections also as bytes (Fabric compares bytes: the same text encoded otherwise — identities numbered or shared
 * differently by another tool — is a different definition to it, reported with "(encoded differently)").
 * `packageId` is compared when both sides name one (an approval's).
 */
export function compareDefinitions(
  declared: DefinitionView & { readonly packageId?: string },
  actual: DefinitionView & { readonly packageId?: string },
): DefinitionDifference[] {
  const differences: DefinitionDifference[] = [];
  const add = (field: DefinitionDifference["field"], a: string, b: string, sameBytes = true): void => {
    if (a !== b) differences.push({ field, declared: a, actual: b });
    else if (!sameBytes) differences.push({ field, declared: a, actual: `${b} (encoded differently)` });
  };
  add("version", declared.version, actual.version);
  add("sequence", declared.sequence.toString(), actual.sequence.toString());
  add(
    "endorsementPolicy",
    declared.endorsementPolicy,
    actual.endorsementPolicy,
    bytesEqual(declared.validationParameter, actual.validationParameter),
  );
  add(
    "collections",
    JSON.stringify(declared.collections),
    JSON.stringify(actual.collections),
    bytesEqual(declared.collectionsBytes, actual.collectionsBytes),
  );
  add("initRequired", String(declared.initRequired), String(actual.initRequired));
  add("endorsementPlugin", declared.endorsementPlugin, actual.endorsementPlugin);
  add("validationPlugin", declared.validationPlugin, actual.validationPlugin);
  if (declared.packageId !== undefined && actual.packageId !== undefined) {
    add("packageId", declared.packageId, actual.packageId);
  }
  return differences;
}

/** "version 1.0 → 2.0; endorsementPolicy AND(...) → OR(...)": differences for messages. */
export function describeDifferences(differences: readonly DefinitionDifference[]): string {
  return differences.map((d) => `${d.field} ${d.declared} (declared) vs ${d.actual}`).join("; ");
}
