/**
 * ledger.ChaincodePackage: a chaincode install package, computed where `pulumi` runs — nothing is sent anywhere. From a
 * label and a chaincode server's connection it builds the chaincode-as-a-service package (the same bytes every time:
 * provider/ledger/lifecycle/chaincode-package.ts, docs/decisions/0071-deterministic-chaincode-packages.md); from a
 * file it reads a package built elsewhere. check computes the package id, label and type, so preview shows them;
 * create (and update, and refresh: a file rewritten shows as a changed package id) adds the bytes, which the outputs
 * keep only as a Pulumi secret — a package with client authentication carries the peer's TLS key.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { FieldFailure } from "../../../errors";
import { ValidationError } from "../../../errors";
import { buildCcaasPackage } from "../../../ledger/lifecycle/chaincode-package";
import type { ChaincodePackage } from "../../../ledger/lifecycle/chaincode-package";
import { log } from "../../../runtime/context";
import { nameFromUrn } from "../../common";
import { hasUnknown, isRecord } from "../ledger-values";
import { readPackageFile } from "./chaincode-inputs";
import type { ChaincodePackageOutcome, ChaincodePackageShape } from "./chaincode-shapes";
import { differs } from "./chaincode-step";

export interface ChaincodePackageInputs extends ChaincodePackageShape {
  __urn: string;
  /** Set by check: what the package is (known in preview). */
  packageId?: string;
  type?: string;
}

export type ChaincodePackageOutputs = ChaincodePackageInputs & ChaincodePackageOutcome;

/** The package the inputs make, or the failures naming the fields. */
function packageOf(i: Partial<ChaincodePackageShape>): { package: ChaincodePackage } | { failures: FieldFailure[] } {
  const { connection, file, label } = i;
  if ((connection === undefined) === (file === undefined)) {
    return {
      failures: [
        {
          property: "connection",
          reason:
            "give exactly one of connection (with label: a chaincode-as-a-service package) and file (a package built elsewhere)",
        },
      ],
    };
  }
  try {
    if (file !== undefined) {
      if (label !== undefined) {
        return { failures: [{ property: "label", reason: "a package file has its own label: leave label out" }] };
      }
      return { package: readPackageFile(file, "file") };
    }
    if (!isRecord(connection)) {
      return { failures: [{ property: "connection", reason: "must be { address, dialTimeout?, tlsRequired?, ... }" }] };
    }
    if (typeof label !== "string") {
      return {
        failures: [{ property: "label", reason: "is required with connection: the package's label, e.g. assets_1" }],
      };
    }
    return { package: buildCcaasPackage({ label, connection }) };
  } catch (error) {
    if (error instanceof ValidationError) return { failures: [...error.failures] };
    throw error;
  }
}

/** The outputs: the inputs and the package, its bytes as base64. */
function outputsOf(i: ChaincodePackageInputs, pkg: ChaincodePackage): ChaincodePackageOutputs {
  return {
    ...i,
    packageId: pkg.packageId,
    label: pkg.label,
    type: pkg.type,
    packageBase64: Buffer.from(pkg.bytes).toString("base64"),
  };
}

/** The package again, or an error naming the field (a file removed since, say). */
function made(i: ChaincodePackageInputs): ChaincodePackage {
  const result = packageOf(i);
  if ("failures" in result)
    throw new ValidationError({ subject: `ChaincodePackage ${nameFromUrn(i.__urn)}`, failures: result.failures });
  return result.package;
}

export const chaincodePackageProvider = {
  check(_olds: unknown, news: ChaincodePackageInputs): Promise<dynamic.CheckResult> {
    const { packageId: _p, type: _t, ...declared } = news;
    if (hasUnknown([declared.connection, declared.file, declared.label])) return Promise.resolve({ inputs: declared });
    const result = packageOf(declared);
    if ("failures" in result) return Promise.resolve({ failures: result.failures });
    const pkg = result.package;
    return Promise.resolve({
      inputs: {
        ...declared,
        packageId: pkg.packageId,
        type: pkg.type,
        ...(declared.file === undefined ? {} : { label: pkg.label }),
      },
    });
  },
  diff(_id: string, olds: ChaincodePackageOutputs, news: ChaincodePackageInputs): Promise<dynamic.DiffResult> {
    const changed = (["label", "connection", "file", "packageId"] as const).some((k) => differs(olds[k], news[k]));
    return Promise.resolve({ changes: changed, replaces: [], deleteBeforeReplace: false });
  },
  create(inputs: ChaincodePackageInputs): Promise<dynamic.CreateResult> {
    const pkg = made(inputs);
    return Promise.resolve({ id: pkg.packageId, outs: outputsOf(inputs, pkg) });
  },
  update(_id: string, _olds: ChaincodePackageOutputs, news: ChaincodePackageInputs): Promise<dynamic.UpdateResult> {
    return Promise.resolve({ outs: outputsOf(news, made(news)) });
  },
  /** Refresh: the package made again; a file rewritten since shows as another package id. */
  read(id: string, props: ChaincodePackageOutputs): Promise<dynamic.ReadResult> {
    const result = packageOf(props);
    if ("failures" in result) {
      log(
        "warning",
        `ChaincodePackage ${nameFromUrn(props.__urn)}: ${result.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
        props.__urn,
      );
      return Promise.resolve({ id, props });
    }
    return Promise.resolve({ id, props: outputsOf(props, result.package) });
  },
  /** Nothing was made outside the program's state: destroy sends nothing. */
  delete(): Promise<void> {
    return Promise.resolve();
  },
};
