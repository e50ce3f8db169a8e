/**
 * The chaincode resources' plain checks, found from the inputs alone (nothing read, opened or sent), each bad input a
 * failure naming the field and the fix: a definition whose fields, policy or collections do not parse (the library's
 * own rules, provider/ledger/lifecycle/chaincode-definition.ts, under `definition.`), a package id of the wrong form,
 * a package given twice or not at all, a peer's settings. The definition's text forms (what drift compares) are here
 * too: the declared definition and what Fabric answered, printed the same way.
 */
import * as fs from "node:fs";
import { ValidationError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { PACKAGE_ID_PATTERN, prepareDefinition } from "../../../ledger/lifecycle/chaincode-definition";
import type { ChaincodeDefinition, DefinitionView } from "../../../ledger/lifecycle/chaincode-definition";
import { readChaincodePackage } from "../../../ledger/lifecycle/chaincode-package";
import type { ChaincodePackage } from "../../../ledger/lifecycle/chaincode-package";
import { canonical, hasUnknown, isRecord } from "../ledger-values";
import { gatewayFailures } from "../session/session-checks";
import type { ChaincodeApprovalView, ChaincodeDefinitionFields, ChaincodeDefinitionView } from "./chaincode-shapes";

/** The definition's fields the library takes, with their types: checked before the library sees them. */
const STRING_FIELDS = ["name", "version", "endorsementPolicy", "endorsementPlugin", "validationPlugin"] as const;

/** Failures of the definition's field types; the library's own rules run only once these pass. */
function definitionTypeFailures(d: Record<string, unknown>): FieldFailure[] {
  const failures: FieldFailure[] = [];
  for (const key of STRING_FIELDS) {
    const value = d[key];
    const required = key === "name" || key === "version";
    if (value === undefined ? required : typeof value !== "string") {
      failures.push({ property: `definition.${key}`, reason: required ? "is required: a string" : "must be a string" });
    }
  }
  const sequence = d["sequence"];
  if (sequence !== undefined && (typeof sequence !== "number" || !Number.isSafeInteger(sequence) || sequence < 1)) {
    failures.push({
      property: "definition.sequence",
      reason: `${JSON.stringify(sequence)} must be a whole number from 1; leave it out to let the resource choose`,
    });
  }
  if (d["initRequired"] !== undefined && typeof d["initRequired"] !== "boolean") {
    failures.push({ property: "definition.initRequired", reason: "must be true or false" });
  }
  if (d["collections"] !== undefined && !Array.isArray(d["collections"])) {
    failures.push({
      property: "definition.collections",
      reason: "must be a list of collections, as the peer CLI's --collections-config JSON holds them",
    });
  }
  return failures;
}

/** The definition as the library takes it, at `sequence` (the declared one when not given). */
export function libraryDefinition(fields: ChaincodeDefinitionFields, sequence?: number | bigint): ChaincodeDefinition {
  return {
    name: fields.name,
    version: fields.version,
    sequence: sequence ?? fields.sequence ?? 1,
    ...(fields.endorsementPolicy === undefined ? {} : { endorsementPolicy: fields.endorsementPolicy }),
    ...(fields.collections === undefined ? {} : { collections: fields.collections }),
    ...(fields.initRequired === undefined ? {} : { initRequired: fields.initRequired }),
    ...(fields.endorsementPlugin === undefined ? {} : { endorsementPlugin: fields.endorsementPlugin }),
    ...(fields.validationPlugin === undefined ? {} : { validationPlugin: fields.validationPlugin }),
  };
}

/**
 * Every problem with a `definition` input, as failures under `definition.` (a policy's column and what it expected, a
 * collection's `definition.collections[i].<key>`). Nothing when it is not known yet (preview).
 */
export function definitionFailures(definition: unknown): FieldFailure[] {
  if (hasUnknown(definition)) return [];
  if (!isRecord(definition)) {
    return [
      { property: "definition", reason: "is required: { name, version, endorsementPolicy?, collections?, ... }" },
    ];
  }
  const typed = definitionTypeFailures(definition);
  if (typed.length > 0) return typed;
  try {
    prepareDefinition(libraryDefinition(definition as unknown as ChaincodeDefinitionFields));
    return [];
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    return error.failures.map((f) => ({ ...f, property: `definition.${f.property}` }));
  }
}

/** A failure unless `packageId` is absent, empty (none) or `<label>:<64 hex digits>`. */
export function packageIdFailures(packageId: unknown): FieldFailure[] {
  if (packageId === undefined || packageId === "" || hasUnknown(packageId)) return [];
  if (typeof packageId === "string" && PACKAGE_ID_PATTERN.test(packageId)) return [];
  return [
    {
      property: "packageId",
      reason: `${JSON.stringify(packageId)} must be <label>:<64 hex digits>, as a ChaincodeInstallation's packageId gives it`,
    },
  ];
}

/** A failure's, setting's or message's field names under a peer's input (`peer`, `peers[1]`), not `gateway`. */
export function underPeer(text: string, field: string): string {
  return text.replace(/\bgateway(?=\.)/g, field).replace(/^gateway$/, field);
}

/** Failures of a peer's settings (a gateway's, named under `property`: `peer`, `peers[0]`). */
export function peerFailures(property: string, peer: unknown): FieldFailure[] {
  return gatewayFailures(peer).map((f) => ({
    property: underPeer(f.property, property),
    reason: underPeer(f.reason, property),
  }));
}

/** Failures of an approval's `peers`: a list of peers' settings, when given. */
export function peersFailures(peers: unknown): FieldFailure[] {
  if (peers === undefined || hasUnknown(peers)) return [];
  if (!Array.isArray(peers)) return [{ property: "peers", reason: "must be a list of peers: { address, ... }" }];
  return peers.flatMap((p, i) => peerFailures(`peers[${String(i)}]`, p));
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The package an installation names (exactly one of `packageBase64` and `packageFile`), read as a peer would parse
 * it; or the failures naming the field. Undefined when it is not known yet (preview).
 */
export function readInstallationPackage(inputs: {
  packageBase64?: unknown;
  packageFile?: unknown;
}): { readonly package: ChaincodePackage } | { readonly failures: FieldFailure[] } | undefined {
  const { packageBase64: b64, packageFile: file } = inputs;
  if (hasUnknown(b64) || hasUnknown(file)) return undefined;
  if ((b64 === undefined) === (file === undefined)) {
    return {
      failures: [
        {
          property: "packageBase64",
          reason: "give exactly one of packageBase64 (a ChaincodePackage's packageBase64) and packageFile",
        },
      ],
    };
  }
  try {
    if (b64 !== undefined) {
      if (typeof b64 !== "string" || !BASE64.test(b64) || b64.length % 4 !== 0 || b64 === "") {
        return { failures: [{ property: "packageBase64", reason: "must be the package's bytes as standard base64" }] };
      }
      return { package: readChaincodePackage(Buffer.from(b64, "base64"), "packageBase64") };
    }
    return { package: readPackageFile(file, "packageFile") };
  } catch (error) {
    if (error instanceof ValidationError) return { failures: [...error.failures] };
    throw error;
  }
}

/** A package file read and parsed; ValidationError naming `field` when it cannot be read or is no package. */
export function readPackageFile(file: unknown, field: string): ChaincodePackage {
  if (typeof file !== "string" || file.trim() === "") {
    throw new ValidationError({
      subject: "ChaincodePackage",
      failures: [{ property: field, reason: "must be the path of a chaincode package file (.tar.gz)" }],
    });
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "an error";
    throw new ValidationError({
      subject: "ChaincodePackage",
      failures: [{ property: field, reason: `${file} cannot be read where pulumi runs (${code})` }],
    });
  }
  return readChaincodePackage(bytes, field);
}

/** A library view in the shapes' text form (a number sequence). */
export function textView(view: DefinitionView): ChaincodeDefinitionView {
  return {
    name: view.name,
    version: view.version,
    sequence: Number(view.sequence),
    endorsementPolicy: view.endorsementPolicy,
    collections: [...view.collections],
    initRequired: view.initRequired,
    endorsementPlugin: view.endorsementPlugin,
    validationPlugin: view.validationPlugin,
  };
}

/** The declared definition at `sequence`, in the text form Fabric's answers are printed in. */
export function declaredView(fields: ChaincodeDefinitionFields, sequence: number): ChaincodeDefinitionView {
  return textView(prepareDefinition(libraryDefinition(fields, sequence)).view);
}

/** The fields on which `actual` (an approval or committed definition as read) differs from `declared`: for messages. */
export function viewDifferences(
  declared: ChaincodeDefinitionView & { readonly packageId?: string },
  actual: ChaincodeDefinitionView & { readonly packageId?: string },
): string[] {
  const field = (v: typeof declared, k: keyof ChaincodeApprovalView): unknown =>
    (v as Partial<ChaincodeApprovalView>)[k];
  const keys: readonly (keyof ChaincodeApprovalView)[] = [
    "version",
    "sequence",
    "endorsementPolicy",
    "collections",
    "initRequired",
    "endorsementPlugin",
    "validationPlugin",
    ...(declared.packageId === undefined || actual.packageId === undefined ? [] : (["packageId"] as const)),
  ];
  return keys
    .filter((k) => canonical(field(declared, k)) !== canonical(field(actual, k)))
    .map((k) => `${k} ${JSON.stringify(field(declared, k))} (declared) vs ${JSON.stringify(field(actual, k))}`);
}

/** An approval's view as the outputs keep it, from the library's read. */
export function approvalView(
  approved: DefinitionView & { readonly packageId: string; readonly organization: string },
): ChaincodeApprovalView {
  return { ...textView(approved), organization: approved.organization, packageId: approved.packageId };
}
